/**
 * What the metrics engine reads and writes. Days are integer day numbers (engine/days.ts),
 * money is cents, currencies are lower-case ISO 4217 codes. The services map stored rows into
 * these shapes; the engine trusts them.
 */

export type BillingFreq = 'day' | 'week' | 'month' | 'quarter' | 'year';

export interface PlanInput {
  id: string;
  billingFreq: BillingFreq;
  billingFreqCount: number;
  pricingModel: 'licensed' | 'metered';
}

export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';

export interface LineInput {
  type: 'subscription' | 'one_time';
  subscriptionId: string | null;
  planId: string | null;
  /** Cents after discount, before tax. */
  amount: number;
  /** Units billed (seats, licences). */
  quantity: number;
  /** Cents taken off the line's price; `amount` is already net of it. */
  discount: number;
  /** The service period `[periodStart, periodEnd)`; null on lines that cover no period. */
  periodStart: number | null;
  periodEnd: number | null;
  prorated: boolean;
}

export interface InvoiceInput {
  id: string;
  status: InvoiceStatus;
  currency: string;
  date: number;
  lines: readonly LineInput[];
}

export type SubscriptionStatus = 'active' | 'trialing' | 'past_due' | 'canceled' | 'ended';

export interface ScheduledChangeInput {
  day: number;
  planId: string | null;
  /** The subscription's new monthly value, in cents of the subscription's currency. */
  mrr: number;
  quantity: number;
}

/** A subscription record from a connector or `/data/subscriptions`: what the billing system says now. */
export interface SubscriptionInput {
  id: string;
  planId: string | null;
  quantity: number;
  status: SubscriptionStatus;
  startedAt: number;
  cancelRequestedAt: number | null;
  /** A future day means scheduled churn on that day. */
  cancelAt: number | null;
  endedAt: number | null;
  /** Monthly value in cents of `currency`, for a subscription no invoice line describes. */
  mrr: number | null;
  currency: string | null;
  scheduledChanges: readonly ScheduledChangeInput[];
}

export interface CustomerHistory {
  /** The currency the customer's MRR is kept in. */
  currency: string;
  invoices: readonly InvoiceInput[];
  subscriptions: readonly SubscriptionInput[];
  plans: ReadonlyMap<string, PlanInput>;
}

export interface CurrencyConverter {
  /** `amountCents` of `from` in `to` on `day`, unrounded. */
  convert(amountCents: number, from: string, to: string, day: number): number;
}

export type MovementKind = 'new' | 'expansion' | 'contraction' | 'churn' | 'reactivation';

/**
 * Why a movement happened (docs/metrics.md, "Movement subtypes"): new and reactivation are
 * their own subtype; an expansion or contraction names what changed in the subscriptions; a
 * churn tells a cancellation from an end for non-payment.
 */
export type MovementSubtype =
  | 'new'
  | 'reactivation'
  | 'plan_change'
  | 'add_on'
  | 'quantity_change'
  | 'discount_change'
  | 'price_change'
  | 'fx'
  | 'other'
  | 'voluntary'
  | 'delinquent';

/** From `day` on, the customer's MRR is `mrr` whole cents of the customer's currency. */
export interface MrrPoint {
  day: number;
  mrr: number;
}

export interface Movement {
  day: number;
  kind: MovementKind;
  subtype: MovementSubtype;
  /** Signed cents of the customer's currency: negative for contraction and churn. */
  amount: number;
  /** Caused by a subscription record's plan for the future (a cancel_at or a scheduled change). */
  scheduled: boolean;
  /** For scheduled movements: the day the plan became known, when the record says. */
  knownDay: number | null;
}

/** One piece of recurring revenue: a subscription (or plan) at one monthly value over `[start, end)`. */
export interface Segment {
  key: string;
  subscriptionId: string | null;
  planId: string | null;
  start: number;
  /** `OPEN_END` when nothing ends it. */
  end: number;
  /** Exact monthly value in cents of the customer's currency, not yet rounded. */
  monthly: number;
  /** Units the segment bills for. */
  quantity: number;
  /**
   * What the source billed, before conversion to the customer's currency: the monthly value and
   * the monthly discount in `currency` (discount null when the source does not say). Tells a
   * price or discount change from an exchange rate moving.
   */
  billed: { currency: string; monthly: number; discount: number | null };
}

/** From `day` on, the customer's subscriptions hold `quantity` units in all. */
export interface QuantityPoint {
  day: number;
  quantity: number;
}

export interface CustomerTimeline {
  currency: string;
  points: MrrPoint[];
  quantities: QuantityPoint[];
  movements: Movement[];
  segments: Segment[];
}

/** A day after every real day: the end of a segment that nothing ends. */
export const OPEN_END = 2_932_897;
