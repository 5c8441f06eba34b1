import type { RevenueEvent, RevenueEventKind } from './revenue-event.js';

/**
 * The event types a webhook subscribes to: the hosted service's, so its clients' subscriptions
 * carry over, and ours for the revenue events it has no name for (docs/webhooks.md).
 */
export const WEBHOOK_EVENT_TYPES = [
  'movement.new',
  'movement.expansion',
  'movement.contraction',
  'movement.churn',
  'movement.reactivation',
  'movement.scheduled_churn',
  'failed_payment',
  'payment_recovered',
  'invoice.paid',
  'customer.created',
  'customer.updated',
  'plan.created',
  'data_source.import_completed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The one table from a revenue event's kind to the webhook event type it is delivered as. */
export const EVENT_TYPE_OF_KIND: Record<RevenueEventKind, WebhookEventType> = {
  new_customer: 'movement.new',
  expansion: 'movement.expansion',
  contraction: 'movement.contraction',
  churn: 'movement.churn',
  reactivation: 'movement.reactivation',
  scheduled_churn: 'movement.scheduled_churn',
  failed_payment: 'failed_payment',
  payment_recovered: 'payment_recovered',
};

/** What a delivery's body holds; `id` stays the same across the retries of one delivery. */
export interface WebhookBody {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: Record<string, unknown>;
}

/** A revenue event's `data`: the customer, when, the change and the MRR after it. */
export function revenueEventData(event: RevenueEvent): Record<string, unknown> {
  return {
    customer: event.customer,
    occurred_at: event.occurredAt,
    amount: event.amount,
    mrr: event.mrr,
    currency: event.currency,
  };
}

/** A finished import's `data`: which source, and when it finished. */
export function importCompletedData(source: {
  id: string;
  name: string;
  type: string;
  finishedAt: string;
}): Record<string, unknown> {
  return {
    data_source: { id: source.id, name: source.name, type: source.type },
    finished_at: source.finishedAt,
  };
}

/**
 * An event about one record written through the API (docs/webhooks.md, "Record events"): the
 * type delivered, a key unique to this write of this record, and the delivery's `data`.
 */
export interface RecordEvent {
  type: WebhookEventType;
  key: string;
  data: Record<string, unknown>;
}

/** One record's write: as it was (undefined when new) and as it is now. */
export interface RecordChange<R> {
  before: R | undefined;
  after: R;
}

interface CustomerFields {
  id: string;
  data_source: string;
  name: string | null;
  email: string | null;
}

interface PlanFields {
  id: string;
  data_source: string;
  name: string;
  billing_freq: string;
  currency: string;
}

interface InvoiceFields {
  id: string;
  data_source: string;
  customer_id: string;
  status: string;
  amount: number;
  currency: string;
  date: string;
}

/** `customer.created` and `customer.updated`'s `data`. */
export const customerData = (customer: Omit<CustomerFields, 'data_source'>) => ({
  customer: { id: customer.id, name: customer.name, email: customer.email },
});

/** `plan.created`'s `data`. */
export const planData = (plan: Omit<PlanFields, 'data_source'>) => ({
  plan: { id: plan.id, name: plan.name, billing_freq: plan.billing_freq, currency: plan.currency },
});

/** `invoice.paid`'s `data`: `total` in cents of the invoice's currency. */
export const invoiceData = (invoice: Omit<InvoiceFields, 'data_source' | 'status'>) => ({
  invoice: {
    id: invoice.id,
    customer_id: invoice.customer_id,
    total: invoice.amount,
    currency: invoice.currency,
    date: invoice.date,
  },
});

/**
 * Unique per write: the account's data version, which each write request moves on, so a
 * record changed twice is told twice and a deleted record created again is new again.
 */
const eventKey = (type: WebhookEventType, record: { data_source: string; id: string }, version: number) =>
  `${type}:${record.data_source}:${record.id}:v${version}`;

/** JSON with every object's keys sorted: equal for equal records, whatever order built them. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** `customer.created` for a new customer, `customer.updated` for one whose stored fields changed. */
export function customerEvents<C extends CustomerFields>(
  { before, after }: RecordChange<C>,
  version: number,
): RecordEvent[] {
  if (before !== undefined && canonical(before) === canonical(after)) return [];
  const type = before === undefined ? 'customer.created' : 'customer.updated';
  return [{ type, key: eventKey(type, after, version), data: customerData(after) }];
}

/** `plan.created` for a new plan; a changed plan has no event type. */
export function planEvents<P extends PlanFields>(
  { before, after }: RecordChange<P>,
  version: number,
): RecordEvent[] {
  if (before !== undefined) return [];
  return [{ type: 'plan.created', key: eventKey('plan.created', after, version), data: planData(after) }];
}

/** `invoice.paid` when an invoice is paid now and was not before (or did not exist). */
export function invoiceEvents<I extends InvoiceFields>(
  { before, after }: RecordChange<I>,
  version: number,
): RecordEvent[] {
  if (after.status !== 'paid' || before?.status === 'paid') return [];
  return [{ type: 'invoice.paid', key: eventKey('invoice.paid', after, version), data: invoiceData(after) }];
}

const SAMPLE_CUSTOMER = { id: 'cus_123', name: 'Example Ltd', email: 'billing@example.com' };

/** A revenue event of each kind as a sample: 49.00 more MRR, 99.00 after it. */
function sampleRevenueEvent(kind: RevenueEventKind): Record<string, unknown> {
  const churn = kind === 'churn' || kind === 'scheduled_churn' || kind === 'contraction';
  return revenueEventData({
    key: 'sample',
    kind,
    accountId: '00000000-0000-0000-0000-000000000000',
    customer: SAMPLE_CUSTOMER,
    occurredAt: '2026-01-15T00:00:00.000Z',
    amount: churn ? -4900 : 4900,
    mrr: kind === 'churn' ? 0 : 9900,
    currency: 'usd',
  });
}

const SAMPLE_DATA: Record<
  Exclude<WebhookEventType, `movement.${string}` | 'failed_payment' | 'payment_recovered'>,
  Record<string, unknown>
> = {
  'invoice.paid': invoiceData({
    id: 'in_123',
    customer_id: SAMPLE_CUSTOMER.id,
    amount: 9900,
    currency: 'usd',
    date: '2026-01-15',
  }),
  'customer.created': customerData(SAMPLE_CUSTOMER),
  'customer.updated': customerData(SAMPLE_CUSTOMER),
  'plan.created': planData({ id: 'pro', name: 'Pro', billing_freq: 'month', currency: 'usd' }),
  'data_source.import_completed': importCompletedData({
    id: '00000000-0000-0000-0000-000000000001',
    name: 'Stripe',
    type: 'processor-a',
    finishedAt: '2026-01-15T00:00:00.000Z',
  }),
};

const KIND_OF_TYPE = new Map(
  Object.entries(EVENT_TYPE_OF_KIND).map(([kind, type]) => [type, kind as RevenueEventKind]),
);

/** The `data` a delivery of this type carries, with made-up values: what a receiver can build against. */
export function sampleData(type: WebhookEventType): Record<string, unknown> {
  const kind = KIND_OF_TYPE.get(type);
  if (kind) return sampleRevenueEvent(kind);
  return SAMPLE_DATA[type as keyof typeof SAMPLE_DATA];
}
