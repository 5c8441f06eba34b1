import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { jsonRows } from '../../src/store/json-rows.js';
import { createTestLocation, openLocationDb, STORE_KINDS, type TestLocation } from '../helpers/stores.js';

interface Row {
  n: number;
  big: number;
  day: string;
  at: string | null;
  flag: boolean;
  doc: { a: number[] };
  text: string;
}

describe.each(STORE_KINDS)('jsonRows on %s', (kind) => {
  let db: Db;
  let location: TestLocation;
  beforeAll(async () => {
    location = await createTestLocation(kind);
    db = await openLocationDb(location);
  });
  afterAll(async () => {
    await db.close();
    await location.drop();
  });

  // Rows read through json_agg must look as the drivers' own decoding makes them (db.ts).
  const SQL = `select n, (n * 10000000000)::bigint as big, ('2026-01-0' || n)::date as day,
                 case when n = 2 then null else ('2026-01-0' || n || 'T10:20:30.456+02:00')::timestamptz end as at,
                 n % 2 = 1 as flag, jsonb_build_object('a', jsonb_build_array(n, n + 1)) as doc,
                 'x' || n as text
               from generate_series(1, 3) as n`;

  it('returns the same values as a plain query, instants as ISO 8601 UTC', async () => {
    const rows = await jsonRows<Row>(db, SQL, [], { orderBy: 'q.n desc', instants: ['at'] });
    expect(rows).toEqual([
      {
        n: 3,
        big: 30_000_000_000,
        day: '2026-01-03',
        at: '2026-01-03T08:20:30.456Z',
        flag: true,
        doc: { a: [3, 4] },
        text: 'x3',
      },
      { n: 2, big: 20_000_000_000, day: '2026-01-02', at: null, flag: false, doc: { a: [2, 3] }, text: 'x2' },
      {
        n: 1,
        big: 10_000_000_000,
        day: '2026-01-01',
        at: '2026-01-01T08:20:30.456Z',
        flag: true,
        doc: { a: [1, 2] },
        text: 'x1',
      },
    ]);
    const plain = await db.query<Row>(`${SQL} order by n desc`);
    expect(rows).toEqual(plain);
  });

  it('returns no rows as an empty list', async () => {
    expect(await jsonRows(db, `${SQL} where n > 5`, [])).toEqual([]);
  });
});
