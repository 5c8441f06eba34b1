import type { Queryable } from './db.js';

/** A raw record's identity inside an account: its data source and its external id. */
export interface RecordKey {
  dataSourceId: string;
  id: string;
}

/** One page of a list, optionally only one data source's records. */
export interface Page {
  dataSourceId?: string | undefined;
  limit: number;
  offset: number;
}

export type RecordTable = 'customers' | 'plans' | 'invoices' | 'subscriptions';

const ID_COLUMN: Record<RecordTable, string> = {
  customers: 'customer_id',
  plans: 'plan_id',
  invoices: 'invoice_id',
  subscriptions: 'subscription_id',
};

/** Tables whose records belong to a customer, and the column naming it. */
const OWNER_COLUMN: Record<RecordTable, string | null> = {
  customers: 'customer_id',
  plans: null,
  invoices: 'customer_id',
  subscriptions: 'customer_id',
};

export function keyString(key: RecordKey): string {
  return `${key.dataSourceId}/${key.id}`;
}

/** Keys as one JSON parameter, unpacked in SQL by `json_to_recordset(...) as k(s uuid, i text)`. */
export function keysJson(keys: readonly RecordKey[]): string {
  return JSON.stringify(keys.map((key) => ({ s: key.dataSourceId, i: key.id })));
}

const KEYS = 'json_to_recordset($2::json) as k(s uuid, i text)';

/**
 * One primary-key look-up per key of `KEYS`. A plain join lets the planner hash the account's
 * whole table, which it does without statistics (PGlite never gathers any): every import
 * request then reads every stored record. A lateral subquery with a limit is never merged
 * into the join, so each key costs one index probe whatever the table's size.
 */
function probe(table: RecordTable, select: string, lock = ''): string {
  return `select ${select} from ${table} t
    where t.account_id = $1 and t.data_source_id = k.s and t.${ID_COLUMN[table]} = k.i limit 1 ${lock}`;
}

/** Lookups by key that every raw record table shares. */
export function recordsRepo(db: Queryable) {
  return {
    /** The data sources of the account holding a record with this external id, oldest first. */
    async sourcesOf(table: RecordTable, accountId: string, id: string): Promise<string[]> {
      const rows = await db.query<{ data_source_id: string }>(
        `select data_source_id from ${table} where account_id = $1 and ${ID_COLUMN[table]} = $2
         order by data_source_id`,
        [accountId, id],
      );
      return rows.map((row) => row.data_source_id);
    },

    /** For each of these external ids, the data sources holding a record with it. */
    async sourcesOfMany(table: RecordTable, accountId: string, ids: readonly string[]) {
      const rows = await db.query<{ id: string; data_source_id: string }>(
        `select t.${ID_COLUMN[table]} as id, t.data_source_id from ${table} t
         where t.account_id = $1 and t.${ID_COLUMN[table]} in (select json_array_elements_text($2::json))
         order by t.data_source_id`,
        [accountId, JSON.stringify(ids)],
      );
      const sources = new Map<string, string[]>(ids.map((id) => [id, []]));
      for (const row of rows) sources.get(row.id)?.push(row.data_source_id);
      return sources;
    },

    /**
     * Which of the keys name an existing record, as `keyString`s. With `lock`, those records
     * cannot be deleted until the transaction ends, as a foreign key to them would ensure.
     */
    async existing(
      table: RecordTable,
      accountId: string,
      keys: readonly RecordKey[],
      options: { lock?: boolean } = {},
    ): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const lock = options.lock ? 'for key share' : '';
      const rows = await db.query<{ s: string; i: string }>(
        `select k.s, k.i from ${KEYS} cross join lateral (${probe(table, '1', lock)}) t`,
        [accountId, keysJson(keys)],
      );
      return new Set(rows.map((row) => keyString({ dataSourceId: row.s, id: row.i })));
    },

    /** The customers that own the records with these keys (for records that have an owner). */
    async ownersOf(table: RecordTable, accountId: string, keys: readonly RecordKey[]): Promise<RecordKey[]> {
      const owner = OWNER_COLUMN[table];
      if (!owner || keys.length === 0) return [];
      const rows = await db.query<{ s: string; i: string }>(
        `select distinct k.s, t.owner as i from ${KEYS} cross join lateral (${probe(table, `${owner} as owner`)}) t`,
        [accountId, keysJson(keys)],
      );
      return rows.map((row) => ({ dataSourceId: row.s, id: row.i }));
    },

    /** Deletes one record; undefined when there was none. Owned records report their owner. */
    async delete(
      table: RecordTable,
      accountId: string,
      key: RecordKey,
    ): Promise<{ owner: RecordKey | null } | undefined> {
      const owner = OWNER_COLUMN[table];
      const [row] = await db.query<{ owner: string | null }>(
        `delete from ${table} where account_id = $1 and data_source_id = $2 and ${ID_COLUMN[table]} = $3
         returning ${owner ?? 'null::text'} as owner`,
        [accountId, key.dataSourceId, key.id],
      );
      if (!row) return undefined;
      return { owner: row.owner === null ? null : { dataSourceId: key.dataSourceId, id: row.owner } };
    },
  };
}
