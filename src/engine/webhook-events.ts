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
  'invoice.paid': {
    invoice: {
      id: 'in_123',
      customer_id: SAMPLE_CUSTOMER.id,
      total: 9900,
      currency: 'usd',
      date: '2026-01-15',
    },
  },
  'customer.created': { customer: SAMPLE_CUSTOMER },
  'customer.updated': { customer: SAMPLE_CUSTOMER },
  'plan.created': { plan: { id: 'pro', name: 'Pro', billing_freq: 'month', currency: 'usd' } },
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
