import type { Queryable } from './db.js';

/**
 * Runs a select and returns its rows, on PGlite as one `json_agg` text parsed by `JSON.parse`.
 * PGlite decodes a result value by value in JavaScript, which for the wide reads of the metrics
 * refresh and the snapshot cost about three times what PostgreSQL spent computing them; one
 * JSON text is decoded natively. PostgreSQL's driver decodes rows natively, and there building
 * the JSON text cost the server two to three times the plain query (a page of 20,000 invoices:
 * 227 against 91 ms), so the rows come as they are. Values arrive alike either way: bigint and
 * integer as numbers, dates as `YYYY-MM-DD`, json and jsonb as values (the store's type
 * parsers, src/store/db.ts). Instants are not ISO 8601 UTC in JSON, so a query returning them
 * passes their columns in `instants` to be normalised. `orderBy` (columns of the select)
 * orders the rows; without it their order is unspecified.
 */
export async function jsonRows<T>(
  db: Queryable,
  sql: string,
  params: readonly unknown[],
  options: { orderBy?: string; instants?: readonly (keyof T & string)[] } = {},
): Promise<T[]> {
  const order = options.orderBy === undefined ? '' : ` order by ${options.orderBy}`;
  if (db.decodesRowsNatively) return db.query<T>(`select * from (${sql}) q${order}`, params);
  const [result] = await db.query<{ rows: string }>(
    `select coalesce(json_agg(q${order}), '[]')::text as rows from (${sql}) q`,
    params,
  );
  const rows = JSON.parse(result!.rows) as Record<string, unknown>[];
  for (const column of options.instants ?? []) {
    for (const row of rows) {
      const value = row[column];
      if (typeof value === 'string') row[column] = new Date(value).toISOString();
    }
  }
  return rows as T[];
}
