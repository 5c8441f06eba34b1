import { eachCopyRow } from './copy-text.js';
import type { Queryable } from './db.js';
import { jsonRows } from './json-rows.js';
import { withLiterals } from './sql-literal.js';

/**
 * How a column's text becomes its value, as the drivers decode it (src/store/db.ts): `integer`
 * (integer or bigint) as a number, `boolean` as true or false, `instant` (timestamptz only) as
 * ISO 8601 UTC, `text` (text, dates, uuids) as it is. Null is null whatever the kind.
 */
export type ColumnKind = 'text' | 'integer' | 'boolean' | 'instant';

/** The columns of the rows, each with its kind; on PGlite the rows hold these columns only. */
export type Columns<T> = { [K in keyof T]-?: ColumnKind };

/**
 * The rows of a select whose columns are all of the kinds above, ordered by `orderBy`. On
 * PGlite they come as COPY text, decoded here: building the same rows as one `json_agg` text
 * cost the store's thread about twice what running the select did (100 customers' invoice
 * lines: 20 ms as JSON, 13 by COPY, 7 for the select alone), and that thread is what a large
 * import waits for (docs/performance.md, "Ingest"). Elsewhere as `jsonRows`, with every column
 * the select names.
 */
export async function readRows<T>(
  db: Queryable,
  sql: string,
  params: readonly unknown[],
  options: { columns: Columns<T>; orderBy?: string },
): Promise<T[]> {
  const columns = Object.entries(options.columns) as [keyof T & string, ColumnKind][];
  if (!db.copyRows) {
    const instants = columns.filter(([, kind]) => kind === 'instant').map(([name]) => name);
    return jsonRows<T>(db, sql, params, { orderBy: options.orderBy, instants });
  }
  const order = options.orderBy === undefined ? '' : ` order by ${options.orderBy}`;
  const select = `select ${columns.map(([name]) => `q.${name}`).join(', ')} from (${sql}) q${order}`;
  const rows: T[] = [];
  await eachCopyRow([await db.copyRows(withLiterals(select, params))], (row) => {
    const value: Record<string, unknown> = {};
    columns.forEach(([name, kind], field) => {
      if (row.isNull(field)) value[name] = null;
      else if (kind === 'integer') value[name] = row.integer(field);
      else if (kind === 'boolean') value[name] = row.is(field, 't');
      else if (kind === 'instant') value[name] = new Date(row.string(field)).toISOString();
      else value[name] = row.string(field);
    });
    rows.push(value as T);
  });
  return rows;
}
