import { awaitedLater } from './awaited-later.js';
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
  if (copies(db, spec)) return preparedWrite<T>(db, accountId, spec, rows)();
  const sql = insertSql(spec);
  const chunks: Promise<T[]>[] = [];
  // Each chunk is sent once its text is made: the store starts on it while this thread makes the
  // next. In a transaction they run in order; outside one, each is a statement of its own.
  for (const chunk of jsonChunks(rows)) chunks.push(awaitedLater(db.query<T>(sql, [accountId, chunk])));
  return (await Promise.all(chunks)).flat();
}

/**
 * `bulkWrite` in two steps: the statements' text is made now, and sent when the returned
 * function is called. In a transaction, text made while the store runs an earlier statement
 * follows it without the store waiting for this thread.
 */
export function preparedWrite<T = Row>(
  db: Queryable,
  accountId: string,
  spec: BulkWriteSpec,
  rows: Row[],
): () => Promise<T[]> {
  if (copies(db, spec)) {
    if (rows.length === 0) return async () => [];
    const csv = csvRows(accountId, spec.columns, rows);
    return async () => {
      await db.copyCsv(spec.table, ['account_id', ...Object.keys(spec.columns)], csv);
      return [];
    };
  }
  const sql = insertSql(spec);
  const chunks = [...jsonChunks(rows)];
  return async () => (await Promise.all(chunks.map((chunk) => db.query<T>(sql, [accountId, chunk])))).flat();
}

/** Whether the rows go by COPY: plain inserts, where the driver offers it. */
function copies(db: Queryable, spec: BulkWriteSpec): db is Queryable & Required<Pick<Queryable, 'copyCsv'>> {
  return db.copyCsv !== undefined && !spec.conflictKey && !spec.returning;
}

function insertSql(spec: BulkWriteSpec): string {
  const names = Object.keys(spec.columns);
  const recordType = names.map((name) => `${name} ${spec.columns[name]}`).join(', ');
  const conflict = spec.conflictKey
    ? ` on conflict (account_id, ${spec.conflictKey.join(', ')}) do update set ${names
        .filter((name) => !spec.conflictKey!.includes(name))
        .map((name) => `${name} = excluded.${name}`)
        .join(', ')}`
    : '';
  return `insert into ${spec.table} (account_id, ${names.join(', ')})
    select $1, ${names.map((name) => `x.${name}`).join(', ')} from json_to_recordset($2::json) as x(${recordType})${conflict}${spec.returning ? ` returning ${spec.returning}` : ''}`;
}

function* jsonChunks(rows: readonly Row[]): Generator<string> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    yield JSON.stringify(rows.slice(start, start + ROWS_PER_STATEMENT));
  }
}
