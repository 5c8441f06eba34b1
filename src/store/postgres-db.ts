import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { StoreTimeoutError } from '../services/errors.js';
import type { Db, Queryable, Row } from './db.js';
import { typeParsers } from './db.js';
import { listenOn } from './postgres-listener.js';
import { oneAtATime } from './one-at-a-time.js';

// pg's own parsers for every type we do not decode ourselves (typed `any` upstream).
const builtInParser = pg.types.getTypeParser as (oid: number, format: 'text') => (value: string) => unknown;

// Only the text format is used: pg never asks for binary unless a query requests it.
const types: pg.CustomTypesConfig = {
  getTypeParser: (oid: number) => typeParsers[oid] ?? builtInParser(oid, 'text'),
};

/** SQLSTATE of a statement cancelled by `statement_timeout`. */
const QUERY_CANCELED = '57014';

export interface PostgresOptions {
  /** Longest a statement may run before the server cancels it; 0 for no limit. */
  statementTimeoutMs?: number;
}

// Any fixed number, held while a process sets up its job queue (JobQueueDb.exclusively).
const JOB_QUEUE_SETUP_LOCK = 727_004;

/** 30 s: far beyond any healthy statement, short enough that none can hold a request for minutes. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;

/** A statement the server cancelled at its time limit as the store's timeout; others as they are. */
function storeError(error: unknown): unknown {
  if ((error as { code?: string }).code === QUERY_CANCELED)
    return new StoreTimeoutError('The store took too long to answer; try again, or ask for less', {
      cause: error,
    });
  return error;
}

async function run(client: pg.Pool | pg.PoolClient, sql: string, params?: unknown[]) {
  try {
    return await client.query(sql, params);
  } catch (error) {
    throw storeError(error);
  }
}

/** How long one COPY read may last: it goes at its reader's pace, over a whole table. */
const COPY_TIMEOUT = '10min';

/**
 * COPY text from a client of its own, in a transaction with a time limit of its own: the read
 * goes at its reader's pace (a cashflow table built from a million invoices), where the pool's
 * limit is meant for statements that answer at once.
 */
async function* copyText(
  pool: pg.Pool,
  sql: string,
  settings: Readonly<Record<string, string>> = {},
): AsyncGenerator<Buffer> {
  const client = await pool.connect();
  const ignore = () => {};
  client.on('error', ignore);
  let completed = false;
  try {
    await client.query('begin');
    await client.query(`set local statement_timeout = '${COPY_TIMEOUT}'`);
    for (const [name, value] of Object.entries(settings)) await client.query(`set local ${name} = ${value}`);
    yield* client.query(copyTo(`copy (${sql}) to stdout`)) as AsyncIterable<Buffer>;
    await client.query('commit');
    completed = true;
  } catch (error) {
    throw storeError(error);
  } finally {
    client.off('error', ignore);
    // A read that failed, or that its reader stopped, leaves the connection mid-COPY: it is closed.
    client.release(completed ? undefined : true);
  }
}

function wrap(client: pg.Pool): Queryable {
  return {
    query: async <T = Row>(sql: string, params: readonly unknown[] = []) => {
      const result = await run(client, sql, params as unknown[]);
      return result.rows as T[];
    },
    exec: async (sql: string) => {
      await run(client, sql);
    },
    decodesRowsNatively: true,
  };
}

/**
 * A transaction's client. Statements sent without awaiting the ones before go to the server one
 * at a time, in the order sent: node-postgres would queue them too, but deprecates queuing on a
 * busy client (docs/decisions.md, "A transaction's statements sent together"). The commit or
 * rollback takes its place behind them, and a statement sent after it is refused: the client
 * goes back to the pool, where it would run inside another caller's transaction.
 */
function inSequence(client: pg.PoolClient): Queryable & { end(sql: 'commit' | 'rollback'): Promise<void> } {
  const queue = oneAtATime();
  let ended = false;
  function next(sql: string, params?: unknown[]): Promise<pg.QueryResult> {
    if (ended) return Promise.reject(new Error(`The transaction has ended; not run: ${sql.slice(0, 80)}`));
    return queue(() => run(client, sql, params));
  }
  return {
    query: async <T = Row>(sql: string, params: readonly unknown[] = []) =>
      (await next(sql, params as unknown[])).rows as T[],
    exec: async (sql: string) => {
      await next(sql);
    },
    decodesRowsNatively: true,
    async end(sql) {
      const done = next(sql);
      ended = true;
      await done;
    },
  };
}

/** Opens a pool on a real PostgreSQL server. Several processes may share one database. */
export async function openPostgresDb(connectionString: string, options: PostgresOptions = {}): Promise<Db> {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    types,
    statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    // Queries the planner cannot estimate (keys from a JSON parameter, say) look like scans of
    // the whole table, and their compilation then cost up to 100 ms a statement for work of 10:
    // the service's statements are many and short, which is not what JIT is for. Added to
    // PGOPTIONS, which this setting would otherwise replace.
    options: [process.env.PGOPTIONS, '-c jit=off'].filter(Boolean).join(' '),
  });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const root: Queryable = {
    ...wrap(pool),
    copyText: (sql, settings) => copyText(pool, sql, settings),
    streamsCopy: true,
  };
  await root.query('select 1');
  return {
    kind: 'postgres',
    ...root,
    async transaction(fn) {
      const client = await pool.connect();
      // A checked-out client whose connection the server ends (an administrator, a restart) emits
      // `error` besides failing its statement; unheard, that event would end the process.
      const ignore = () => {};
      client.on('error', ignore);
      const tx = inSequence(client);
      try {
        await tx.query('begin');
        const result = await fn(tx);
        await tx.end('commit');
        return result;
      } catch (error) {
        await tx.end('rollback').catch(() => {});
        throw error;
      } finally {
        client.off('error', ignore);
        client.release();
      }
    },
    async ping() {
      await root.query('select 1');
    },
    listen: (channel, onPayload, onLost) => listenOn(connectionString, channel, onPayload, onLost),
    // The same pool: pg-boss's statements are short, and its scripts run as one simple query.
    jobQueueDb: {
      executeSql: (text, values) => pool.query(text, values),
      async exclusively(fn) {
        const client = await pool.connect();
        const ignore = () => {};
        client.on('error', ignore);
        try {
          // A session's lock, held while `fn` runs its statements on the pool's other connections.
          await client.query('select pg_advisory_lock($1)', [JOB_QUEUE_SETUP_LOCK]);
          return await fn();
        } finally {
          client.off('error', ignore);
          // Closed rather than returned to the pool: the session, and its lock, end whatever happened.
          client.release(true);
        }
      },
    },
    close: () => pool.end(),
  };
}
