import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Repos, Store } from '../store/open-store.js';
import type { PlanGroupRow } from '../store/plan-groups-repo.js';
import { keyString, type RecordKey } from '../store/records-repo.js';
import { MAX_BULK_ITEMS } from './limits.js';
import { recordChanges } from './change-tracking.js';
import { ConflictError, InvalidInputError, NotFoundError } from './errors.js';
import { isUuid } from './ids.js';
import { dataSourceRef, externalId, shortText } from './record-fields.js';

const planRef = z
  .union([externalId, z.strictObject({ id: externalId, data_source: dataSourceRef.optional() })])
  .describe('A plan: {id} (with data_source when several sources hold the id), or the id alone');

export const planGroupInputSchema = z.strictObject({
  name: shortText.trim().min(1, 'must not be empty'),
  plans: z.array(planRef).max(MAX_BULK_ITEMS, `must hold at most ${MAX_BULK_ITEMS} plans`),
});

export const planGroupPatchSchema = planGroupInputSchema.partial();

type PlanRef = z.infer<typeof planRef>;

function notFound(id: string): NotFoundError {
  return new NotFoundError(`Plan group ${id} not found`);
}

/** Every referenced plan must exist: a 400 names all the missing ones at once. */
async function resolvePlans(tx: Repos, accountId: string, refs: readonly PlanRef[]): Promise<RecordKey[]> {
  const wanted = refs.map((ref) => (typeof ref === 'string' ? { id: ref } : ref));
  const sources = await tx.records.sourcesOfMany(
    'plans',
    accountId,
    wanted.map((ref) => ref.id),
  );
  const missing: string[] = [];
  const keys = new Map<string, RecordKey>();
  for (const ref of wanted) {
    const held = (sources.get(ref.id) ?? []).filter(
      (source) => ref.data_source === undefined || source === ref.data_source.toLowerCase(),
    );
    if (held.length === 0) missing.push(ref.id);
    else if (held.length > 1) {
      throw new ConflictError(
        `Plan ${ref.id} exists in ${held.length} data sources; name one with data_source`,
      );
    } else
      keys.set(keyString({ dataSourceId: held[0]!, id: ref.id }), { dataSourceId: held[0]!, id: ref.id });
  }
  if (missing.length > 0) throw new InvalidInputError(`Unknown plans: ${[...new Set(missing)].join(', ')}`);
  return [...keys.values()];
}

export function createPlanGroupsService(store: Store) {
  return {
    list(accountId: string, page: { limit: number; offset: number }): Promise<PlanGroupRow[]> {
      return store.planGroups.list(accountId, page);
    },

    async get(accountId: string, id: string): Promise<PlanGroupRow> {
      const group = isUuid(id) ? await store.planGroups.get(accountId, id) : undefined;
      if (!group) throw notFound(id);
      return group;
    },

    create(accountId: string, input: z.infer<typeof planGroupInputSchema>): Promise<string> {
      return store.transaction(async (tx) => {
        const plans = await resolvePlans(tx, accountId, input.plans);
        const id = randomUUID();
        await tx.planGroups.insert(accountId, id, input.name);
        await tx.planGroups.replacePlans(accountId, id, plans);
        await recordChanges(tx, accountId, {});
        return id;
      });
    },

    update(accountId: string, id: string, patch: z.infer<typeof planGroupPatchSchema>): Promise<void> {
      return store.transaction(async (tx) => {
        if (!isUuid(id) || !(await tx.planGroups.lock(accountId, id))) throw notFound(id);
        if (patch.name !== undefined) await tx.planGroups.rename(accountId, id, patch.name);
        if (patch.plans !== undefined) {
          await tx.planGroups.replacePlans(accountId, id, await resolvePlans(tx, accountId, patch.plans));
        }
        await recordChanges(tx, accountId, {});
      });
    },

    /** Deletes the group and its links; the plans stay. */
    async delete(accountId: string, id: string): Promise<void> {
      await store.transaction(async (tx) => {
        if (!isUuid(id) || !(await tx.planGroups.delete(accountId, id))) throw notFound(id);
        await recordChanges(tx, accountId, {});
      });
    },

    /** Whether `id` names a group of the account (DELETE /data/plans serves groups and plans). */
    async exists(accountId: string, id: string): Promise<boolean> {
      return isUuid(id) && (await store.planGroups.get(accountId, id)) !== undefined;
    },
  };
}

export type PlanGroupsService = ReturnType<typeof createPlanGroupsService>;
