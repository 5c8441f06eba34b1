import type { CreditNote, Invoice, Item, ItemPrice, Subscription, Transaction } from 'chargebee';
import { type ChangesPage, ConnectorError, type ConnectorSession, type SourcePage } from '../connector.js';
import type { RecordsPage } from '../../services/connector-pages.js';
import { callChargebee, type ChargebeeApiSettings, chargebeeClient, NotFoundAtChargebee } from './client.js';
import {
  eventCustomer,
  mapCustomer,
  mapInvoice,
  mapItemPrice,
  mapSubscription,
  type PeriodOf,
} from './mapping.js';

type ListPage<T> = { list: T[]; next_offset?: string | undefined };
type ListParams = { limit: number; offset?: string };
type LineItem = NonNullable<Invoice['line_items']>[number];

/** A site is a subdomain of chargebee.com ("acme", "acme-test"). */
const SITE_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/i;

/** Ids per `[in]` filter: Chargebee takes a JSON array in one query parameter. */
const IN_CHUNK = 50;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Reads the events list from here on: `"{occurred_at}"` or `"{occurred_at}|{offset}"`. */
function parseCursor(cursor: string): { at: number; offset: string | undefined } {
  const [at, offset] = cursor.split('|');
  return { at: Number(at), offset: offset || undefined };
}

/**
 * Reads a Chargebee site kind by kind, each kind one list endpoint paged with `offset` /
 * `next_offset`. An invoice page also reads the invoice's remaining line items, the credit
 * notes issued against it and the transactions of its payments, so an invoice is stored
 * whole, with its credits and transactions (the /data shape has no place for them apart).
 */
export function chargebeeSession(
  apiKey: string,
  site: string,
  settings: ChargebeeApiSettings,
): ConnectorSession {
  const chargebee = chargebeeClient(apiKey, site, settings);
  const call = <T>(fn: () => Promise<T>) => callChargebee(fn, settings.retry);
  const limit = Math.min(settings.pageSize ?? 100, 100);
  const from = (cursor: string | null): ListParams => ({
    limit,
    ...(cursor === null ? {} : { offset: cursor }),
  });
  /** Item prices read so far, by id: their periods tell prorated lines from whole ones. */
  const itemPrices = new Map<string, ItemPrice>();
  /** Items read so far, by id: whether an item is metered. */
  const knownItems = new Map<string, Item>();

  /** Every page of a list that the caller reads in full. */
  async function all<T>(list: (params: ListParams) => Promise<ListPage<T>>): Promise<T[]> {
    const items: T[] = [];
    let offset: string | null = null;
    do {
      const at: string | null = offset;
      const page: ListPage<T> = await call(() => list(from(at)));
      items.push(...page.list);
      offset = page.next_offset ?? null;
    } while (offset !== null);
    return items;
  }

  /** The items of the prices, those not read yet read. */
  async function itemsOf(prices: readonly ItemPrice[]): Promise<ReadonlyMap<string, Item>> {
    const ids = [
      ...new Set(prices.flatMap((price) => (price.item_id === undefined ? [] : [price.item_id]))),
    ].filter((id) => !knownItems.has(id));
    for (const chunk of chunks(ids, IN_CHUNK)) {
      const found = await all((params) => chargebee.item.list({ ...params, id: { in: chunk } }));
      for (const { item } of found) knownItems.set(item.id, item);
    }
    return knownItems;
  }

  function plansOf(prices: readonly ItemPrice[], items: ReadonlyMap<string, Item>) {
    for (const price of prices) itemPrices.set(price.id, price);
    return prices.flatMap(
      (price) =>
        mapItemPrice(price, price.item_id === undefined ? undefined : items.get(price.item_id)) ?? [],
    );
  }

  /** Reads the item prices named and not yet known (a resumed import, a resync). */
  async function knowPrices(ids: Iterable<string>): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !itemPrices.has(id));
    for (const chunk of chunks(missing, IN_CHUNK)) {
      const found = await all((params) => chargebee.itemPrice.list({ ...params, id: { in: chunk } }));
      for (const { item_price } of found) itemPrices.set(item_price.id, item_price);
    }
  }

  const periodOf: PeriodOf = (id) => {
    const price = itemPrices.get(id);
    return price?.period === undefined || price.period_unit === undefined
      ? undefined
      : { period: price.period, unit: price.period_unit };
  };

  /**
   * The records of the subscriptions; one with scheduled changes is read again as its next term
   * (`retrieve_with_scheduled_changes`), whose item prices give the changes' MRR. With `billed`
   * (a customer's invoice lines), addons removed since are ended (the removed-items rule).
   */
  async function subscriptionRecords(subscriptions: readonly Subscription[], billed?: readonly LineItem[]) {
    const records = [];
    for (const subscription of subscriptions) {
      if (!subscription.has_scheduled_changes) {
        records.push(...mapSubscription(subscription, undefined, billed));
        continue;
      }
      const { subscription: scheduled } = await call(() =>
        chargebee.subscription.retrieveWithScheduledChanges(subscription.id),
      );
      const ids = (scheduled.subscription_items ?? []).map((item) => item.item_price_id);
      await knowPrices(ids);
      const items = await itemsOf(ids.flatMap((id) => itemPrices.get(id) ?? []));
      const metered = (id: string) => {
        const itemId = itemPrices.get(id)?.item_id;
        return itemId !== undefined && items.get(itemId)?.metered === true;
      };
      records.push(...mapSubscription(subscription, { subscription: scheduled, periodOf, metered }, billed));
    }
    return records;
  }

  async function linesOf(invoice: Invoice): Promise<LineItem[]> {
    const lines = [...(invoice.line_items ?? [])];
    let offset = invoice.line_items_next_offset;
    while (offset !== undefined) {
      const at = offset;
      const { invoice: more } = await call(() =>
        chargebee.invoice.retrieve(invoice.id, { line_items_limit: 100, line_items_offset: at }),
      );
      lines.push(...(more.line_items ?? []));
      offset = more.line_items_next_offset;
    }
    return lines;
  }

  async function creditNotesOf(invoices: readonly Invoice[]): Promise<Map<string, CreditNote[]>> {
    const ids = invoices
      .filter((invoice) => (invoice.issued_credit_notes ?? []).length > 0)
      .map((invoice) => invoice.id);
    const byInvoice = new Map<string, CreditNote[]>();
    for (const chunk of chunks(ids, IN_CHUNK)) {
      const found = await all((params) =>
        chargebee.creditNote.list({ ...params, reference_invoice_id: { in: chunk } }),
      );
      for (const { credit_note } of found) {
        const key = credit_note.reference_invoice_id!;
        byInvoice.set(key, [...(byInvoice.get(key) ?? []), credit_note]);
      }
    }
    return byInvoice;
  }

  /** The payment transactions of the invoices, by id: a few `id[in]` reads per page, not one per invoice. */
  async function transactionsOf(invoices: readonly Invoice[]): Promise<Map<string, Transaction>> {
    const ids = [
      ...new Set(
        invoices.flatMap((invoice) => (invoice.linked_payments ?? []).map((payment) => payment.txn_id)),
      ),
    ];
    const byId = new Map<string, Transaction>();
    for (const chunk of chunks(ids, IN_CHUNK)) {
      const found = await all((params) => chargebee.transaction.list({ ...params, id: { in: chunk } }));
      for (const { transaction } of found) byId.set(transaction.id, transaction);
    }
    return byId;
  }

  /** Each invoice with all its line items. */
  async function withLines(invoices: readonly Invoice[]) {
    const read = [];
    for (const invoice of invoices) read.push({ invoice, lines: await linesOf(invoice) });
    return read;
  }

  async function invoiceRecords(withLines: readonly { invoice: Invoice; lines: LineItem[] }[]) {
    const invoices = withLines.map(({ invoice }) => invoice);
    const credits = await creditNotesOf(invoices);
    const transactions = await transactionsOf(invoices);
    await knowPrices(
      [
        ...withLines.flatMap(({ lines }) => lines),
        ...[...credits.values()].flat().flatMap((note) => note.line_items ?? []),
      ]
        .filter((line) => line.entity_type === 'plan_item_price' || line.entity_type === 'addon_item_price')
        .flatMap((line) => (line.entity_id === undefined ? [] : [line.entity_id])),
    );
    return withLines.map(({ invoice, lines }) => {
      const paid = new Set((invoice.linked_payments ?? []).map((payment) => payment.txn_id));
      const payments = [...paid].flatMap((id) => transactions.get(id) ?? []);
      return mapInvoice(invoice, lines, credits.get(invoice.id) ?? [], payments, periodOf);
    });
  }

  const kinds: Record<string, (cursor: string | null) => Promise<SourcePage>> = {
    async customers(cursor) {
      const page = await call(() => chargebee.customer.list(from(cursor)));
      return {
        records: { customers: page.list.map(({ customer }) => mapCustomer(customer)) },
        next: page.next_offset ?? null,
        fetched: page.list.length,
      };
    },
    async item_prices(cursor) {
      const page = await call(() =>
        chargebee.itemPrice.list({ ...from(cursor), item_type: { in: ['plan', 'addon'] } }),
      );
      const prices = page.list.map(({ item_price }) => item_price);
      return {
        records: { plans: plansOf(prices, await itemsOf(prices)) },
        next: page.next_offset ?? null,
        fetched: prices.length,
      };
    },
    async subscriptions(cursor) {
      const page = await call(() => chargebee.subscription.list(from(cursor)));
      return {
        records: {
          subscriptions: await subscriptionRecords(page.list.map(({ subscription }) => subscription)),
        },
        next: page.next_offset ?? null,
        fetched: page.list.length,
      };
    },
    async invoices(cursor) {
      const page = await call(() => chargebee.invoice.list(from(cursor)));
      return {
        records: { invoices: await invoiceRecords(await withLines(page.list.map(({ invoice }) => invoice))) },
        next: page.next_offset ?? null,
        fetched: page.list.length,
      };
    },
  };

  return {
    kinds: Object.keys(kinds),
    async account() {
      if (!SITE_NAME.test(site)) throw new ConnectorError(`Chargebee: "${site}" is not a site name`);
      // Chargebee has no endpoint naming the site's owner: one small read checks the key and site.
      await call(() => chargebee.customer.list({ limit: 1 }));
      return { id: site, name: site, livemode: !site.endsWith('-test') };
    },
    async customerRecords(customerId) {
      let customer;
      try {
        ({ customer } = await call(() => chargebee.customer.retrieve(customerId)));
      } catch (error) {
        if (error instanceof NotFoundAtChargebee) return false;
        throw error;
      }
      if (customer.deleted) return false;
      const ofCustomer = { customer_id: { is: customerId } };
      const subscriptions = (
        await all((params) => chargebee.subscription.list({ ...params, ...ofCustomer }))
      ).map(({ subscription }) => subscription);
      const invoices = await withLines(
        (await all((params) => chargebee.invoice.list({ ...params, ...ofCustomer }))).map(
          ({ invoice }) => invoice,
        ),
      );
      // The whole customer's lines: addons billed there and removed from their subscription end.
      const billed = invoices.flatMap(({ lines }) => lines);
      const subscriptionsRead = await subscriptionRecords(subscriptions, billed);
      // The plans its records name (a removed addon's too), which may be newer than the last import.
      const named = new Set(subscriptionsRead.flatMap((record) => record.plan_id ?? []));
      await knowPrices(named);
      const wanted = [...named].flatMap((id) => itemPrices.get(id) ?? []);
      const records: RecordsPage = {
        customers: [mapCustomer(customer)],
        plans: plansOf(wanted, await itemsOf(wanted)),
        subscriptions: subscriptionsRead,
        invoices: await invoiceRecords(invoices),
      };
      return records;
    },
    async changes(cursor): Promise<ChangesPage> {
      if (cursor === null) {
        const latest = await call(() => chargebee.event.list({ limit: 1, 'sort_by[desc]': 'occurred_at' }));
        const at = latest.list[0]?.event.occurred_at ?? Math.floor(Date.now() / 1000);
        return { customerIds: [], cursor: String(at), more: false };
      }
      const { at, offset } = parseCursor(cursor);
      // From the cursor's second on (`after` is strict): events of that second are read again, harmlessly.
      const page = await call(() =>
        chargebee.event.list({
          limit,
          ...(offset === undefined ? {} : { offset }),
          occurred_at: { after: at - 1 },
          'sort_by[asc]': 'occurred_at',
        }),
      );
      const events = page.list.map(({ event }) => event);
      const customerIds = [
        ...new Set(
          events.flatMap((event) => eventCustomer(event.content as unknown as Record<string, unknown>) ?? []),
        ),
      ];
      if (page.next_offset !== undefined)
        return { customerIds, cursor: `${at}|${page.next_offset}`, more: true };
      const last = events.at(-1)?.occurred_at ?? at;
      return { customerIds, cursor: String(last), more: false };
    },
    async page(kind, cursor) {
      const read = kinds[kind];
      if (!read) throw new Error(`Chargebee has no object kind "${kind}" to import`);
      return read(cursor);
    },
  };
}
