import type { CreditNote, Customer, Invoice, Item, ItemPrice, Subscription, Transaction } from 'chargebee';
import { monthlyFromPeriodAmount } from '../../engine/normalise-line.js';
import { creditNoteLines } from '../credit-notes.js';
import { type BilledItem, removedItemRecords } from '../removed-items.js';

// Chargebee objects (product catalog 2.0) in, `/data/*` records out; pure functions, so each
// rule has a test. The rules and their reasons are in docs/connectors.md ("processor-b: Chargebee").

const DAY_SECONDS = 86_400;

function instant(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

function day(seconds: number): string {
  return instant(seconds).slice(0, 10);
}

/** The same instant `count` units later, months clamped to the month's end as Chargebee bills them. */
function addPeriod(seconds: number, count: number, unit: 'day' | 'week' | 'month' | 'year'): number {
  if (unit === 'day' || unit === 'week') return seconds + count * (unit === 'day' ? 1 : 7) * DAY_SECONDS;
  const months = unit === 'year' ? 12 * count : count;
  const date = new Date(seconds * 1000);
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), last));
  target.setUTCHours(date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds());
  return target.getTime() / 1000;
}

/** A customer needs a name or an email; Chargebee requires neither, so the company or id stands in. */
export function mapCustomer(customer: Customer) {
  const person = [customer.first_name, customer.last_name].filter(Boolean).join(' ').trim();
  const name = person || customer.company || (customer.email ? null : customer.id);
  return {
    id: customer.id,
    name,
    email: customer.email ?? null,
    created_date: instant(customer.created_at),
    country: customer.billing_address?.country ?? null,
    currency: customer.preferred_currency_code ?? null,
  };
}

/**
 * A recurring item price (of a plan or an addon item: both have a period) is a plan; a charge
 * has no period and is not one (its lines are one-time revenue). The item gives the product
 * name and whether it is metered.
 */
export function mapItemPrice(price: ItemPrice, item: Item | undefined) {
  if (price.item_type === 'charge' || price.period === undefined || price.period_unit === undefined)
    return undefined;
  return {
    id: price.id,
    name: price.external_name ?? price.name,
    billing_freq: price.period_unit,
    billing_freq_count: price.period,
    pricing_model: item?.metered ? 'metered' : 'licensed',
    product_name: item ? (item.external_name ?? item.name) : null,
    currency: price.currency_code,
  };
}

/**
 * The record id of a subscription item. Chargebee's items have no ids: the plan item (one per
 * subscription) is the subscription's own id, so a plan change keeps the record; an addon is
 * the subscription id and its item price id. Invoice lines name the same.
 */
export function itemRecordId(subscriptionId: string, itemType: string, itemPriceId: string): string {
  return itemType === 'plan' || itemType === 'plan_item_price'
    ? subscriptionId
    : `${subscriptionId}:${itemPriceId}`;
}

type Status = 'active' | 'trialing' | 'past_due' | 'canceled' | 'ended';

function statusOf(subscription: Subscription): Status | undefined {
  switch (subscription.status) {
    case 'in_trial':
      return 'trialing';
    case 'active':
    case 'non_renewing':
      // Chargebee has no past-due status: dunning shows as invoices still due.
      return (subscription.due_invoices_count ?? 0) > 0 ? 'past_due' : 'active';
    case 'cancelled':
      return 'canceled';
    // Paused: the record stops carrying revenue and its invoices decide; moved to another customer: ended here.
    case 'paused':
    case 'transferred':
      return 'ended';
    // A future subscription has not started: it is read again once it has.
    default:
      return undefined;
  }
}

/** An item price's billing period, for telling a partial (prorated) line from a whole one. */
export type PeriodOf = (
  itemPriceId: string,
) => { period: number; unit: 'day' | 'week' | 'month' | 'year' } | undefined;

type SubscriptionItem = NonNullable<Subscription['subscription_items']>[number];

type LineItem = NonNullable<Invoice['line_items']>[number];

/** A line billing a subscription's plan or addon item (a charge's line is one-time). */
function isRecurringLine(line: LineItem): boolean {
  return (
    line.subscription_id !== undefined &&
    line.entity_id !== undefined &&
    (line.entity_type === 'plan_item_price' || line.entity_type === 'addon_item_price')
  );
}

/** A change of a subscription record on a later day, in the `/data/subscriptions` shape. */
export interface ScheduledChange {
  date: string;
  plan_id?: string;
  quantity: number;
  amount?: number;
}

/** What the next term of a subscription with scheduled changes is, and its item prices. */
export interface NextTerm {
  /** The subscription as `retrieve_with_scheduled_changes` answers it. */
  subscription: Subscription;
  periodOf: PeriodOf;
  /** Whether the item price is of a metered item, whose amount depends on usage. */
  metered: (itemPriceId: string) => boolean;
}

function isPlanItem(item: SubscriptionItem): boolean {
  return item.item_type === 'plan';
}

/** The monthly value of an item in cents: its amount for one period of its item price, before coupons. */
function itemMrr(item: SubscriptionItem, next: NextTerm): number | undefined {
  const period = next.periodOf(item.item_price_id);
  if (period === undefined || next.metered(item.item_price_id)) return undefined;
  const amount = item.amount ?? (item.unit_price ?? 0) * (item.quantity ?? 1);
  return Math.round(
    monthlyFromPeriodAmount(amount, { billingFreq: period.unit, billingFreqCount: period.period }),
  );
}

/**
 * The scheduled change of one record at the next term: the plan item is matched by type (a plan
 * change keeps the record), an addon by its item price. A new item price or quantity gives a
 * change with the item's new MRR (none for a metered item); an addon the next term drops, one to
 * quantity 0 and MRR 0; an unchanged item, none.
 */
function changeAt(date: string, item: SubscriptionItem, next: NextTerm): ScheduledChange | undefined {
  const after = (next.subscription.subscription_items ?? []).find((candidate) =>
    isPlanItem(item) ? isPlanItem(candidate) : candidate.item_price_id === item.item_price_id,
  );
  if (after === undefined) return { date, quantity: 0, amount: 0 };
  const quantity = after.quantity ?? 1;
  if (after.item_price_id === item.item_price_id && quantity === (item.quantity ?? 1)) return undefined;
  const amount = itemMrr(after, next);
  return {
    date,
    ...(after.item_price_id === item.item_price_id ? {} : { plan_id: after.item_price_id }),
    quantity,
    ...(amount === undefined ? {} : { amount }),
  };
}

/** What a plan or addon line bills, for the removed-items rule. */
function billedItem(line: LineItem): BilledItem | undefined {
  if (!isRecurringLine(line)) return undefined;
  return {
    subscription: line.subscription_id!,
    record: itemRecordId(line.subscription_id!, line.entity_type, line.entity_id!),
    planId: line.entity_id!,
    quantity: line.quantity ?? 1,
    end: new Date(line.date_to * 1000),
    credit: (line.amount ?? 0) < 0,
  };
}

/**
 * One record per recurring subscription item (plan and addons; charges are one-time lines),
 * each with its item price and quantity. `cancelled_at` is when a cancelled subscription ended,
 * or, on a live one, when its scheduled cancellation takes effect. With `next` (a subscription
 * that `has_scheduled_changes`), the records whose item changes at `changes_scheduled_at` (the
 * current term's end) carry that change; addons the next term adds get no record until they start.
 * An addon removed from the subscription is no longer listed: given the customer's invoice lines
 * (`billed`), its record ends at the end of the last period they billed it for (the
 * removed-items rule).
 */
export function mapSubscription(
  subscription: Subscription,
  next?: NextTerm,
  billed: readonly LineItem[] = [],
) {
  const status = statusOf(subscription);
  if (status === undefined) return [];
  const cancelled = subscription.status === 'cancelled';
  const scheduled =
    subscription.cancelled_at !== undefined &&
    (!cancelled || subscription.cancel_schedule_created_at !== undefined);
  const cancelAt = scheduled ? subscription.cancelled_at! : null;
  const requested = subscription.cancel_schedule_created_at ?? null;
  const started = subscription.started_at ?? subscription.start_date ?? subscription.created_at ?? 0;
  const changesAt =
    subscription.changes_scheduled_at ??
    next?.subscription.changes_scheduled_at ??
    subscription.current_term_end;
  const fields = {
    customer_id: subscription.customer_id,
    started_at: instant(started),
    currency: subscription.currency_code,
  };
  const items = (subscription.subscription_items ?? [])
    .filter((item) => item.item_type !== 'charge')
    .map((item) => {
      const change =
        next === undefined || changesAt === undefined ? undefined : changeAt(day(changesAt), item, next);
      return {
        id: itemRecordId(subscription.id, item.item_type, item.item_price_id),
        customer_id: fields.customer_id,
        plan_id: item.item_price_id,
        quantity: item.quantity ?? 1,
        status,
        started_at: fields.started_at,
        cancel_requested_at: cancelAt !== null && requested !== null ? instant(requested) : null,
        cancel_at: cancelAt === null ? null : instant(cancelAt),
        ended_at:
          cancelled && subscription.cancelled_at !== undefined ? instant(subscription.cancelled_at) : null,
        currency: fields.currency,
        ...(change === undefined ? {} : { scheduled_changes: [change] }),
      };
    });
  const named = new Set(items.map((item) => item.id));
  return [...items, ...removedItemRecords({ id: subscription.id, named, fields }, billed, billedItem)];
}

const INVOICE_STATUS: Record<Invoice['status'], string> = {
  paid: 'paid',
  posted: 'open',
  payment_due: 'open',
  // Dunning gave up: the invoice stays unpaid.
  not_paid: 'uncollectible',
  voided: 'void',
  pending: 'draft',
};

/**
 * Our line amount is after discounts and before tax; Chargebee's is before discounts and
 * includes the tax when the invoice's prices are tax-inclusive. Chargebee marks no proration:
 * a subscription line shorter than its item price's period is one.
 */
export function mapLine(line: LineItem, taxInclusive: boolean, periodOf: PeriodOf) {
  const recurring = isRecurringLine(line);
  const discount = line.discount_amount ?? 0;
  const tax = line.tax_amount ?? 0;
  const gross = line.amount ?? line.unit_amount * (line.quantity ?? 1);
  const amount = gross - discount - (taxInclusive ? tax : 0);
  const period = recurring ? periodOf(line.entity_id!) : undefined;
  const prorated =
    period !== undefined &&
    amount !== 0 &&
    line.date_to < addPeriod(line.date_from, period.period, period.unit) - DAY_SECONDS / 2;
  const start = day(line.date_from);
  const end = day(line.date_to);
  return {
    id: line.id!,
    type: recurring ? 'subscription' : 'one_time',
    subscription_id: recurring
      ? itemRecordId(line.subscription_id!, line.entity_type, line.entity_id!)
      : null,
    plan_id: recurring ? line.entity_id! : null,
    description: line.description || line.entity_description || null,
    amount,
    quantity: line.quantity ?? 1,
    period_start: start,
    // A one-time charge's period is an instant; as days it is the day it falls on.
    period_end: end > start ? end : day(line.date_from + DAY_SECONDS),
    discount,
    tax,
    prorated,
  };
}

const FAILED = new Set(['failure', 'timeout', 'late_failure']);

/**
 * A payment transaction is a payment (failed attempts `failed`, pending and voided ones not
 * yet anything), and each of its refunds a refund. A payment shared by several invoices counts
 * on each with what it paid of it, under an id made unique per invoice.
 */
export function mapTransaction(transaction: Transaction, invoiceId: string) {
  if (transaction.type !== 'payment') return [];
  const status = transaction.status ?? 'in_progress';
  if (status !== 'success' && !FAILED.has(status)) return [];
  const links = transaction.linked_invoices ?? [];
  const applied = links.find((link) => link.invoice_id === invoiceId)?.applied_amount;
  const payment = {
    id: links.length > 1 ? `${transaction.id}:${invoiceId}` : transaction.id,
    date: instant(transaction.date ?? 0),
    type: 'payment',
    result: status === 'success' ? 'successful' : 'failed',
    amount: status === 'success' && applied !== undefined ? applied : (transaction.amount ?? 0),
    payment_method: transaction.payment_method ?? null,
  };
  if (status !== 'success') return [payment];
  const refunds = (transaction.linked_refunds ?? [])
    .filter((refund) => refund.txn_status === 'success' || FAILED.has(refund.txn_status))
    .map((refund) => ({
      id: refund.txn_id,
      date: instant(refund.txn_date),
      type: 'refund',
      result: refund.txn_status === 'success' ? 'successful' : 'failed',
      amount: refund.txn_amount,
      payment_method: payment.payment_method,
    }));
  return [payment, ...refunds];
}

/**
 * An invoice with all its lines, the lines of the credit notes issued against it (as credits)
 * and the transactions of its payments.
 */
export function mapInvoice(
  invoice: Invoice,
  lines: readonly LineItem[],
  creditNotes: readonly CreditNote[],
  transactions: readonly Transaction[],
  periodOf: PeriodOf,
) {
  const inclusive = invoice.price_type === 'tax_inclusive';
  const credits = creditNoteLines(
    creditNotes,
    { voided: (note) => note.status === 'voided', lines: (note) => note.line_items ?? [] },
    (line, note) => mapLine(line, note.price_type === 'tax_inclusive', periodOf),
  );
  return {
    id: invoice.id,
    customer_id: invoice.customer_id,
    // A pending invoice may have no date yet: when it was generated stands in.
    date: day(invoice.date ?? invoice.generated_at ?? invoice.updated_at ?? 0),
    due_date: invoice.due_date === undefined ? null : day(invoice.due_date),
    currency: invoice.currency_code,
    status: INVOICE_STATUS[invoice.status] ?? 'open',
    // Chargebee's invoice id is its number.
    number: invoice.id,
    description: null,
    payment_date: invoice.paid_at === undefined ? null : day(invoice.paid_at),
    lines: [...lines.map((line) => mapLine(line, inclusive, periodOf)), ...credits],
    transactions: transactions
      .flatMap((transaction) => mapTransaction(transaction, invoice.id))
      .sort((a, b) => a.date.localeCompare(b.date)),
  };
}

/** The customer an event concerns: the customer in its content, or the one its object names. */
export function eventCustomer(content: Record<string, unknown> | undefined): string | null {
  if (!content) return null;
  const customer = content.customer as { id?: unknown } | undefined;
  if (typeof customer?.id === 'string') return customer.id;
  for (const key of ['subscription', 'invoice', 'credit_note', 'transaction', 'payment_source', 'card']) {
    const object = content[key] as { customer_id?: unknown } | undefined;
    if (typeof object?.customer_id === 'string') return object.customer_id;
  }
  return null;
}
