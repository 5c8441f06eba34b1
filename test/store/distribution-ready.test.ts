import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { createTestLocation, openLocationDb, STORE_KINDS, type TestLocation } from '../helpers/stores.js';

/**
 * Guards the schema's readiness to be distributed by account on Citus (docs/operations.md, "Past
 * one machine"): every table but the global ones carries account_id in its primary key, in every
 * unique index and in every foreign key to another distributed table, which is what Citus needs
 * to distribute it colocated with `accounts`. Read from the catalog of a migrated database, so a
 * future migration that breaks the rule fails here. PostgreSQL only: the catalog is the same on
 * PGlite, and one engine suffices.
 */

/** Tables without account_id, kept whole on every node or on the coordinator only. */
const GLOBAL_TABLES = new Set([
  // ECB rates shared by every account: a Citus reference table.
  'fx_rates',
  // Read and written by the migration runner alone: a plain table on the coordinator.
  'schema_migrations',
]);

/** Triggers run on the worker that holds the shard; Citus accepts them only with citus.enable_unsafe_triggers. */
const TRIGGERS = ['customers.customers_delete_invoices', 'invoices.invoices_delete_children'];

interface IndexRow {
  table: string;
  index: string;
  primary: boolean;
  columns: string[];
}

interface ForeignKeyRow {
  table: string;
  referenced: string;
  name: string;
  pairs: string[];
}

async function publicTables(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ table: string }>(
    `select c.relname as table from pg_class c
     where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
     order by c.relname`,
  );
  return rows.map((row) => row.table);
}

async function tablesWithAccountId(db: Queryable): Promise<Set<string>> {
  const rows = await db.query<{ table: string }>(
    `select table_name as table from information_schema.columns
     where table_schema = 'public' and column_name = 'account_id'`,
  );
  return new Set(rows.map((row) => row.table));
}

/** Unique indexes (primary keys and unique constraints included) with their plain key columns. */
async function uniqueIndexes(db: Queryable): Promise<IndexRow[]> {
  return db.query<IndexRow>(
    `select t.relname as table, i.relname as index, x.indisprimary as primary,
       array(
         select a.attname::text from unnest(x.indkey::int2[]) with ordinality k (attnum, n)
         join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
         where k.n <= x.indnkeyatts -- not the columns an index only includes
       ) as columns
     from pg_index x
     join pg_class i on i.oid = x.indexrelid
     join pg_class t on t.oid = x.indrelid
     where t.relnamespace = 'public'::regnamespace and x.indisunique
     order by i.relname`,
  );
}

/** Foreign keys, each as its "column->referenced column" pairs. */
async function foreignKeys(db: Queryable): Promise<ForeignKeyRow[]> {
  return db.query<ForeignKeyRow>(
    `select t.relname as table, r.relname as referenced, c.conname as name,
       array(
         select a.attname || '->' || ra.attname
         from unnest(c.conkey, c.confkey) k (attnum, refnum)
         join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum
         join pg_attribute ra on ra.attrelid = c.confrelid and ra.attnum = k.refnum
       ) as pairs
     from pg_constraint c
     join pg_class t on t.oid = c.conrelid
     join pg_class r on r.oid = c.confrelid
     where c.contype = 'f' and t.relnamespace = 'public'::regnamespace
     order by c.conname`,
  );
}

/** What keeps each table from being distributed by account_id, table by table. */
async function distributionGaps(db: Queryable): Promise<Record<string, string[]>> {
  // One after the other: inside a transaction they share one connection.
  const tables = await publicTables(db);
  const withAccountId = await tablesWithAccountId(db);
  const indexes = await uniqueIndexes(db);
  const keys = await foreignKeys(db);
  const gaps: Record<string, string[]> = {};
  const note = (table: string, gap: string) => (gaps[table] ??= []).push(gap);
  for (const table of tables.filter((name) => !GLOBAL_TABLES.has(name))) {
    if (!withAccountId.has(table)) note(table, 'no account_id column');
    const own = indexes.filter((index) => index.table === table);
    const primary = own.find((index) => index.primary);
    if (!primary) note(table, 'no primary key');
    else if (!primary.columns.includes('account_id')) note(table, 'primary key lacks account_id');
    for (const index of own.filter((candidate) => !candidate.primary)) {
      if (!index.columns.includes('account_id')) note(table, `unique index ${index.index} lacks account_id`);
    }
    for (const key of keys.filter((candidate) => candidate.table === table)) {
      if (GLOBAL_TABLES.has(key.referenced)) continue; // to a reference table: any columns will do
      if (!key.pairs.includes('account_id->account_id'))
        note(table, `foreign key ${key.name} lacks account_id`);
    }
  }
  for (const key of keys.filter((candidate) => GLOBAL_TABLES.has(candidate.table))) {
    if (!GLOBAL_TABLES.has(key.referenced)) note(key.table, `foreign key ${key.name} to a distributed table`);
  }
  return gaps;
}

describe.runIf(STORE_KINDS.includes('postgres'))('distribution readiness of the schema', () => {
  let location: TestLocation;
  let db: Db;

  beforeAll(async () => {
    location = await createTestLocation('postgres');
    db = await openLocationDb(location);
    await migrate(db);
  });

  afterAll(async () => {
    await db.close();
    await location.drop();
  });

  it('keys every table but the global ones by account_id', async () => {
    expect(await distributionGaps(db)).toEqual({});
  });

  it('names only global tables that exist, so the exceptions cannot go stale', async () => {
    const tables = await publicTables(db);
    expect(tables.filter((table) => GLOBAL_TABLES.has(table))).toEqual([...GLOBAL_TABLES].sort());
  });

  it('reports each kind of gap a migration could introduce', async () => {
    const rollback = new Error('rollback');
    let found: Record<string, string[]> = {};
    const checked = db.transaction(async (tx) => {
      await tx.exec(`
        create table no_account (code text primary key);
        create table bad_keys (
          account_id uuid not null, code text not null, parent text, rate_currency text, rate_day date,
          primary key (code),
          foreign key (account_id) references accounts (account_id),
          foreign key (parent) references no_account (code),
          foreign key (rate_currency, rate_day) references fx_rates (currency, day)
        );
        create unique index bad_keys_pair on bad_keys (account_id, parent);
        create unique index bad_keys_parent on bad_keys (parent);
        create unique index bad_keys_covering on bad_keys (code) include (account_id);
        alter table fx_rates add column account_id uuid references accounts (account_id);
      `);
      found = await distributionGaps(tx);
      throw rollback; // leaves the schema as migrated
    });
    await expect(checked).rejects.toBe(rollback);
    expect(found).toEqual({
      no_account: ['no account_id column', 'primary key lacks account_id'],
      bad_keys: [
        'primary key lacks account_id',
        'unique index bad_keys_covering lacks account_id',
        'unique index bad_keys_parent lacks account_id',
        'foreign key bad_keys_parent_fkey lacks account_id',
      ],
      fx_rates: ['foreign key fx_rates_account_id_fkey to a distributed table'],
    });
    expect(await distributionGaps(db)).toEqual({});
  });

  it('has only the triggers docs/operations.md lists for citus.enable_unsafe_triggers', async () => {
    const rows = await db.query<{ trigger: string }>(
      `select c.relname || '.' || t.tgname as trigger from pg_trigger t
       join pg_class c on c.oid = t.tgrelid
       where not t.tgisinternal and c.relnamespace = 'public'::regnamespace
       order by 1`,
    );
    expect(rows.map((row) => row.trigger)).toEqual(TRIGGERS);
  });
});
