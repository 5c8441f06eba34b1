import type Stripe from 'stripe';
import { monthlyFromPeriodAmount } from '../../engine/normalise-line.js';
import type { BillingFreq } from '../../engine/types.js';
import { creditNoteLines } from '../credit-notes.js';
import { type BilledItem, removedItemRecords } from '../removed-items.js';

// Stripe objects in, `/data/*` records out; pure functions, so each rule has a test. The rules
// and their reasons are in docs/connectors.md ("processor-a: Stripe").

const DAY_SECONDS = 86_400;

function instant(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

function day(seconds: number): string {
  return instant(seconds).slice(0, 10);
}

function idOf(value: string | { id: string } | null): string | null {
  return typeof value === 'string' || value === null ? value : value.id;
}

/** A customer needs a name or an email; Stripe requires neither, so the description or id stands in. */
export function mapCustomer(customer: Stripe.Customer) {
  const name = customer.name ?? (customer.email ? null : (customer.description ?? customer.id));
  return {
    id: customer.id,
    name,
    email: customer.email,
    created_date: instant(customer.created),
    country: customer.address?.country ?? null,
    currency: customer.currency ?? null,
  };
}

/** A recurring price is a plan; a one-time price is not (its lines are one-time revenue). */
export function mapPrice(price: Stripe.Price) {
  if (!price.recurring) return undefined;
  const product = typeof price.product === 'string' ? undefined : price.product;
  const productName = product && !('deleted' in product && product.deleted) ? product.name : null;
  return {
    id: price.id,
    name: price.nickname ?? productName ?? price.id,
    billing_freq: price.recurring.interval,
    billing_freq_count: price.recurring.interval_count,
    pricing_model: price.recurring.usage_type === 'metered' ? 'metered' : 'licensed',
    product_name: productName,
    currency: price.currency,
  };
}

const STATUS: Partial<Record<Stripe.Subscription.Status, string>> = {
  active: 'active',
  trialing: 'trialing',
  past_due: 'past_due',
  unpaid: 'past_due',
  canceled: 'canceled',
  // Paused by Stripe (a trial ended without a payment method): the record stops carrying
  // revenue, and what the invoices say decides.
  paused: 'ended',
};

/** The prices a subscription's schedule names in phases not started yet. */
export function schedulePriceIds(subscription: Stripe.Subscription): string[] {
  const schedule = scheduleOf(subscription);
  if (schedule === null) return [];
  return futurePhases(schedule).flatMap((phase) => phase.items.map((item) => idOf(item.price)!));
}

/** An expanded schedule that still governs the subscription. */
function scheduleOf(subscription: Stripe.Subscription): Stripe.SubscriptionSchedule | null {
  const schedule = subscription.schedule;
  return typeof schedule === 'object' && schedule?.status === 'active' ? schedule : null;
}

/** The phases after the current one; the current and earlier phases are the subscription as it is. */
function futurePhases(schedule: Stripe.SubscriptionSchedule): Stripe.SubscriptionSchedule.Phase[] {
  const current = schedule.current_phase;
  return current === null ? [] : schedule.phases.filter((phase) => phase.start_date >= current.end_date);
}

/** What a subscription item bills at some time: a scheduled change is a change of it. */
interface ItemState {
  priceId: string;
  quantity: number;
}

/**
 * The phase item each record's item becomes: the one of the same price, else the phase items
 * left over by position, in the order of both lists; none is quantity 0.
 */
function nextStates(states: readonly ItemState[], phase: readonly ItemState[]): ItemState[] {
  const free = phase.map((_, index) => index);
  const take = (at: number) => phase[free.splice(at, 1)[0]!]!;
  const samePrice = states.map((state) => {
    const at = free.findIndex((index) => phase[index]!.priceId === state.priceId);
    return at < 0 ? undefined : take(at);
  });
  return states.map(
    (state, index) => samePrice[index] ?? (free.length > 0 ? take(0) : { ...state, quantity: 0 }),
  );
}

const INTERVALS = new Set(['day', 'week', 'month', 'year']);

/**
 * The new MRR of a price and quantity: the price's amount for its interval, monthly. A metered
 * or tiered price has no amount before its usage is billed.
 */
function scheduledMrr(price: Stripe.Price | undefined, quantity: number): number | undefined {
  if (quantity === 0) return 0;
  const recurring = price?.recurring;
  if (!recurring || recurring.usage_type === 'metered' || price.unit_amount === null) return undefined;
  // A tax-inclusive price's amount holds a tax the change cannot split off, and a price per
  // package of units (transform_quantity) is not the unit amount times the quantity: either
  // would be a wrong MRR, so the change says none and the next invoice decides.
  if (price.tax_behavior === 'inclusive' || price.transform_quantity) return undefined;
  if (!INTERVALS.has(recurring.interval)) return undefined;
  const plan = { billingFreq: recurring.interval as BillingFreq, billingFreqCount: recurring.interval_count };
  return Math.round(monthlyFromPeriodAmount(price.unit_amount * quantity, plan));
}

/** A scheduled change of a record, as /data/subscriptions takes it. */
interface ScheduledChange {
  date: string;
  plan_id: string;
  quantity: number;
  amount?: number;
}

/**
 * The scheduled changes of each item of a subscription with an active schedule, by item id:
 * each phase not started yet whose item for the record differs in price or quantity from the
 * one before it is a change on the phase's start day (rule in docs/connectors.md). `priceOf`
 * gives the phases' prices, for the new MRR.
 */
function scheduledChanges(
  subscription: Stripe.Subscription,
  priceOf: (id: string) => Stripe.Price | undefined,
): Map<string, ScheduledChange[]> {
  const items = subscription.items.data;
  const changes = new Map(items.map((item): [string, ScheduledChange[]] => [item.id, []]));
  const schedule = scheduleOf(subscription);
  if (schedule === null) return changes;
  let states = items.map((item) => ({ priceId: item.price.id, quantity: item.quantity ?? 1 }));
  for (const phase of futurePhases(schedule)) {
    const next = nextStates(
      states,
      phase.items.map((item) => ({ priceId: idOf(item.price)!, quantity: item.quantity ?? 1 })),
    );
    next.forEach((state, index) => {
      const before = states[index]!;
      if (state.priceId === before.priceId && state.quantity === before.quantity) return;
      const amount = scheduledMrr(priceOf(state.priceId), state.quantity);
      changes.get(items[index]!.id)!.push({
        date: day(phase.start_date),
        plan_id: state.priceId,
        quantity: state.quantity,
        ...(amount === undefined ? {} : { amount }),
      });
    });
    states = next;
  }
  return changes;
}

/** When a schedule that ends by cancelling ends the subscription: the end of its last phase. */
function scheduleCancelAt(subscription: Stripe.Subscription): number | null {
  const schedule = scheduleOf(subscription);
  if (schedule?.end_behavior !== 'cancel') return null;
  return schedule.phases.at(-1)?.end_date ?? null;
}

/** What a line billed by a subscription item bills, for the removed-items rule. */
function billedItem(line: Stripe.InvoiceLineItem): BilledItem | undefined {
  const details = line.parent?.subscription_item_details;
  const subscription = details?.subscription ?? idOf(line.subscription);
  if (!details || subscription === null) return undefined;
  return {
    subscription,
    record: details.subscription_item,
    planId: idOf(line.pricing?.price_details?.price ?? null),
    quantity: line.quantity ?? 1,
    end: new Date(line.period.end * 1000),
    credit: line.amount < 0,
  };
}

/**
 * One record per subscription item, keyed by the item's id, which is also what the item's
 * invoice lines name: a multi-item subscription is several of ours, each with its plan and
 * quantity, and with the changes its schedule plans. An item deleted from the subscription is
 * no longer listed: given the customer's invoice lines (`billed`), its record ends at the end of
 * the last period they billed it for (the removed-items rule). Incomplete subscriptions (never
 * paid) are not subscriptions yet.
 */
export function mapSubscription(
  subscription: Stripe.Subscription,
  priceOf: (id: string) => Stripe.Price | undefined,
  billed: readonly Stripe.InvoiceLineItem[] = [],
) {
  const status = subscription.pause_collection ? 'ended' : STATUS[subscription.status];
  if (status === undefined) return [];
  const changes = scheduledChanges(subscription, priceOf);
  const fields = {
    customer_id: idOf(subscription.customer),
    started_at: instant(subscription.start_date),
    currency: subscription.currency,
  };
  const items = subscription.items.data.map((item) => {
    const cancelAt =
      subscription.cancel_at ??
      (subscription.cancel_at_period_end ? item.current_period_end : scheduleCancelAt(subscription));
    return {
      id: item.id,
      customer_id: fields.customer_id,
      plan_id: item.price.recurring ? item.price.id : null,
      quantity: item.quantity ?? 1,
      status,
      started_at: fields.started_at,
      cancel_requested_at:
        cancelAt !== null && subscription.canceled_at !== null ? instant(subscription.canceled_at) : null,
      cancel_at: cancelAt === null ? null : instant(cancelAt),
      ended_at: subscription.ended_at === null ? null : instant(subscription.ended_at),
      currency: fields.currency,
      scheduled_changes: changes.get(item.id)!,
    };
  });
  const named = new Set(items.map((item) => item.id));
  return [...items, ...removedItemRecords({ id: subscription.id, named, fields }, billed, billedItem)];
}

function sum(amounts: readonly { amount: number }[] | null | undefined): number {
  return (amounts ?? []).reduce((total, { amount }) => total + amount, 0);
}

/** Which subscription item a line bills, if any, and whether it is a proration. */
function lineOrigin(line: Stripe.InvoiceLineItem): { subscriptionItem: string | null; proration: boolean } {
  const parent = line.parent;
  if (parent?.subscription_item_details) {
    return {
      subscriptionItem: parent.subscription_item_details.subscription_item,
      proration: parent.subscription_item_details.proration,
    };
  }
  return { subscriptionItem: null, proration: parent?.invoice_item_details?.proration ?? false };
}

/**
 * Our line amount is after discounts and before tax; Stripe's amount (of an invoice line or a
 * credit note line) is before discounts and includes tax when the price is tax-inclusive.
 */
function amounts(line: {
  amount: number;
  discount_amounts: readonly { amount: number }[] | null;
  taxes: readonly { amount: number; tax_behavior: string }[] | null;
}) {
  const discount = sum(line.discount_amounts);
  const inclusiveTax = sum(line.taxes?.filter((tax) => tax.tax_behavior === 'inclusive'));
  return { amount: line.amount - discount - inclusiveTax, discount, tax: sum(line.taxes) };
}

/**
 * An invoice line, its amounts as `amounts` says. Stripe's period end is the instant the
 * period ends, which is the first day after it in our half-open days.
 */
export function mapLine(line: Stripe.InvoiceLineItem) {
  const { subscriptionItem, proration } = lineOrigin(line);
  const price = line.pricing?.price_details?.price ?? null;
  const recurring = subscriptionItem !== null || (proration && line.subscription !== null);
  const start = day(line.period.start);
  const end = day(line.period.end);
  return {
    id: line.id,
    type: recurring ? 'subscription' : 'one_time',
    subscription_id: subscriptionItem,
    plan_id: recurring ? idOf(price) : null,
    description: line.description,
    ...amounts(line),
    quantity: line.quantity ?? 1,
    period_start: start,
    // A one-time item's period is an instant; as days it is the day it falls on.
    period_end: end > start ? end : day(line.period.start + DAY_SECONDS),
    prorated: proration,
  };
}

/**
 * A credit note's line as the line it credits would be charged: the credited invoice line's
 * subscription item, plan and period with the credit note line's amounts; a custom line (one
 * that credits no invoice line) is one-time, on the day the credit note takes effect.
 */
function chargedLine(
  line: Stripe.CreditNoteLineItem,
  note: Stripe.CreditNote,
  invoiceLines: readonly Stripe.InvoiceLineItem[],
) {
  const credited = invoiceLines.find((item) => item.id === line.invoice_line_item);
  const effective = note.effective_at ?? note.created;
  const origin = credited
    ? mapLine(credited)
    : {
        type: 'one_time',
        subscription_id: null,
        plan_id: null,
        period_start: day(effective),
        period_end: day(effective + DAY_SECONDS),
        prorated: false,
      };
  return {
    ...origin,
    description: line.description,
    ...amounts(line),
    quantity: line.quantity ?? 1,
  };
}

/** A charge is a payment attempt, failed ones included; each refund of it is a refund. */
export function mapCharge(charge: Stripe.Charge) {
  if (charge.status === 'pending') return [];
  const payment = {
    id: charge.id,
    date: instant(charge.created),
    type: 'payment',
    result: charge.status === 'succeeded' ? 'successful' : 'failed',
    amount: charge.amount,
    payment_method: charge.payment_method_details?.type ?? null,
  };
  const refunds = (charge.refunds?.data ?? [])
    .filter((refund) => refund.status === 'succeeded' || refund.status === 'failed')
    .map((refund) => ({
      id: refund.id,
      date: instant(refund.created),
      type: 'refund',
      result: refund.status === 'succeeded' ? 'successful' : 'failed',
      amount: refund.amount,
      payment_method: payment.payment_method,
    }));
  return [payment, ...refunds];
}

/**
 * An invoice with all its lines, the lines of the credit notes against it (each note with all
 * its lines) as credits, and the charges of its payments. A credit note's refund is a refund
 * of the charge, so it is counted there and nowhere else.
 */
export function mapInvoice(
  invoice: Stripe.Invoice,
  lines: readonly Stripe.InvoiceLineItem[],
  charges: readonly Stripe.Charge[],
  creditNotes: readonly Stripe.CreditNote[] = [],
) {
  const credits = creditNoteLines(
    creditNotes,
    { voided: (note) => note.status === 'void', lines: (note) => note.lines.data },
    (line, note) => chargedLine(line, note, lines),
  );
  return {
    id: invoice.id,
    customer_id: idOf(invoice.customer),
    date: day(invoice.created),
    due_date: invoice.due_date === null ? null : day(invoice.due_date),
    currency: invoice.currency,
    status: invoice.status ?? 'draft',
    number: invoice.number,
    description: invoice.description,
    payment_date:
      invoice.status_transitions.paid_at === null ? null : day(invoice.status_transitions.paid_at),
    lines: [...lines.map(mapLine), ...credits],
    transactions: charges.flatMap(mapCharge),
  };
}
