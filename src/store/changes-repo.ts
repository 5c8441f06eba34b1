import type { Queryable } from './db.js';
import { keysJson, keyString, type RecordKey } from './records-repo.js';

/** Where each committed change of an account's data version is announced, its id the payload. */
export const DATA_VERSION_CHANNEL = 'mrrlytics_data_version';

/** What the metrics engine needs to recompute: the data version and the customers that changed. */
export function changesRepo(db: Queryable) {
  return {
    /**
     * Moves the account's data version on and tells every process listening on
     * DATA_VERSION_CHANNEL, when (and only if) the transaction commits.
     */
    async bumpDataVersion(accountId: string): Promise<number> {
      const [row] = await db.query<{ data_version: number }>(
        `with bumped as (
           insert into account_data_state (account_id, data_version) values ($1, 1)
           on conflict (account_id) do update set data_version = account_data_state.data_version + 1
           returning data_version
         )
         select data_version, pg_notify($2, $3) from bumped`,
        [accountId, DATA_VERSION_CHANNEL, accountId],
      );
      return row!.data_version;
    },

    async dataVersion(accountId: string): Promise<number> {
      const [row] = await db.query<{ data_version: number }>(
        'select data_version from account_data_state where account_id = $1',
        [accountId],
      );
      return row?.data_version ?? 0;
    },

    /**
     * The account's data version when every write up to it has been derived (no customer is
     * marked), else null: both read by one statement, so at one moment. The mark is looked for
     * along the key's index: written as `exists`, unanalyzed tables got a scan of every account's
     * marks (millions, and their dead rows, after an import), at every snapshot build.
     */
    async settledVersion(accountId: string): Promise<number | null> {
      const [row] = await db.query<{ data_version: number; marked: boolean }>(
        `select coalesce((select data_version from account_data_state where account_id = $1), 0) as data_version,
                (select true from dirty_customers where account_id = $1
                 order by data_source_id, customer_id limit 1) is not null as marked`,
        [accountId],
      );
      return row!.marked ? null : row!.data_version;
    },

    async markCustomers(accountId: string, customers: readonly RecordKey[]): Promise<void> {
      if (customers.length === 0) return;
      // An import names each customer once per invoice: send each key once.
      const distinct = new Map(customers.map((key) => [keyString(key), key]));
      await db.query(
        `insert into dirty_customers (account_id, data_source_id, customer_id)
         select $1::uuid, k.s, k.i from json_to_recordset($2::json) as k(s uuid, i text)
         on conflict do nothing`,
        [accountId, keysJson([...distinct.values()])],
      );
    },

    /** Marks every customer of a data source, before the source and its records are deleted. */
    async markCustomersOfSource(accountId: string, dataSourceId: string): Promise<void> {
      await db.query(
        `insert into dirty_customers (account_id, data_source_id, customer_id)
         select account_id, data_source_id, customer_id from customers where account_id = $1 and data_source_id = $2
         on conflict do nothing`,
        [accountId, dataSourceId],
      );
    },

    /**
     * Marks every customer whose MRR is kept in the account's base currency for want of its
     * own: no currency of its own and no invoice (see customerHistory).
     */
    async markCustomersInAccountCurrency(accountId: string): Promise<void> {
      await db.query(
        `insert into dirty_customers (account_id, data_source_id, customer_id)
         select c.account_id, c.data_source_id, c.customer_id from customers c
          where c.account_id = $1 and c.currency is null
            and not exists (select 1 from invoices i
                             where i.account_id = c.account_id and i.data_source_id = c.data_source_id
                               and i.customer_id = c.customer_id)
         on conflict do nothing`,
        [accountId],
      );
    },

    /** Marks every customer with an invoice line or a subscription on one of these plans. */
    async markCustomersOfPlans(accountId: string, plans: readonly RecordKey[]): Promise<void> {
      if (plans.length === 0) return;
      await db.query(
        `with k as (select s, i from json_to_recordset($2::json) as k(s uuid, i text))
         insert into dirty_customers (account_id, data_source_id, customer_id)
         select $1, i.data_source_id, i.customer_id
           from k join invoice_lines l on l.account_id = $1 and l.data_source_id = k.s and l.plan_id = k.i
           join invoices i on i.account_id = $1 and i.data_source_id = l.data_source_id and i.invoice_id = l.invoice_id
         union
         select $1, s.data_source_id, s.customer_id
           from k join subscriptions s on s.account_id = $1 and s.data_source_id = k.s and s.plan_id = k.i
         on conflict do nothing`,
        [accountId, keysJson(plans)],
      );
    },

    /**
     * Takes up to `limit` dirty customers off the set and returns them, each once. Only marks
     * committed before the claim are taken: a write still open keeps its own, so the customer is
     * derived again after it (docs/decisions.md, "Change tracking"). Marks a concurrent claimer
     * holds are skipped, so two workers never receive the same mark.
     */
    async claimDirtyCustomers(accountId: string, limit = 10_000): Promise<RecordKey[]> {
      const rows = await db.query<{ data_source_id: string; customer_id: string }>(
        // Customers are picked by stepping through the key's index, one probe each, and their
        // marks locked by key: a DISTINCT or a join over the account's marks would sort or
        // hash all of them (millions during an import) wherever statistics are missing.
        `with recursive picked (data_source_id, customer_id, n) as (
           (select data_source_id, customer_id, 1 from dirty_customers where account_id = $1
            order by data_source_id, customer_id limit 1)
           union all
           select later.data_source_id, later.customer_id, p.n + 1 from picked p
           cross join lateral (
             select d.data_source_id, d.customer_id from dirty_customers d
             where d.account_id = $1 and (d.data_source_id, d.customer_id) > (p.data_source_id, p.customer_id)
             order by d.data_source_id, d.customer_id limit 1
           ) later
           where p.n < $2
         ), claimable as (
           select m.data_source_id, m.customer_id, m.marked_by from picked p
           cross join lateral (
             select d.data_source_id, d.customer_id, d.marked_by from dirty_customers d
             where d.account_id = $1 and d.data_source_id = p.data_source_id and d.customer_id = p.customer_id
             for update skip locked
           ) m
         ), claimed as (
           delete from dirty_customers d using claimable c
           where d.account_id = $1 and d.data_source_id = c.data_source_id
             and d.customer_id = c.customer_id and d.marked_by = c.marked_by
           returning d.data_source_id, d.customer_id
         )
         select distinct data_source_id, customer_id from claimed`,
        [accountId, limit],
      );
      return rows
        .map((row) => ({ dataSourceId: row.data_source_id, id: row.customer_id }))
        .sort((a, b) => a.dataSourceId.localeCompare(b.dataSourceId) || a.id.localeCompare(b.id));
    },
  };
}
