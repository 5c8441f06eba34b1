import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { jsonRows } from '../../src/store/json-rows.js';
import { type Columns, readRows } from '../../src/store/read-rows.js';
import { withLiterals } from '../../src/store/sql-literal.js';
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

interface CopiedRow {
  n: number;
  big: number | null;
  day: string;
  at: string | null;
  flag: boolean | null;
  text: string | null;
  id: string;
}

const COLUMNS: Columns<CopiedRow> = {
  n: 'integer',
  big: 'integer',
  day: 'text',
  at: 'instant',
  flag: 'boolean',
  text: 'text',
  id: 'text',
};

// Text that COPY escapes (tab, newline, backslash), quotes that a literal must double, and
// characters of several bytes; one value of each kind is null.
const AWKWARD = 'a\tb\nc\\d \'q\' "w" é€😀';
const COPIED_SQL = `select n, case when n = 2 then null else (n * -10000000000)::bigint end as big,
               ('2026-01-0' || n)::date as day,
               case when n = 2 then null else ('2026-01-0' || n || 'T10:20:30.456+02:00')::timestamptz end as at,
               case when n = 3 then null else n % 2 = 1 end as flag,
               case when n = 1 then null else $2 || n end as text,
               $1::uuid::text as id
             from generate_series(1, 3) as n where n <= $3`;
const ID = '0b5c0e4e-8a4e-4b7e-9a3c-5d2f1e0c9b7a';

describe.each(STORE_KINDS)('wide reads on %s', (kind) => {
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

  it('reads by COPY the values a plain query returns, instants as ISO 8601 UTC', async () => {
    const rows = await readRows<CopiedRow>(db, COPIED_SQL, [ID, AWKWARD, 3], {
      columns: COLUMNS,
      orderBy: 'q.n desc',
    });
    expect(rows).toEqual([
      {
        n: 3,
        big: -30_000_000_000,
        day: '2026-01-03',
        at: '2026-01-03T08:20:30.456Z',
        flag: null,
        text: `${AWKWARD}3`,
        id: ID,
      },
      { n: 2, big: null, day: '2026-01-02', at: null, flag: false, text: `${AWKWARD}2`, id: ID },
      {
        n: 1,
        big: -10_000_000_000,
        day: '2026-01-01',
        at: '2026-01-01T08:20:30.456Z',
        flag: true,
        text: null,
        id: ID,
      },
    ]);
    const plain = await db.query<CopiedRow>(`${COPIED_SQL} order by n desc`, [ID, AWKWARD, 3]);
    expect(rows).toEqual(plain);
  });

  it('reads by COPY inside a transaction what the transaction wrote', async () => {
    const rows = await db.transaction(async (tx) => {
      // The embedded store's handles, in a transaction or not, take the COPY path; PostgreSQL's none.
      expect([db.copyRows !== undefined, tx.copyRows !== undefined]).toEqual([
        kind === 'pglite',
        kind === 'pglite',
      ]);
      await tx.query('create temporary table written (n integer) on commit drop');
      await tx.query('insert into written values (7), (8)');
      return readRows<{ n: number }>(tx, 'select n from written where n > $1', [7], {
        columns: { n: 'integer' },
      });
    });
    expect(rows).toEqual([{ n: 8 }]);
  });

  it('reads no rows by COPY as an empty list', async () => {
    expect(await readRows<CopiedRow>(db, COPIED_SQL, [ID, AWKWARD, 0], { columns: COLUMNS })).toEqual([]);
  });
});

describe('withLiterals', () => {
  it('writes each parameter as a literal in its place, null as null', () => {
    expect(withLiterals('select $1, $2, $10, $3', ["it's", null, 5, 6, 7, 8, 9, 10, 11, 'ten\\'])).toBe(
      "select E'it''s', null, E'ten\\\\', E'5'",
    );
  });

  it('leaves a $n inside literals, quoted names, comments and dollar quotes as it is', () => {
    const sql = `select '$1', E'\\'$1', "$1", x$1, $f$ $1 $f$, $$ $1 $$ -- $1
      /* $1 */ from t where a = $1`;
    expect(withLiterals(sql, ["'"])).toBe(sql.replace(/\$1$/, "E''''"));
  });

  it('writes a date as its ISO 8601 text and a boolean as true or false', () => {
    expect(withLiterals('select $1, $2', [new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), false])).toBe(
      "select E'2026-01-02T03:04:05.000Z', E'false'",
    );
  });

  it('refuses a parameter it was not given, a value no driver sends as text, and a NUL', () => {
    expect(() => withLiterals('select $2', ['one'])).toThrow(RangeError);
    expect(() => withLiterals('select $0', ['one'])).toThrow(RangeError);
    expect(() => withLiterals('select $1', [{ a: 1 }])).toThrow(TypeError);
    expect(() => withLiterals('select $1', [Number.NaN])).toThrow(TypeError);
    expect(() => withLiterals('select $1', ['a\0b'])).toThrow(RangeError);
  });
});
