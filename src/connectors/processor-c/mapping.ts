import type {
  Account,
  AddOn,
  Invoice,
  LineItem,
  Plan,
  Subscription,
  SubscriptionAddOn,
  Transaction,
} from 'recurly';
import { monthlyFromPeriodAmount } from '../../engine/normalise-line.js';
import { type BilledItem, removedItemRecords } from '../removed-items.js';

// Recurly objects (as the `recurly` package casts them: camelCase, dates as Date, amounts in
// major units) in, `/data/*` records out; pure functions, so each rule has a test. The rules
// and their reasons are in docs/connectors.md ("processor-c: Recurly").

const DAY_MS = 86_400_000;

function present<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

/** Currencies without minor units, and those with three, per ISO 4217; every other has two. */
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
const THREE_DECIMAL = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/** Recurly's amounts are in major units (29.99 dollars); ours in minor units (2999 cents). */
export function minorUnits(amount: number | null | undefined, currency: string | null | undefined): number {
  const code = (currency ?? '').toUpperCase();
  const scale = ZERO_DECIMAL.has(code) ? 1 : THREE_DECIMAL.has(code) ? 1000 : 100;
  return Math.round((amount ?? 0) * scale);
}

function instant(date: Date): string {
  return date.toISOString();
}

function day(date: Date): string {
  return instant(date).slice(0, 10);
}

/** Our currency codes are lower-case ISO codes, as Stripe gives them; Recurly's are upper-case. */
function currencyCode(currency: string | null | undefined): string | null {
  return currency ? currency.toLowerCase() : null;
}

/**
 * A Recurly account is a customer, keyed by its account code (the merchant's own id, which
 * webhook notifications name). It needs a name or an email: the company, else first and last
 * name, else (without an email) the code stands in. Recurly accounts have no currency: each
 * subscription and invoice carries its own, and the customer's is its first invoice's.
 */
export function mapAccount(account: Account) {
  const person = [account.firstName, account.lastName].filter(Boolean).join(' ');
  const name = account.company || person || (account.email ? null : account.code!);
  return {
    id: account.code!,
    name,
    email: account.email || null,
    created_date: instant(account.createdAt!),
    country: account.address?.country || account.billingInfo?.address?.country || null,
    currency: null,
  };
}

/** Recurly plans bill every `interval_length` days or months; ours name the largest whole unit. */
export function billingFrequency(
  unit: string | null | undefined,
  length: number | null | undefined,
): { billing_freq: 'day' | 'week' | 'month' | 'year'; billing_freq_count: number } {
  const count = length && length > 0 ? length : 1;
  if (unit === 'days') {
    return count % 7 === 0
      ? { billing_freq: 'week', billing_freq_count: count / 7 }
      : { billing_freq: 'day', billing_freq_count: count };
  }
  return count % 12 === 0
    ? { billing_freq: 'year', billing_freq_count: count / 12 }
    : { billing_freq: 'month', billing_freq_count: count };
}

/** A plan priced in one currency carries it; one priced in several leaves it to its invoices. */
function planCurrency(plan: Plan): string | null {
  const currencies = plan.currencies ?? [];
  return currencies.length === 1 ? currencyCode(currencies[0]!.currency) : null;
}

/** A plan: its code is its id (subscriptions and invoice lines name plans by code). */
export function mapPlan(plan: Plan) {
  return {
    id: plan.code!,
    name: plan.name || plan.code!,
    ...billingFrequency(plan.intervalUnit, plan.intervalLength),
    pricing_model: 'licensed',
    product_name: plan.name || null,
    currency: planCurrency(plan),
  };
}

/** The id of our plan record for an add-on of a plan: add-on codes are unique only within their plan. */
export function addOnPlanId(planCode: string, addOnCode: string): string {
  return `${planCode}:${addOnCode}`;
}

/**
 * An add-on is not a Recurly plan, but its invoice lines need the interval of the plan it is
 * sold with, so each add-on of a plan becomes a plan record of ours: billed like its plan,
 * `metered` when it is a usage add-on, with the plan's name as product name.
 */
export function mapAddOn(plan: Plan, addOn: AddOn) {
  return {
    id: addOnPlanId(plan.code!, addOn.code!),
    name: addOn.name || addOn.code!,
    ...billingFrequency(plan.intervalUnit, plan.intervalLength),
    pricing_model: addOn.addOnType === 'usage' ? 'metered' : 'licensed',
    product_name: plan.name || null,
    currency: planCurrency(plan),
  };
}

/** The id of our subscription record for a subscription's add-on. */
export function addOnSubscriptionId(subscriptionId: string, addOnCode: string): string {
  return `${subscriptionId}:${addOnCode}`;
}

/** Whether the subscription's current billing period is its free trial. */
function inTrial(subscription: Subscription): boolean {
  const trialEnd = subscription.trialEndsAt;
  const periodStart = subscription.currentPeriodStartedAt;
  return present(trialEnd) && present(periodStart) && periodStart < trialEnd;
}

/**
 * Our status and end dates for a Recurly subscription state; undefined for the states that are
 * not subscriptions yet (`future`: not started; `failed`: its first payment failed).
 */
function lifecycle(subscription: Subscription) {
  const canceledAt = subscription.canceledAt ?? null;
  const expiresAt = subscription.expiresAt ?? null;
  switch (subscription.state) {
    case 'active':
      return {
        status: inTrial(subscription) ? 'trialing' : 'active',
        requested: null,
        cancelAt: null,
        ended: null,
      };
    case 'canceled':
      // Canceled but not yet expired: it runs (and counts) until `expires_at`, scheduled churn.
      return {
        status: inTrial(subscription) ? 'trialing' : 'active',
        requested: canceledAt,
        cancelAt: expiresAt,
        ended: null,
      };
    case 'expired':
      return { status: 'canceled', requested: canceledAt, cancelAt: null, ended: expiresAt ?? canceledAt };
    case 'paused':
      // Paused: no renewals are billed; the record stops carrying revenue, the invoices decide.
      return { status: 'ended', requested: null, cancelAt: null, ended: null };
    default:
      return undefined;
  }
}

/** A change of a subscription record on a later day, in the `/data/subscriptions` shape. */
export interface ScheduledChange {
  date: string;
  plan_id?: string;
  quantity: number;
  amount?: number;
}

/** Plans by code, for the interval of a pending change's plan. */
export type PlanOf = (code: string) => Plan | undefined;

/** What a subscription's records need besides the subscription. */
export interface SubscriptionContext {
  /** The plan a pending change names (to give its MRR); without it, changes carry no amount. */
  planOf?: PlanOf | undefined;
  /**
   * The line items of the account's invoices: add-ons billed there and gone since end with
   * their last period (the removed-items rule).
   */
  billed?: readonly LineItem[] | undefined;
}

/** Monthly value in minor units of `quantity` x `unitAmount` (major units) billed every period of `plan`. */
function monthlyMrr(plan: Plan, unitAmount: number, quantity: number, currency: string | null | undefined) {
  const { billing_freq, billing_freq_count } = billingFrequency(plan.intervalUnit, plan.intervalLength);
  const period = minorUnits(unitAmount * quantity, currency);
  return Math.round(
    monthlyFromPeriodAmount(period, { billingFreq: billing_freq, billingFreqCount: billing_freq_count }),
  );
}

/**
 * The scheduled changes a subscription's `pending_change` makes at `activate_at`, by record id:
 * the plan's record gets the new plan, quantity and MRR; each add-on's record its new quantity
 * and MRR (usage add-ons no MRR: usage decides it), or quantity 0 and MRR 0 when the change drops
 * it. Records that stay as they are get none; add-ons the change adds get no record until then.
 */
function pendingChanges(
  subscription: Subscription,
  planOf: PlanOf | undefined,
): Map<string, ScheduledChange> {
  const changes = new Map<string, ScheduledChange>();
  const pending = subscription.pendingChange;
  if (!pending || pending.activated === true || !present(pending.activateAt)) return changes;
  const date = day(pending.activateAt);
  const currentPlan = subscription.plan?.code ?? null;
  const planCode = pending.plan?.code ?? currentPlan;
  if (planCode === null) return changes;
  const plan = planOf?.(planCode);
  const currency = subscription.currency;
  const change = (
    id: string,
    before: { planId: string; quantity: number; unitAmount: number },
    after: { planId: string; quantity: number; unitAmount: number; usage: boolean },
  ) => {
    if (
      before.planId === after.planId &&
      before.quantity === after.quantity &&
      before.unitAmount === after.unitAmount
    )
      return;
    const amount =
      plan === undefined || after.usage
        ? undefined
        : monthlyMrr(plan, after.unitAmount, after.quantity, currency);
    changes.set(id, {
      date,
      ...(before.planId === after.planId ? {} : { plan_id: after.planId }),
      quantity: after.quantity,
      ...(amount === undefined ? {} : { amount }),
    });
  };
  change(
    subscription.id!,
    { planId: currentPlan!, quantity: subscription.quantity ?? 1, unitAmount: subscription.unitAmount ?? 0 },
    {
      planId: planCode,
      quantity: pending.quantity ?? subscription.quantity ?? 1,
      unitAmount: pending.unitAmount ?? subscription.unitAmount ?? 0,
      usage: false,
    },
  );
  // Without an add-on list the change keeps the add-ons as they are.
  if (!pending.addOns) return changes;
  for (const addOn of liveAddOns(subscription)) {
    const code = addOn.addOn!.code!;
    const id = addOnSubscriptionId(subscription.id!, code);
    const after = pending.addOns.find((candidate) => candidate.addOn?.code === code);
    if (after === undefined) {
      changes.set(id, { date, quantity: 0, amount: 0 });
      continue;
    }
    change(
      id,
      {
        planId: addOnPlanId(currentPlan!, code),
        quantity: addOn.quantity ?? 1,
        unitAmount: addOn.unitAmount ?? 0,
      },
      {
        planId: addOnPlanId(planCode, code),
        quantity: after.quantity ?? 1,
        unitAmount: after.unitAmount ?? 0,
        usage: (after.addOn?.addOnType ?? addOn.addOn?.addOnType) === 'usage',
      },
    );
  }
  return changes;
}

/** The add-ons a subscription has now (expired ones and those without a code left out). */
function liveAddOns(subscription: Subscription): SubscriptionAddOn[] {
  return (subscription.addOns ?? []).filter(
    (addOn: SubscriptionAddOn) => !present(addOn.expiredAt) && Boolean(addOn.addOn?.code),
  );
}

/** Expired add-ons, each ended at its `expired_at`. */
function expiredAddOns(subscription: Subscription) {
  const live = new Set(liveAddOns(subscription).map((addOn) => addOn.addOn!.code!));
  return (subscription.addOns ?? []).flatMap((addOn) => {
    const code = addOn.addOn?.code;
    if (!code || !present(addOn.expiredAt) || live.has(code)) return [];
    return [{ code, quantity: addOn.quantity ?? 1, endedAt: addOn.expiredAt }];
  });
}

/** What a plan or add-on line bills, for the removed-items rule. */
function billedItem(line: LineItem): BilledItem | undefined {
  const subscriptionId = line.subscriptionId;
  if (!present(subscriptionId) || !SUBSCRIPTION_ORIGINS.has(line.origin ?? '') || !present(line.endDate))
    return undefined;
  const code = line.addOnCode;
  const planCode = line.planCode ?? null;
  return {
    subscription: subscriptionId,
    record: code ? addOnSubscriptionId(subscriptionId, code) : subscriptionId,
    planId: code && planCode !== null ? addOnPlanId(planCode, code) : planCode,
    quantity: Math.abs(line.quantity ?? 1),
    end: line.endDate,
    credit: line.refund === true,
  };
}

/**
 * A subscription is one record for its plan, keyed by the subscription id (what its invoice
 * lines name), and one per add-on, keyed by subscription id and add-on code, so a seat add-on
 * carries its own quantity and MRR as a Stripe subscription item does. An add-on that has left
 * the subscription keeps its record, ended when it stopped: an expired one at its `expired_at`,
 * one no longer listed (removed by a change) by the removed-items rule from the account's
 * invoice lines (`context.billed`); a pending change gives the records it changes their
 * scheduled changes (`pendingChanges`).
 */
export function mapSubscription(subscription: Subscription, context: SubscriptionContext = {}) {
  const state = lifecycle(subscription);
  if (state === undefined) return [];
  const planCode = subscription.plan?.code ?? null;
  const common = {
    customer_id: subscription.account?.code ?? null,
    status: state.status,
    started_at: instant(subscription.activatedAt ?? subscription.createdAt!),
    cancel_requested_at: state.requested === null ? null : instant(state.requested),
    cancel_at: state.cancelAt === null ? null : instant(state.cancelAt),
    ended_at: state.ended === null ? null : instant(state.ended),
    currency: currencyCode(subscription.currency),
  };
  const changes = pendingChanges(subscription, context.planOf);
  const withChanges = <T extends { id: string }>(record: T) => {
    const change = changes.get(record.id);
    return change === undefined ? record : { ...record, scheduled_changes: [change] };
  };
  const expired = expiredAddOns(subscription).map((addOn) => ({
    id: addOnSubscriptionId(subscription.id!, addOn.code),
    ...common,
    status: 'canceled',
    cancel_requested_at: null,
    cancel_at: null,
    ended_at: instant(addOn.endedAt),
    plan_id: planCode === null ? null : addOnPlanId(planCode, addOn.code),
    quantity: addOn.quantity,
  }));
  const listed = (subscription.addOns ?? []).flatMap((addOn) =>
    addOn.addOn?.code ? [addOnSubscriptionId(subscription.id!, addOn.addOn.code)] : [],
  );
  const removed = removedItemRecords(
    {
      id: subscription.id!,
      named: new Set([subscription.id!, ...listed]),
      fields: { customer_id: common.customer_id, started_at: common.started_at, currency: common.currency },
    },
    context.billed ?? [],
    billedItem,
  );
  return [
    withChanges({ id: subscription.id!, ...common, plan_id: planCode, quantity: subscription.quantity ?? 1 }),
    ...liveAddOns(subscription).map((addOn) =>
      withChanges({
        id: addOnSubscriptionId(subscription.id!, addOn.addOn!.code!),
        ...common,
        plan_id: planCode === null ? null : addOnPlanId(planCode, addOn.addOn!.code!),
        quantity: addOn.quantity ?? 1,
      }),
    ),
    ...expired,
    ...removed,
  ];
}

/** Line origins that bill a subscription's plan or add-on (trial periods included). */
const SUBSCRIPTION_ORIGINS = new Set(['plan', 'plan_trial', 'add_on', 'add_on_trial']);

/** Credit invoices that give money back rather than credit unused time. */
const REFUND_ORIGINS = new Set([
  'refund',
  'line_item_refund',
  'open_amount_refund',
  'external_refund',
  'write_off',
]);

/**
 * Our line amount is after discounts and before tax. Recurly's `subtotal` is quantity x unit
 * amount, before discounts, and includes the tax when the line is tax-inclusive, so the line
 * amount is subtotal - discount - (inclusive tax). A line bills a subscription when it comes
 * from a plan or an add-on of one; refunds and other credits are one-time. Recurly's end date
 * is the instant the period ends, the first day after it in our half-open days.
 */
export function mapLine(line: LineItem, refundInvoice = false) {
  const currency = line.currency;
  const recurring =
    !refundInvoice &&
    line.refund !== true &&
    present(line.subscriptionId) &&
    SUBSCRIPTION_ORIGINS.has(line.origin ?? '') &&
    present(line.startDate) &&
    present(line.endDate) &&
    day(line.endDate) > day(line.startDate);
  const addOn = line.addOnCode ?? null;
  const planCode = line.planCode ?? null;
  const subtotal = minorUnits(line.subtotal ?? line.amount, currency);
  const discount = Math.max(0, minorUnits(line.discount, currency));
  const tax = minorUnits(line.tax, currency);
  const start = line.startDate ?? line.createdAt!;
  const end =
    line.endDate && day(line.endDate) > day(start)
      ? day(line.endDate)
      : day(new Date(start.getTime() + DAY_MS));
  return {
    id: line.id!,
    type: recurring ? 'subscription' : 'one_time',
    subscription_id: recurring
      ? addOn
        ? addOnSubscriptionId(line.subscriptionId!, addOn)
        : line.subscriptionId!
      : null,
    plan_id: recurring && planCode !== null ? (addOn ? addOnPlanId(planCode, addOn) : planCode) : null,
    description: line.description ?? null,
    amount: subtotal - discount - (line.taxInclusive ? tax : 0),
    quantity: Math.abs(line.quantity ?? 1),
    period_start: day(start),
    period_end: end,
    discount,
    tax,
    prorated: recurring && present(line.prorationRate) && line.prorationRate < 1,
  };
}

/** How Recurly names payment methods, as Stripe's method types (which the filters use). */
function paymentMethod(transaction: Transaction): string | null {
  const method = transaction.paymentMethod?.object ?? null;
  return method === 'credit_card' ? 'card' : method;
}

/**
 * A purchase (or a capture of an authorization) is a payment, a refund a refund; `success`
 * is successful, `declined` and `error` failed, and attempts still pending or voided are left out.
 */
export function mapTransaction(transaction: Transaction) {
  const type =
    transaction.type === 'purchase' || transaction.type === 'capture'
      ? 'payment'
      : transaction.type === 'refund'
        ? 'refund'
        : undefined;
  const result =
    transaction.status === 'success'
      ? 'successful'
      : transaction.status === 'declined' || transaction.status === 'error'
        ? 'failed'
        : undefined;
  if (type === undefined || result === undefined) return [];
  return [
    {
      id: transaction.id!,
      date: instant(transaction.collectedAt ?? transaction.createdAt!),
      type,
      result,
      amount: minorUnits(transaction.amount, transaction.currency),
      payment_method: paymentMethod(transaction),
    },
  ];
}

/** Our invoice statuses for Recurly's invoice states. */
function invoiceStatus(invoice: Invoice): string {
  switch (invoice.state) {
    case 'paid':
    case 'closed':
      return 'paid';
    case 'voided':
      return 'void';
    case 'failed':
      return 'uncollectible';
    default:
      // pending, processing, past_due and open all still wait for money.
      return 'open';
  }
}

/**
 * An invoice (charge or credit) with all its line items and the transactions Recurly attaches
 * to it. The payment date is the first successful payment's.
 */
export function mapInvoice(invoice: Invoice, lines: readonly LineItem[]) {
  const refund = invoice.type === 'credit' && REFUND_ORIGINS.has(invoice.origin ?? '');
  const transactions = (invoice.transactions ?? [])
    .flatMap(mapTransaction)
    .sort((a, b) => a.date.localeCompare(b.date));
  const paid = transactions.find((item) => item.type === 'payment' && item.result === 'successful');
  return {
    id: invoice.id!,
    customer_id: invoice.account?.code ?? null,
    date: day(invoice.createdAt!),
    due_date: invoice.dueAt ? day(invoice.dueAt) : null,
    currency: currencyCode(invoice.currency),
    status: invoiceStatus(invoice),
    number: invoice.number ?? null,
    payment_date: paid ? paid.date.slice(0, 10) : null,
    lines: lines.map((line) => mapLine(line, refund)),
    transactions,
  };
}
