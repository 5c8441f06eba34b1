import type { BillingFrequency, PRICING_MODELS } from '../engine/vocabulary.js';
import { bulkWrite } from './bulk-write.js';
import type { Queryable } from './db.js';
import { keysJson, type Page, type RecordKey } from './records-repo.js';

export interface PlanGroupRef {
  id: string;
  name: string;
}

export interface PlanRow {
  id: string;
  data_source: string;
  name: string;
  billing_freq: BillingFrequency;
  billing_freq_count: number;
  pricing_model: (typeof PRICING_MODELS)[number];
  product_name: string | null;
  currency: string;
}

const SELECT = `select p.plan_id as id, p.data_source_id as data_source, p.name, p.billing_freq,
  p.billing_freq_count, p.pricing_model, p.product_name, p.currency from plans p`;

const ORDER = 'order by p.plan_id, p.data_source_id';

export function plansRepo(db: Queryable) {
  return {
    list(accountId: string, page: Page): Promise<PlanRow[]> {
      return db.query<PlanRow>(
        `${SELECT} where p.account_id = $1 and ($2::uuid is null or p.data_source_id = $2)
         ${ORDER} limit $3 offset $4`,
        [accountId, page.dataSourceId ?? null, page.limit, page.offset],
      );
    },

    /**
     * A page of plans with the plan groups each belongs to. The page is cut first, then joined
     * once with the account's group links, which have no index by plan.
     */
    listWithGroups(accountId: string, page: Page): Promise<(PlanRow & { groups: PlanGroupRef[] })[]> {
      return db.query<PlanRow & { groups: PlanGroupRef[] }>(
        `with page as (
           ${SELECT} where p.account_id = $1 and ($2::uuid is null or p.data_source_id = $2)
           ${ORDER} limit $3 offset $4
         )
         select page.*, coalesce(
             json_agg(json_build_object('id', g.plan_group_id, 'name', g.name) order by g.name, g.plan_group_id)
               filter (where g.plan_group_id is not null),
             '[]') as groups
           from page
           left join plan_group_plans gp
             on gp.account_id = $1 and gp.data_source_id = page.data_source and gp.plan_id = page.id
           left join plan_groups g on g.account_id = $1 and g.plan_group_id = gp.plan_group_id
          group by page.id, page.data_source, page.name, page.billing_freq, page.billing_freq_count,
                   page.pricing_model, page.product_name, page.currency
          order by page.id, page.data_source`,
        [accountId, page.dataSourceId ?? null, page.limit, page.offset],
      );
    },

    getMany(accountId: string, keys: readonly RecordKey[]): Promise<PlanRow[]> {
      if (keys.length === 0) return Promise.resolve([]);
      return db.query<PlanRow>(
        `${SELECT} join json_to_recordset($2::json) as k(s uuid, i text)
           on p.data_source_id = k.s and p.plan_id = k.i
         where p.account_id = $1 ${ORDER}`,
        [accountId, keysJson(keys)],
      );
    },

    async upsertMany(accountId: string, plans: readonly PlanRow[]): Promise<void> {
      await bulkWrite(
        db,
        accountId,
        {
          table: 'plans',
          columns: {
            data_source_id: 'uuid',
            plan_id: 'text',
            name: 'text',
            billing_freq: 'text',
            billing_freq_count: 'integer',
            pricing_model: 'text',
            product_name: 'text',
            currency: 'text',
          },
          conflictKey: ['data_source_id', 'plan_id'],
        },
        plans.map(({ id, data_source, ...values }) => ({
          data_source_id: data_source,
          plan_id: id,
          ...values,
        })),
      );
    },
  };
}
