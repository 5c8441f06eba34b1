import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { openPostgresDb } from '../../src/store/postgres-db.js';
import { tableStatistics } from '../../src/store/table-statistics.js';
import { StoreTimeoutError } from '../../src/services/errors.js';
import { createTestLocation, openLocationDb, STORE_KINDS } from '../helpers/stores.js';

async function withBareDb(kind: (typeof STORE_KINDS)[number], fn: (db: Db) => Promise<void>) {
  const location = await createTestLocation(kind);
  const db = await openLocationDb(location);
  try {
    await fn(db);
  } finally {
    await db.close();
    await location.drop();
  }
}

/** The row count the table's last analysis recorded; -1 for a table never analyzed. */
async function analyzedRows(db: Db, table: string): Promise<number> {
  const [row] = await db.query<{ rows: number }>(
    'select reltuples::integer as rows from pg_class where relname = $1',
    [table],
  );
  return row?.rows ?? Number.NaN;
}

describe.each(STORE_KINDS)('table statistics on %s', (kind) => {
  it('analyzes a table once enough of it changed, and not again until the next check is due', async () => {
    await withBareDb(kind, async (db) => {
      let now = 0;
      const statistics = tableStatistics(db, () => now);
      await db.exec('create table big (n integer primary key); create table small (n integer primary key)');
      // 3,000 integers fill 14 pages of 8 KiB (226 rows a page), past the threshold of 10; 10 fill one.
      await db.exec(
        'insert into big select generate_series(1, 3000); insert into small select generate_series(1, 10)',
      );
      await statistics.afterWrite();
      expect(await analyzedRows(db, 'big')).toBe(3000);
      expect(await analyzedRows(db, 'small')).toBe(-1);

      await db.exec('insert into small select generate_series(11, 3000)');
      now += 1_000; // within the 5 s between checks: nothing runs
      await statistics.afterWrite();
      expect(await analyzedRows(db, 'small')).toBe(-1);
      now += 5_000;
      await statistics.afterWrite();
      expect(await analyzedRows(db, 'small')).toBe(3000);

      // Rows deleted leave the pages: a table that did not grow is not analyzed again, however
      // large it is (it was, at every check, before growth was measured from the last analysis).
      await db.exec('delete from big where n > 1500');
      now += 5_000;
      await statistics.afterWrite();
      expect(await analyzedRows(db, 'big')).toBe(3000);
      // Grown by 14 pages, not by 10 more than its 14: not yet.
      await db.exec('insert into big select generate_series(3001, 6000)');
      now += 5_000;
      await statistics.afterWrite();
      expect(await analyzedRows(db, 'big')).toBe(3000);
      // Grown by 28 pages, past the 24: analyzed again.
      await db.exec('insert into big select generate_series(6001, 9000)');
      now += 5_000;
      await statistics.afterWrite();
      expect(await analyzedRows(db, 'big')).toBe(7500);
    });
  });
});

describe.runIf(STORE_KINDS.includes('postgres'))('statement time limit on postgres', () => {
  it('cancels a statement past the limit with a StoreTimeoutError and keeps the pool usable', async () => {
    const location = await createTestLocation('postgres');
    const url = (location.location as { databaseUrl: string }).databaseUrl;
    const db = await openPostgresDb(url, { statementTimeoutMs: 100 });
    try {
      await expect(db.query('select pg_sleep(2)')).rejects.toThrow(StoreTimeoutError);
      await expect(db.query<{ one: number }>('select 1 as one')).resolves.toEqual([{ one: 1 }]);
    } finally {
      await db.close();
      await location.drop();
    }
  });
});
