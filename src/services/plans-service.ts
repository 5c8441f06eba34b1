import { BILLING_FREQUENCIES, PRICING_MODELS } from '../engine/vocabulary.js';
import { planEvents } from '../engine/webhook-events.js';
import { z } from 'zod';
import type { Store } from '../store/open-store.js';
import type { FxService } from './fx-service.js';
import { type PlanRow } from '../store/plans-repo.js';
import type { Page } from '../store/records-repo.js';
import { InvalidInputError } from './errors.js';
import { currency, dataSourceRef, externalId, positiveCount, shortText } from './record-fields.js';
import { type RecordType, recordKey, recordUseCases } from './record-import.js';
import type { RecordEventSink } from './webhooks-service.js';

export const planFields = {
  id: externalId.describe('External plan id'),
  external_id: externalId.optional().describe('Same as id, accepted for clients that send both'),
  name: shortText.min(1, 'must not be empty'),
  billing_freq: z.enum(BILLING_FREQUENCIES, { error: `must be one of ${BILLING_FREQUENCIES.join(', ')}` }),
  billing_freq_count: positiveCount.default(1).describe('Billing_freq units per billing period; default 1'),
  pricing_model: z
    .enum(PRICING_MODELS, { error: `must be one of ${PRICING_MODELS.join(', ')}` })
    .default('licensed')
    .describe('metered for usage-based plans; default licensed'),
  product_name: shortText.nullable().default(null),
  currency,
  data_source: dataSourceRef.optional(),
};

export const planInputSchema = z
  .strictObject(planFields)
  .refine((plan) => plan.external_id === undefined || plan.external_id === plan.id, {
    message: 'external_id must equal id',
    path: ['external_id'],
  })
  .transform(({ external_id, ...plan }) => plan);

const planType: RecordType<PlanRow> = {
  table: 'plans',
  noun: 'Plan',
  schema: planInputSchema,
  async write(tx, accountId, plans) {
    await tx.plans.upsertMany(accountId, plans);
    return { plans: plans.map(recordKey) };
  },
  read: (tx, accountId, keys) => tx.plans.getMany(accountId, keys),
  events: planEvents,
};

/** Reference clients name a plan by `external_id`; ours by `id`. Either works for a write. */
export function withIdFromExternalId<T>(item: T): T {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
  const record = item as Record<string, unknown>;
  return record.id === undefined && record.external_id !== undefined
    ? { ...item, id: record.external_id }
    : item;
}

/**
 * PUT and DELETE /data/plans name the plan in the body; without it the answer is
 * `Missing external_id` (docs/api.md, "Plans").
 */
export function requireExternalId(id: unknown): string {
  if (typeof id !== 'string' || id.trim() === '') throw new InvalidInputError('Missing external_id');
  return id;
}

export function createPlansService(store: Store, fx: FxService, sink?: RecordEventSink) {
  const useCases = recordUseCases(store, fx, planType, sink);
  return {
    ...useCases,

    import(accountId: string, body: unknown) {
      return useCases.import(
        accountId,
        Array.isArray(body) ? body.map(withIdFromExternalId) : withIdFromExternalId(body),
      );
    },

    list(accountId: string, page: Page): Promise<PlanRow[]> {
      return store.plans.list(accountId, page);
    },

    /** Plans with their groups, as the plan catalogue shows them. */
    catalogue(accountId: string, page: Page) {
      return store.plans.listWithGroups(accountId, page);
    },
  };
}

export type PlansService = ReturnType<typeof createPlansService>;
