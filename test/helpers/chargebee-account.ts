import type { ChargebeeData, WireObject } from '../fakes/chargebee-server.js';
import { type Customer, type Invoice, type Line, stripeData } from './stripe-account.js';

// The neutral account of stripe-account.ts (generateAccount) as a Chargebee site with product
// catalog 2.0 serves it, so an import from the fake can be compared with the same account
// posted through /data/* (dataRecords). What Chargebee does differently from Stripe is said
// where it happens: items without ids, addons, credit notes for credits, no past-due status.

const DAY = 86_400;

/** The generator's seat and usage prices are extras on a plan: addon items at Chargebee. */
const ADDONS = new Set(['price_seat', 'price_api']);

type ItemType = 'plan' | 'addon' | 'charge';

interface Catalog {
  items: WireObject[];
  itemPrices: WireObject[];
  typeOf: Map<string, ItemType>;
  /** Each item price's price per unit, in cents. */
  priceOf: Map<string, number>;
}

/** Items and item prices from the generator's prices (the catalog is not part of an account). */
function catalog(customers: readonly Customer[]): Catalog {
  const stripe = stripeData(customers);
  const productName = new Map(stripe.products.map((product) => [product.id, product.name as string]));
  const created = Date.parse('2025-10-01T00:00:00Z') / 1000;
  const typeOf = new Map<string, ItemType>();
  const priceOf = new Map(stripe.prices.map((price) => [price.id, price.unit_amount as number]));
  const items: WireObject[] = [];
  const itemPrices: WireObject[] = [];
  for (const price of stripe.prices) {
    const recurring = price.recurring as {
      interval: string;
      interval_count: number;
      usage_type: string;
    } | null;
    const type: ItemType = recurring === null ? 'charge' : ADDONS.has(price.id) ? 'addon' : 'plan';
    typeOf.set(price.id, type);
    const itemId = `item_${price.id}`;
    const name = productName.get(price.product as string)!;
    items.push({
      id: itemId,
      name,
      type,
      status: 'active',
      metered: recurring?.usage_type === 'metered',
      enabled_for_checkout: true,
      enabled_in_portal: true,
      is_giftable: false,
      item_applicability: 'all',
      deleted: false,
      updated_at: created,
    });
    itemPrices.push({
      id: price.id,
      name: `${name} ${(price.currency as string).toUpperCase()}`,
      external_name: name,
      item_id: itemId,
      item_type: type,
      status: 'active',
      pricing_model: 'per_unit',
      price: price.unit_amount,
      currency_code: (price.currency as string).toUpperCase(),
      ...(recurring === null ? {} : { period: recurring.interval_count, period_unit: recurring.interval }),
      free_quantity: 0,
      created_at: created,
      updated_at: created,
      deleted: false,
    });
  }
  return { items, itemPrices, typeOf, priceOf };
}

const CHARGEBEE_STATUS = { paid: 'paid', open: 'payment_due', void: 'voided' } as const;

function invoiceTotal(invoice: Invoice): number {
  return invoice.lines.reduce(
    (sum, line) => sum + line.gross - line.discount + (line.inclusive ? 0 : line.tax),
    0,
  );
}

/** The account as a Chargebee site serves it. */
export function chargebeeData(customers: readonly Customer[]): ChargebeeData {
  const { items, itemPrices, typeOf, priceOf } = catalog(customers);
  const subscriptions: WireObject[] = [];
  const scheduledChanges = new Map<string, WireObject>();
  /** A subscription item as Chargebee lists it: per-unit price and the amount of its quantity. */
  const wireItem = (planId: string, quantity: number, termEnd: number) => ({
    item_price_id: planId,
    item_type: typeOf.get(planId),
    quantity,
    unit_price: priceOf.get(planId),
    amount: priceOf.get(planId)! * quantity,
    ...(termEnd > 0 ? { current_term_end: termEnd } : {}),
  });
  const invoices: WireObject[] = [];
  const creditNotes: WireObject[] = [];
  const transactions: WireObject[] = [];

  for (const customer of customers) {
    const sub = customer.subscription;
    const currency = customer.currency.toUpperCase();
    const planItem = sub.items[0]!.id;
    const entityType = (line: Line) => {
      if (line.itemId === null) return 'charge_item_price';
      return line.itemId === planItem ? 'plan_item_price' : 'addon_item_price';
    };
    const wireLine = (line: Line, invoice: Invoice, sign: 1 | -1) => ({
      id: `li_${line.id}`,
      subscription_id: sub.id,
      customer_id: customer.id,
      date_from: line.start,
      date_to: line.end,
      unit_amount: Math.round((sign * line.gross) / Math.max(line.quantity, 1)),
      quantity: line.quantity,
      amount: sign * line.gross,
      pricing_model: 'per_unit',
      is_taxed: line.tax !== 0,
      tax_amount: sign * line.tax,
      discount_amount: line.discount,
      item_level_discount_amount: line.discount,
      description: line.description,
      entity_description: line.description,
      entity_type: entityType(line),
      entity_id: line.planId,
      metered: line.planId === 'price_api',
      invoice_id: invoice.id,
    });
    const dueInvoices = customer.invoices.filter((invoice) => invoice.status === 'open');
    const scheduled = sub.cancelAtPeriodEnd;
    const status = sub.paused
      ? 'paused'
      : sub.status === 'canceled'
        ? 'cancelled'
        : sub.status === 'trialing'
          ? 'in_trial'
          : scheduled
            ? 'non_renewing'
            : 'active';
    const termEnd = sub.items[0]!.periodEnd;
    const change = sub.termEndChange;
    subscriptions.push({
      id: sub.id,
      customer_id: customer.id,
      currency_code: currency,
      status,
      created_at: sub.start,
      started_at: sub.start,
      ...(sub.trialEnd === null ? {} : { trial_start: sub.start, trial_end: sub.trialEnd }),
      ...(termEnd > 0 ? { current_term_end: termEnd, next_billing_at: termEnd } : {}),
      // On a live subscription, when the scheduled cancellation takes effect; on a cancelled one, when it did.
      ...(sub.status === 'canceled'
        ? { cancelled_at: sub.endedAt }
        : scheduled
          ? { cancelled_at: termEnd, cancel_schedule_created_at: sub.canceledAt }
          : {}),
      ...(sub.paused ? { pause_date: customer.invoices[1]?.created ?? sub.start } : {}),
      // Chargebee has no past-due status: dunning shows as invoices still due.
      due_invoices_count: dueInvoices.length,
      ...(dueInvoices.length > 0
        ? {
            due_since: dueInvoices[0]!.created,
            total_dues: dueInvoices.reduce((s, i) => s + invoiceTotal(i), 0),
          }
        : {}),
      subscription_items: sub.items.map((item) => wireItem(item.planId, item.quantity, termEnd)),
      has_scheduled_changes: change !== undefined,
      ...(change === undefined ? {} : { changes_scheduled_at: change.at }),
      has_scheduled_advance_invoices: false,
      deleted: false,
      decommissioned: false,
    });
    if (change !== undefined) {
      // The next term (its term dates left out: nothing reads them): the plan item replaced,
      // the items the change removes gone.
      const { current_term_end, next_billing_at, ...current } = subscriptions.at(-1)!;
      scheduledChanges.set(sub.id, {
        ...current,
        subscription_items: [
          wireItem(change.planId, change.quantity, 0),
          ...sub.items
            .slice(1)
            .filter((item) => !change.removed.includes(item.id))
            .map((item) => wireItem(item.planId, item.quantity, 0)),
        ],
      });
    }

    for (const invoice of customer.invoices) {
      const priceType = invoice.lines.some((line) => line.inclusive) ? 'tax_inclusive' : 'tax_exclusive';
      // A credit for unused time is no negative line at Chargebee but an adjustment credit note.
      const credits = invoice.lines.filter((line) => line.gross < 0);
      const charged = invoice.lines.filter((line) => line.gross >= 0);
      const paid = invoice.charges.find((charge) => charge.ok);
      const notes = credits.map((line) => ({
        id: `cn_${line.id}`,
        customer_id: customer.id,
        subscription_id: sub.id,
        reference_invoice_id: invoice.id,
        type: 'adjustment',
        reason_code: 'subscription_change',
        status: 'adjusted',
        date: invoice.created,
        price_type: priceType,
        currency_code: currency,
        total: -(line.gross - line.discount + (line.inclusive ? 0 : line.tax)),
        sub_total: -line.gross,
        line_items: [wireLine(line, invoice, -1)],
        deleted: false,
      }));
      creditNotes.push(...notes);
      invoices.push({
        id: invoice.id,
        customer_id: customer.id,
        subscription_id: sub.id,
        recurring: true,
        status: CHARGEBEE_STATUS[invoice.status],
        price_type: priceType,
        date: invoice.created,
        currency_code: invoice.currency.toUpperCase(),
        total: invoiceTotal(invoice),
        ...(paid ? { paid_at: paid.created, amount_paid: paid.amount } : {}),
        line_items: charged.map((line) => wireLine(line, invoice, 1)),
        linked_payments: invoice.charges.map((charge) => ({
          txn_id: charge.id,
          applied_amount: charge.ok ? charge.amount : 0,
          applied_at: charge.created,
          txn_status: charge.ok ? 'success' : 'failure',
          txn_date: charge.created,
          txn_amount: charge.amount,
        })),
        issued_credit_notes: notes.map((note) => ({
          cn_id: note.id,
          cn_reason_code: note.reason_code,
          cn_date: note.date,
          cn_total: note.total,
          cn_status: note.status,
        })),
        term_finalized: true,
        is_gifted: false,
        deleted: false,
      });
      for (const charge of invoice.charges) {
        transactions.push({
          id: charge.id,
          customer_id: customer.id,
          subscription_id: sub.id,
          type: 'payment',
          status: charge.ok ? 'success' : 'failure',
          date: charge.created,
          amount: charge.amount,
          currency_code: invoice.currency.toUpperCase(),
          payment_method: 'card',
          gateway: 'stripe',
          linked_invoices: [
            {
              invoice_id: invoice.id,
              applied_amount: charge.ok ? charge.amount : 0,
              applied_at: charge.created,
              invoice_date: invoice.created,
              invoice_total: invoiceTotal(invoice),
              invoice_status: CHARGEBEE_STATUS[invoice.status],
            },
          ],
          linked_refunds:
            charge.refund > 0
              ? [
                  {
                    txn_id: `re_${charge.id}`,
                    txn_status: 'success',
                    txn_date: charge.created + 5 * DAY,
                    txn_amount: charge.refund,
                  },
                ]
              : [],
          deleted: false,
        });
      }
    }
  }

  return {
    customers: customers
      .filter((customer) => !customer.deleted)
      .map((customer) => {
        const [first, ...rest] = customer.name.split(' ');
        return {
          id: customer.id,
          first_name: first,
          last_name: rest.join(' '),
          email: customer.email,
          created_at: customer.created,
          preferred_currency_code: customer.currency.toUpperCase(),
          billing_address: { country: customer.country },
          auto_collection: 'on',
          net_term_days: 0,
          allow_direct_debit: false,
          promotional_credits: 0,
          unbilled_charges: 0,
          refundable_credits: 0,
          excess_payments: 0,
          deleted: false,
        };
      }),
    items,
    itemPrices,
    subscriptions,
    scheduledChanges,
    invoices,
    creditNotes,
    transactions,
    events: [],
  };
}
