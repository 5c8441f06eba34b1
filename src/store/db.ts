/**
 * The one database interface the rest of the store is written against. PGlite and a real
 * PostgreSQL server both implement it, so every query and migration runs unchanged on both.
 */
export type Row = Record<string, unknown>;

export interface Queryable {
  query: <T = Row>(sql: string, params?: readonly unknown[]) => Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec: (sql: string) => Promise<void>;
  /**
   * Appends rows given as CSV (`csvRows`) to a table with COPY, where the driver can: about a
   * third cheaper than an insert from JSON for PGlite. Absent, callers insert instead.
   */
  copyCsv?: (table: string, columns: readonly string[], csv: string) => Promise<void>;
  /**
   * The rows of `COPY (select ...) TO STDOUT` in COPY's text format, as bytes in chunks split
   * anywhere. COPY takes no parameters: the caller writes values into `sql` as literals it has
   * checked. It runs in a transaction of its own with `settings` (`set local`); outside any
   * transaction only. PostgreSQL's streams the rows as the caller consumes them, with a time
   * limit of minutes rather than seconds (a whole table read at the caller's pace); PGlite's
   * gives the whole answer at once, so large reads there go by pages (`streamsCopy`).
   */
  copyText?: (sql: string, settings?: Readonly<Record<string, string>>) => AsyncIterable<Buffer>;
  /**
   * The rows of `COPY (select ...) TO STDOUT` in COPY's text format, whole, run where this
   * handle runs (in its transaction, if any). PGlite's only, where COPY's text costs the store
   * about a third less than one `json_agg` text of the same rows (`readRows`). Values go into
   * `sql` as literals, as for `copyText`.
   */
  copyRows?: (sql: string) => Promise<Buffer>;
  /** Whether `copyText` streams its rows (PostgreSQL) rather than answering whole (PGlite). */
  readonly streamsCopy?: boolean;
  /**
   * Whether the driver decodes result rows natively, so wide reads need not come as one JSON
   * text (`jsonRows`): true for PostgreSQL's, absent for PGlite's.
   */
  readonly decodesRowsNatively?: boolean;
}

export type StoreKind = 'pglite' | 'postgres';

/**
 * What the job runner's queue (pg-boss, its `db` option) sends its statements through: scripts of
 * several statements without parameters as well as single ones, answered as the driver answers.
 */
export interface JobQueueDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
  /**
   * Runs `fn` while no other process runs its own. pg-boss creates its schema and its queues
   * unguarded against a second process doing the same on a new database, which fails or
   * deadlocks; processes starting together set their queues up one after the other through this.
   */
  exclusively<T>(fn: () => Promise<T>): Promise<T>;
}

export interface Db extends Queryable {
  readonly kind: StoreKind;
  /**
   * Runs `fn` in one transaction. Statements `fn` sends without awaiting the ones before run in
   * the order sent, and the first to fail fails those after it (docs/decisions.md, "A
   * transaction's statements sent together").
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Resolves when the database can take statements; rejects when it cannot. */
  ping(): Promise<void>;
  /**
   * Calls `onPayload` with each notification on `channel` that any process commits, until the
   * returned function is called. A lost connection is reported to `onLost` and made again;
   * what was notified meanwhile is not delivered.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onLost: (error: unknown) => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
  readonly jobQueueDb: JobQueueDb;
}

const INT8 = 20;
const DATE = 1082;
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;

/**
 * Both drivers decode values through these, so rows look the same whichever store runs:
 * money columns (bigint cents) become numbers (exact up to 2^53 cents), calendar days stay
 * `YYYY-MM-DD` strings instead of local-midnight Dates, and instants become ISO 8601 strings.
 */
export const typeParsers: Record<number, (value: string) => unknown> = {
  [INT8]: (value) => Number(value),
  [DATE]: (value) => value,
  [TIMESTAMP]: (value) => new Date(`${value}Z`).toISOString(),
  [TIMESTAMPTZ]: (value) => new Date(value).toISOString(),
};
