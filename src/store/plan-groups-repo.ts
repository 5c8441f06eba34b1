import type { Queryable } from './db.js';
import type { PlanRow } from './plans-repo.js';
import { keysJson, type RecordKey } from './records-repo.js';

export type GroupPlan = Omit<PlanRow, 'data_source'>;

export interface PlanGroupRow {
  id: string;
  name: string;
  plans: GroupPlan[];
}

const SELECT = `select g.plan_group_id as id, g.name, coalesce((
    select json_agg(json_build_object('id', p.plan_id, 'name', p.name, 'billing_freq', p.billing_freq,
      'billing_freq_count', p.billing_freq_count, 'pricing_model', p.pricing_model, 'product_name', p.product_name, 'currency', p.currency)
      order by gp.position)
    from plan_group_plans gp
    join plans p on p.account_id = gp.account_id and p.data_source_id = gp.data_source_id and p.plan_id = gp.plan_id
    where gp.account_id = g.account_id and gp.plan_group_id = g.plan_group_id
  ), '[]') as plans
  from plan_groups g`;

export function planGroupsRepo(db: Queryable) {
  return {
    list(accountId: string, page: { limit: number; offset: number }): Promise<PlanGroupRow[]> {
      return db.query<PlanGroupRow>(
        `${SELECT} where g.account_id = $1 order by g.created_at, g.plan_group_id limit $2 offset $3`,
        [accountId, page.limit, page.offset],
      );
    },

    async get(accountId: string, groupId: string): Promise<PlanGroupRow | undefined> {
      const [row] = await db.query<PlanGroupRow>(
        `${SELECT} where g.account_id = $1 and g.plan_group_id = $2`,
        [accountId, groupId],
      );
      return row;
    },

    /** The plans of the given groups, and which of the groups exist. */
    async planKeys(
      accountId: string,
      groupIds: readonly string[],
    ): Promise<{ group_id: string; plan: RecordKey | null }[]> {
      const rows = await db.query<{
        group_id: string;
        data_source_id: string | null;
        plan_id: string | null;
      }>(
        `select g.plan_group_id as group_id, gp.data_source_id, gp.plan_id from plan_groups g
         left join plan_group_plans gp on gp.account_id = g.account_id and gp.plan_group_id = g.plan_group_id
         where g.account_id = $1 and g.plan_group_id = any($2::uuid[])`,
        [accountId, groupIds],
      );
      return rows.map((row) => ({
        group_id: row.group_id,
        plan: row.plan_id === null ? null : { dataSourceId: row.data_source_id!, id: row.plan_id },
      }));
    },

    async insert(accountId: string, groupId: string, name: string): Promise<void> {
      await db.query('insert into plan_groups (account_id, plan_group_id, name) values ($1, $2, $3)', [
        accountId,
        groupId,
        name,
      ]);
    },

    /** Locks the group for the rest of the transaction; false when it does not exist. */
    async lock(accountId: string, groupId: string): Promise<boolean> {
      const rows = await db.query(
        'select 1 from plan_groups where account_id = $1 and plan_group_id = $2 for update',
        [accountId, groupId],
      );
      return rows.length > 0;
    },

    async rename(accountId: string, groupId: string, name: string): Promise<void> {
      await db.query('update plan_groups set name = $3 where account_id = $1 and plan_group_id = $2', [
        accountId,
        groupId,
        name,
      ]);
    },

    /** The group's plans become exactly these, in this order. */
    async replacePlans(accountId: string, groupId: string, plans: readonly RecordKey[]): Promise<void> {
      await db.query('delete from plan_group_plans where account_id = $1 and plan_group_id = $2', [
        accountId,
        groupId,
      ]);
      if (plans.length === 0) return;
      await db.query(
        `insert into plan_group_plans (account_id, plan_group_id, data_source_id, plan_id, position)
         select $1, $2, k.s, k.i, k.n - 1
         from rows from (json_to_recordset($3::json) as (s uuid, i text)) with ordinality as k(s, i, n)`,
        [accountId, groupId, keysJson(plans)],
      );
    },

    async delete(accountId: string, groupId: string): Promise<boolean> {
      const rows = await db.query(
        'delete from plan_groups where account_id = $1 and plan_group_id = $2 returning plan_group_id',
        [accountId, groupId],
      );
      return rows.length > 0;
    },
  };
}
