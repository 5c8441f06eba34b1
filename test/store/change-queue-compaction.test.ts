import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { changeQueueCompaction } from '../../src/store/change-queue-compaction.js';
import type { Db } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { createTestLocation, openLocationDb, STORE_KINDS } from '../helpers/stores.js';

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

// The service compacts the queue on the embedded store only (PostgreSQL has autovacuum), but the
// statements are plain SQL: they are checked on both.
describe.each(STORE_KINDS)('change queue compaction on %s', (kind) => {
  it('rewrites the queue once its file is large and mostly dead, keeping its live marks', async () => {
    const location = await createTestLocation(kind);
    const db = await openLocationDb(location);
    try {
      await migrate(db);
      const accountId = randomUUID();
      const dataSourceId = randomUUID();
      await db.query(`insert into accounts (account_id, name, base_currency) values ($1, 'Queue', 'usd')`, [
        accountId,
      ]);
      const mark = (from: number, to: number) =>
        db.query(
          `insert into dirty_customers (account_id, data_source_id, customer_id)
           select $1, $2, 'c' || lpad(n::text, 6, '0') from generate_series($3::int, $4::int) n`,
          [accountId, dataSourceId, from, to],
        );
      let now = 0;
      const compaction = changeQueueCompaction(db, () => now);

      // 30,000 marks fill more than 128 pages. All of them live: nothing to gain, left as is.
      await mark(1, 30_000);
      const full = await queuePages(db);
      expect(full).toBeGreaterThan(128);
      await compaction.afterWrite();
      expect(await queuePages(db)).toBe(full);

      // A refresh claimed all but two: the file keeps its size until it is rewritten.
      await db.query(`delete from dirty_customers where customer_id not in ('c000007', 'c029999')`);
      expect(await queuePages(db)).toBe(full);
      now += 1_000; // within 5 s of the last check: not looked at again
      await compaction.afterWrite();
      expect(await queuePages(db)).toBe(full);
      now += 5_000;
      await compaction.afterWrite();
      expect(await queuePages(db)).toBeLessThanOrEqual(1);
      expect(await liveMarks(db)).toEqual(['c000007', 'c029999']);

      // A small queue is not rewritten, however dead: its file is too small to matter.
      await mark(30_001, 31_000);
      await db.query(`delete from dirty_customers where customer_id > 'c030000'`);
      const small = await queuePages(db);
      expect(small).toBeGreaterThan(1);
      now += 5_000;
      await compaction.afterWrite();
      expect(await queuePages(db)).toBe(small);
    } finally {
      await db.close();
      await location.drop();
    }
  });
});
