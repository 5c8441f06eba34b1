import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { changeQueueCompaction } from '../../src/store/change-queue-compaction.js';
import type { Db } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { createTestLocation, openLocationDb, openTestStore, STORE_KINDS } from '../helpers/stores.js';

/** Pages of the change queue's file, dead rows included. */
async function queuePages(db: Db): Promise<number> {
  const [row] = await db.query<{ pages: number }>(
    `select pg_relation_size('dirty_customers') / current_setting('block_size')::int as pages`,
  );
  return row!.pages;
}

async function liveMarks(db: Db): Promise<string[]> {
  const rows = await db.query<{ customer_id: string }>(
    'select customer_id from dirty_customers order by customer_id',
  );
  return rows.map((row) => row.customer_id);
}

describe.each(STORE_KINDS)('change queue compaction on %s', (kind) => {
  async function withQueue(
    fn: (db: Db, mark: (from: number, to: number) => Promise<unknown>) => Promise<void>,
  ): Promise<void> {
    const location = await createTestLocation(kind);
    const db = await openLocationDb(location);
    try {
      await migrate(db);
      const accountId = randomUUID();
      const dataSourceId = randomUUID();
      await db.query(`insert into accounts (account_id, name, base_currency) values ($1, 'Queue', 'usd')`, [
        accountId,
      ]);
      await fn(db, (from, to) =>
        db.query(
          `insert into dirty_customers (account_id, data_source_id, customer_id)
           select $1, $2, 'c' || lpad(n::text, 6, '0') from generate_series($3::int, $4::int) n`,
          [accountId, dataSourceId, from, to],
        ),
      );
    } finally {
      await db.close();
      await location.drop();
    }
  }

  it('leaves a queue of live marks as it is, and one checked lately alone', async () => {
    await withQueue(async (db, mark) => {
      let now = 0;
      const compaction = changeQueueCompaction(db, () => now);
      // 30,000 marks fill more than 128 pages; all of them live, there is nothing to gain.
      await mark(1, 30_000);
      const full = await queuePages(db);
      expect(full).toBeGreaterThan(128);
      await compaction.afterWrite();
      expect(await queuePages(db)).toBe(full);

      // A refresh claimed them all: the file keeps its size until it is compacted.
      await db.query('delete from dirty_customers');
      now += 1_000; // within 5 s of the last check: not looked at again
      await compaction.afterWrite();
      expect(await queuePages(db)).toBe(full);
      now += 5_000;
      await compaction.afterWrite();
      expect(await queuePages(db)).toBe(0);

      // A small queue is left alone, however dead: its file is too small to matter.
      await mark(30_001, 31_000);
      await db.query('delete from dirty_customers');
      const small = await queuePages(db);
      expect(small).toBeGreaterThan(1);
      now += 5_000;
      await compaction.afterWrite();
      expect(await queuePages(db)).toBe(small);
    });
  });

  it('keeps the live marks of a large, mostly dead queue', async () => {
    await withQueue(async (db, mark) => {
      const compaction = changeQueueCompaction(db);
      await mark(1, 30_000);
      const full = await queuePages(db);
      await db.query(`delete from dirty_customers where customer_id not in ('c000007', 'c029999')`);
      await compaction.afterWrite();
      expect(await liveMarks(db)).toEqual(['c000007', 'c029999']);
      // The embedded store rewrites the two marks; PostgreSQL, whose rewrite would hold every
      // process's writes, only empties a queue without marks, and leaves the rest to autovacuum.
      expect(await queuePages(db)).toBe(kind === 'pglite' ? 1 : full);
    });
  });

  it.skipIf(kind !== 'postgres')('leaves the queue to the next check while a write holds it', async () => {
    await withQueue(async (db, mark) => {
      await mark(1, 30_000);
      await db.query('delete from dirty_customers');
      const full = await queuePages(db);
      const writer = holdingWrite(db);
      await writer.holding;
      await changeQueueCompaction(db).afterWrite();
      expect(await queuePages(db)).toBe(full);
      writer.release();
      await writer.done;
      await changeQueueCompaction(db).afterWrite();
      expect(await queuePages(db)).toBe(0);
    });
  });

  it.skipIf(kind !== 'postgres')('keeps a mark committed while it waited for the lock', async () => {
    await withQueue(async (db, mark) => {
      await mark(1, 30_000);
      await db.query('delete from dirty_customers');
      // A write that marks a customer and commits while the compaction waits for the table:
      // the queue looked empty before the lock, and is not once the lock is granted.
      const writer = holdingWrite(db);
      await writer.holding;
      const compacting = changeQueueCompaction(db, Date.now, 10_000).afterWrite();
      await waitForLockRequest(db);
      await writer.markAndCommit();
      await compacting;
      expect(await liveMarks(db)).toEqual(['late']);
    });
  });
});

/** A transaction that holds the queue's table, as a write under way does, until told to end. */
function holdingWrite(db: Db) {
  let release = (_mark: boolean) => {};
  const ended = new Promise<boolean>((resolve) => (release = resolve));
  let locked = () => {};
  const holding = new Promise<void>((resolve) => (locked = resolve));
  const done = db.transaction(async (tx) => {
    await tx.query('lock table dirty_customers in row exclusive mode');
    locked();
    if (await ended)
      await tx.query(
        `insert into dirty_customers (account_id, data_source_id, customer_id)
         select account_id, gen_random_uuid(), 'late' from accounts limit 1`,
      );
  });
  return {
    holding,
    done,
    release: () => release(false),
    markAndCommit: async () => {
      release(true);
      await done;
    },
  };
}

/** Resolves once some transaction waits for the queue's exclusive lock. */
async function waitForLockRequest(db: Db): Promise<void> {
  for (;;) {
    const [row] = await db.query<{ waiting: boolean }>(
      `select exists (select 1 from pg_locks where relation = 'dirty_customers'::regclass
                       and mode = 'AccessExclusiveLock' and not granted) as waiting`,
    );
    if (row?.waiting) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(STORE_KINDS)('the store on %s', (kind) => {
  it('compacts its change queue after a transaction', async () => {
    const opened = await openTestStore(kind);
    const { store } = opened;
    try {
      const sql = (text: string, values?: unknown[]) => store.jobQueueDb.executeSql(text, values);
      const pages = async () =>
        (
          await sql(
            `select pg_relation_size('dirty_customers') / current_setting('block_size')::int as pages`,
          )
        ).rows[0]!.pages as number;
      const accountId = randomUUID();
      await sql(`insert into accounts (account_id, name, base_currency) values ($1, 'Queue', 'usd')`, [
        accountId,
      ]);
      // An import's worth of marks, every one claimed since: a large file of dead rows.
      await sql(
        `insert into dirty_customers (account_id, data_source_id, customer_id)
         select $1, $2, 'c' || n from generate_series(1, 30000) n`,
        [accountId, randomUUID()],
      );
      await sql('delete from dirty_customers');
      expect(await pages()).toBeGreaterThan(128);
      await store.transaction(async () => {});
      expect(await pages()).toBe(0);
    } finally {
      await opened.dispose();
    }
  });
});
