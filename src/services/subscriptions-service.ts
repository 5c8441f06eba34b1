import { SUBSCRIPTION_STATUSES } from '../engine/vocabulary.js';
import { z } from 'zod';
import type { Store } from '../store/open-store.js';
import type { FxService } from './fx-service.js';
import type { Page } from '../store/records-repo.js';
import { type SubscriptionRow } from '../store/subscriptions-repo.js';
import { cents, currency, dataSourceRef, day, externalId, instant, storedCount } from './record-fields.js';
import { type RecordType, recordKey, recordUseCases } from './record-import.js';
import { checkReferences } from './reference-checks.js';

const quantity = storedCount(0);

export const scheduledChangeSchema = z.strictObject({
  date: day.describe('Day the change takes effect'),
  plan_id: externalId.optional(),
  quantity: quantity.optional(),
  amount: cents.optional().describe('New MRR in cents'),
});

export const subscriptionInputSchema = z.strictObject({
  id: externalId.describe('External subscription id'),
  customer_id: externalId.describe("A customer of the subscription's data source"),
  data_source: dataSourceRef.optional(),
  plan_id: externalId.nullable().default(null).describe("A plan of the subscription's data source"),
  quantity: quantity.default(1),
  status: z
    .enum(SUBSCRIPTION_STATUSES, { error: `must be one of ${SUBSCRIPTION_STATUSES.join(', ')}` })
    .default('active'),
  started_at: instant,
  cancel_requested_at: instant.nullable().default(null),
  cancel_at: instant
    .nullable()
    .default(null)
    .describe('When the subscription ends; in the future, scheduled churn'),
  ended_at: instant.nullable().default(null),
  mrr: cents.nullable().default(null).describe('MRR in cents as the billing system states it, if known'),
  currency: currency.nullable().default(null),
  scheduled_changes: z.array(scheduledChangeSchema).default([]),
});

const subscriptionType: RecordType<SubscriptionRow> = {
  table: 'subscriptions',
  noun: 'Subscription',
  schema: subscriptionInputSchema,
  referenceCheck: (tx, accountId, subscriptions) =>
    checkReferences(tx, accountId, subscriptions, (subscription) => ({
      customer: subscription.customer_id,
      plans: [
        ...(subscription.plan_id === null ? [] : [{ id: subscription.plan_id, where: '' }]),
        ...subscription.scheduled_changes.flatMap((change, index) =>
          change.plan_id === undefined
            ? []
            : [{ id: change.plan_id, where: ` (scheduled_changes.${index}.plan_id)` }],
        ),
      ],
    })),
  async write(tx, accountId, subscriptions) {
    const previousOwners = await tx.records.ownersOf(
      'subscriptions',
      accountId,
      subscriptions.map(recordKey),
    );
    await tx.subscriptions.upsertMany(accountId, subscriptions);
    const owners = subscriptions.map((row) => ({ dataSourceId: row.data_source, id: row.customer_id }));
    return { customers: [...previousOwners, ...owners] };
  },
  read: (tx, accountId, keys) => tx.subscriptions.getMany(accountId, keys),
};

export function createSubscriptionsService(store: Store, fx: FxService) {
  return {
    ...recordUseCases(store, fx, subscriptionType),

    list(accountId: string, page: Page & { customerId?: string | undefined }): Promise<SubscriptionRow[]> {
      return store.subscriptions.list(accountId, page);
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
