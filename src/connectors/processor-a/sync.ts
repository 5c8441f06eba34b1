import type Stripe from 'stripe';
import { type ConnectorSession, CursorLostError, type SourcePage } from '../connector.js';
import type { RecordsPage } from '../../services/connector-pages.js';
import { callStripe, type StripeApiSettings, stripeClient } from './client.js';
import { mapCustomer, mapInvoice, mapPrice, mapSubscription, schedulePriceIds } from './mapping.js';
import { customerOf } from './webhooks.js';

/** The change cursor of an account that had no event yet: every event is after it. */
const NO_EVENT_YET = '';

/** The customers events (newest first) concern, oldest change first, each once. */
function customersOf(events: readonly Stripe.Event[]): string[] {
  const ids = new Set<string>();
  for (const event of [...events].reverse()) {
    const id = customerOf(event.data.object);
    if (id !== null) ids.add(id);
  }
  return [...ids];
}

type ListPage<T> = { data: T[]; has_more: boolean };

function pageOf<T extends { id: string }>(list: ListPage<T>, records: RecordsPage): SourcePage {
  return { records, next: list.has_more ? list.data.at(-1)!.id : null, fetched: list.data.length };
}

/**
 * Reads a Stripe account kind by kind, each kind one list endpoint paged with
 * `starting_after`. An invoice page also reads the invoice's remaining lines and the charges
 * of its payments, so an invoice is stored whole with its transactions.
 */
export function stripeSession(apiKey: string, settings: StripeApiSettings): ConnectorSession {
  const stripe = stripeClient(apiKey, settings);
  const call = <T>(fn: () => Promise<T>) => callStripe(fn, settings.retry);
  const limit = settings.pageSize ?? 100;
  const from = (cursor: string | null) => ({ limit, ...(cursor === null ? {} : { starting_after: cursor }) });

  /** Every page of a list that the caller reads in full (an invoice's lines, a payment's charges). */
  async function all<T extends { id: string }>(
    list: (params: { limit: number; starting_after?: string }) => Promise<ListPage<T>>,
    first?: ListPage<T>,
  ): Promise<T[]> {
    const items: T[] = [];
    let page = first ?? (await call(() => list(from(null))));
    items.push(...page.data);
    while (page.has_more) {
      const after = page.data.at(-1)!.id;
      page = await call(() => list(from(after)));
      items.push(...page.data);
    }
    return items;
  }

  async function chargesOf(invoice: Stripe.Invoice): Promise<Stripe.Charge[]> {
    const intents = (invoice.payments?.data ?? []).flatMap((payment) => {
      const intent = payment.payment.payment_intent;
      return intent === undefined ? [] : [typeof intent === 'string' ? intent : intent.id];
    });
    const charges = [];
    for (const paymentIntent of intents) {
      charges.push(
        ...(await all((params) =>
          stripe.charges.list({ ...params, payment_intent: paymentIntent, expand: ['data.refunds'] }),
        )),
      );
    }
    return charges.sort((a, b) => a.created - b.created);
  }

  /** The credit notes against an invoice, each with all its lines; only read when it has any. */
  async function creditNotesOf(invoice: Stripe.Invoice): Promise<Stripe.CreditNote[]> {
    if (invoice.pre_payment_credit_notes_amount + invoice.post_payment_credit_notes_amount === 0) return [];
    const notes = await all((params) => stripe.creditNotes.list({ ...params, invoice: invoice.id }));
    const whole = [];
    for (const note of notes) {
      const lines = await all((params) => stripe.creditNotes.listLineItems(note.id, params), note.lines);
      whole.push({ ...note, lines: { ...note.lines, data: lines, has_more: false } });
    }
    return whole;
  }

  /** Each invoice with all its lines. */
  async function withLines(invoices: readonly Stripe.Invoice[]) {
    const read = [];
    for (const invoice of invoices)
      read.push({
        invoice,
        lines: await all((params) => stripe.invoices.listLineItems(invoice.id, params), invoice.lines),
      });
    return read;
  }

  async function invoiceRecords(
    invoices: readonly { invoice: Stripe.Invoice; lines: Stripe.InvoiceLineItem[] }[],
  ) {
    const records = [];
    for (const { invoice, lines } of invoices)
      records.push(mapInvoice(invoice, lines, await chargesOf(invoice), await creditNotesOf(invoice)));
    return records;
  }

  /** Prices with their products, each read once, fresh (a plan may be newer than the last import). */
  async function retrievePrices(ids: Iterable<string>): Promise<Map<string, Stripe.Price>> {
    const prices = new Map<string, Stripe.Price>();
    for (const id of new Set(ids))
      prices.set(id, await call(() => stripe.prices.retrieve(id, { expand: ['product'] })));
    return prices;
  }

  /** Subscription records, with the prices their schedules' future phases name for the new MRR. */
  async function subscriptionRecords(subscriptions: readonly Stripe.Subscription[]) {
    const prices = await retrievePrices(subscriptions.flatMap(schedulePriceIds));
    return subscriptions.flatMap((subscription) => mapSubscription(subscription, (id) => prices.get(id)));
  }

  /** Subscriptions are listed with their schedules, which plan their future changes. */
  const withSchedule: Stripe.SubscriptionListParams = { status: 'all', expand: ['data.schedule'] };

  const kinds: Record<string, (cursor: string | null) => Promise<SourcePage>> = {
    async customers(cursor) {
      const list = await call(() => stripe.customers.list(from(cursor)));
      return pageOf(list, { customers: list.data.map(mapCustomer) });
    },
    async prices(cursor) {
      const list = await call(() => stripe.prices.list({ ...from(cursor), expand: ['data.product'] }));
      return pageOf(list, { plans: list.data.flatMap((price) => mapPrice(price) ?? []) });
    },
    async subscriptions(cursor) {
      const list = await call(() => stripe.subscriptions.list({ ...from(cursor), ...withSchedule }));
      return pageOf(list, { subscriptions: await subscriptionRecords(list.data) });
    },
    async invoices(cursor) {
      const list = await call(() => stripe.invoices.list({ ...from(cursor), expand: ['data.payments'] }));
      return pageOf(list, { invoices: await invoiceRecords(await withLines(list.data)) });
    },
  };

  return {
    kinds: Object.keys(kinds),
    async account() {
      const account = await call(() => stripe.accounts.retrieveCurrent());
      return {
        id: account.id,
        name: account.settings?.dashboard.display_name ?? account.business_profile?.name ?? null,
        livemode: /^(sk|rk)_live_/.test(apiKey),
      };
    },
    async customerRecords(customerId) {
      const customer = await call(() => stripe.customers.retrieve(customerId));
      if ('deleted' in customer && customer.deleted) return false;
      const subscriptions = await all((params) =>
        stripe.subscriptions.list({ ...params, customer: customerId, ...withSchedule }),
      );
      const invoices = await withLines(
        await all((params) =>
          stripe.invoices.list({ ...params, customer: customerId, expand: ['data.payments'] }),
        ),
      );
      // The whole customer's lines: items billed there and deleted from their subscription end.
      const billed = invoices.flatMap(({ lines }) => lines);
      // The plans its items and their schedules name.
      const prices = await retrievePrices(
        subscriptions.flatMap((sub) => [
          ...sub.items.data.map((item) => item.price.id),
          ...schedulePriceIds(sub),
        ]),
      );
      const records = subscriptions.flatMap((sub) => mapSubscription(sub, (id) => prices.get(id), billed));
      // A deleted item's plan, which the subscription no longer names.
      const unread = records.flatMap((record) =>
        record.plan_id === null || prices.has(record.plan_id) ? [] : [record.plan_id],
      );
      for (const [id, price] of await retrievePrices(unread)) prices.set(id, price);
      return {
        customers: [mapCustomer(customer)],
        plans: [...prices.values()].flatMap((price) => mapPrice(price) ?? []),
        subscriptions: records,
        invoices: await invoiceRecords(invoices),
      };
    },
    /**
     * The events list, newest first, read forward from the last event seen with
     * `ending_before` (a page holds the events just after it, still newest first). Stripe keeps
     * events 30 days: an older cursor's event is gone, which is a CursorLostError.
     */
    async changes(cursor) {
      if (cursor === null) {
        const newest = await call(() => stripe.events.list({ limit: 1 }));
        return { customerIds: [], cursor: newest.data[0]?.id ?? NO_EVENT_YET, more: false };
      }
      if (cursor === NO_EVENT_YET) {
        // No event existed when the import started, so every event now is a change: the list
        // from its newest event, paged back to the oldest.
        const events = await all((params) => stripe.events.list(params));
        return {
          customerIds: customersOf(events),
          cursor: events[0]?.id ?? NO_EVENT_YET,
          more: false,
        };
      }
      let list;
      try {
        list = await call(() => stripe.events.list({ limit, ending_before: cursor }));
      } catch (error) {
        if (error instanceof CursorLostError)
          throw new CursorLostError(
            `Stripe no longer has event ${cursor} (it keeps events 30 days): changes after it cannot be read`,
          );
        throw error;
      }
      return { customerIds: customersOf(list.data), cursor: list.data[0]?.id ?? cursor, more: list.has_more };
    },
    async page(kind, cursor) {
      const read = kinds[kind];
      if (!read) throw new Error(`Stripe has no object kind "${kind}" to import`);
      return read(cursor);
    },
  };
}
