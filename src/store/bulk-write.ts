import { csvRows } from './csv-rows.js';
import type { Queryable, Row } from './db.js';

/** Rows per statement: big enough to be fast, small enough to keep one statement's JSON modest. */
const ROWS_PER_STATEMENT = 2_000;

export interface BulkWriteSpec {
  table: string;
  /** Column name to SQL type; the rows carry values under the same names. */
  columns: Record<string, string>;
  /** Key columns after account_id; given, an existing row with that key is replaced. */
  conflictKey?: readonly string[];
  /** A `returning` list; each written row answers with it. */
  returning?: string;
}

/**
 * Inserts many rows of one account with one statement per chunk: the rows travel as one JSON
 * parameter unpacked by `json_to_recordset`, so there is no round trip per row and no limit
 * on the number of bind parameters. Plain inserts go through COPY where the driver offers it.
 */
export async function bulkWrite<T = Row>(
  db: Queryable,
  accountId: string,
  spec: BulkWriteSpec,
  rows: Row[],
): Promise<T[]> {
  const names = Object.keys(spec.columns);
  if (db.copyCsv && !spec.conflictKey && !spec.returning) {
    if (rows.length > 0)
      await db.copyCsv(spec.table, ['account_id', ...names], csvRows(accountId, spec.columns, rows));
    return [];
  }
  const recordType = names.map((name) => `${name} ${spec.columns[name]}`).join(', ');
  const conflict = spec.conflictKey
    ? ` on conflict (account_id, ${spec.conflictKey.join(', ')}) do update set ${names
        .filter((name) => !spec.conflictKey!.includes(name))
        .map((name) => `${name} = excluded.${name}`)
        .join(', ')}`
    : '';
  const sql = `insert into ${spec.table} (account_id, ${names.join(', ')})
    select $1, ${names.map((name) => `x.${name}`).join(', ')} from json_to_recordset($2::json) as x(${recordType})${conflict}${spec.returning ? ` returning ${spec.returning}` : ''}`;
  const written: T[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    written.push(
      ...(await db.query<T>(sql, [accountId, JSON.stringify(rows.slice(start, start + ROWS_PER_STATEMENT))])),
    );
  }
  return written;
}
