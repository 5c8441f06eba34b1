import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { acquireDataDirLock } from './data-dir-lock.js';
import type { Db, Queryable, Row } from './db.js';
import { typeParsers } from './db.js';

/**
 * PGlite runs each statement synchronously on this thread, and a chain of awaited statements
 * resolves through microtasks alone, so a refresh of many statements would hold the event loop
 * from its first to its last: no request, not even /health, was read meanwhile. Each statement
 * first lets the loop run what is waiting, which bounds a pause to one statement.
 */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The text of `COPY (sql)`, whole; the answer's blob is dropped once read, before the caller works on the text. */
async function copiedOut(target: PGlite | Transaction, sql: string): Promise<Buffer> {
  await yieldToLoop();
  const { blob } = await target.query(`copy (${sql}) to '/dev/blob'`);
  return blob ? Buffer.from(await blob.arrayBuffer()) : Buffer.alloc(0);
}

function wrap(target: PGlite | Transaction): Queryable {
  return {
    query: async <T = Row>(sql: string, params: readonly unknown[] = []) => {
      await yieldToLoop();
      const result = await target.query<T>(sql, params as unknown[]);
      return result.rows;
    },
    exec: async (sql: string) => {
      await yieldToLoop();
      await target.exec(sql);
    },
    async *copyText(sql) {
      yield await copiedOut(target, sql);
    },
    copyCsv: async (table, columns, csv) => {
      await yieldToLoop();
      await target.query(`copy ${table} (${columns.join(', ')}) from '/dev/blob' with (format csv)`, [], {
        blob: new Blob([csv]),
      });
    },
  };
}

/**
 * PostgreSQL's default of 128 MB of shared buffers is, in WASM, memory of this process that the
 * start already touches whole and never gives back. The operating system's file cache under the
 * data directory keeps what the buffers no longer hold: with an eighth of them the ingest and the
 * first reports took as long (docs/performance.md, "The embedded store's memory").
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * Opens the embedded store. With a directory the data persists there (one process at a
 * time, enforced by a lock file); without one it lives in memory, which tests use.
 */
export async function openPgliteDb(dataDir?: string): Promise<Db> {
  let release = () => {};
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    release = await acquireDataDirLock(dataDir);
  }
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(dataDir ? `${dataDir}/pgdata` : undefined, {
      parsers: typeParsers,
      startParams: START_PARAMS,
    });
  } catch (error) {
    release();
    throw error;
  }
  const root = wrap(pglite);
  return {
    kind: 'pglite',
    ...root,
    transaction: (fn) => pglite.transaction((tx) => fn(wrap(tx))),
    // Not a query: the embedded store has one connection, so a query would wait behind any
    // transaction under way and /health would report an import as an outage. The database
    // runs in this process: open is reachable.
    async ping() {
      if (pglite.closed || !pglite.ready) throw new Error('The embedded store is not open');
    },
    // One process, no connection to lose.
    listen: async (channel, onPayload) => {
      const unlisten = await pglite.listen(channel, onPayload);
      return () => unlisten();
    },
    jobQueueDb: {
      async executeSql(text, values) {
        await yieldToLoop();
        // Scripts (pg-boss's migrations and maintenance) come without values; the last
        // statement's rows answer them, as the only statement's rows answer a plain one.
        if (values === undefined) return { rows: (await pglite.exec(text)).at(-1)?.rows ?? [] };
        return { rows: (await pglite.query<Row>(text, values)).rows };
      },
      // Only this process opens the store.
      exclusively: (fn) => fn(),
    },
    async close() {
      await pglite.close();
      release();
    },
  };
}
