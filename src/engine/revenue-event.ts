/**
 * What happened to an account's revenue, told once to people (email, chat, alerts) and systems
 * (outbound webhooks). Detected from the movements and payments the service already computes.
 */
export const REVENUE_EVENT_KINDS = [
  'new_customer',
  'expansion',
  'contraction',
  'churn',
  'reactivation',
  'scheduled_churn',
  'failed_payment',
  'payment_recovered',
] as const;

export type RevenueEventKind = (typeof REVENUE_EVENT_KINDS)[number];

export interface RevenueEvent {
  /** Stable for the movement or payment it comes from, so detecting it again changes nothing. */
  key: string;
  kind: RevenueEventKind;
  accountId: string;
  customer: { id: string; name: string | null; email: string | null };
  /** The movement's day or the payment's instant, ISO 8601. */
  occurredAt: string;
  /** The change, in cents of the base currency: MRR for movements, the amount for payments. */
  amount: number;
  /** The customer's MRR after the event, in cents of the base currency. */
  mrr: number;
  /** The account's base currency, lower case. */
  currency: string;
}

/** Where detected events go: each channel turns one into its own keyed jobs. */
export interface RevenueEventPublisher {
  publish(events: readonly RevenueEvent[]): Promise<void>;
}
