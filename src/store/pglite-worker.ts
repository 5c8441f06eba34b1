/**
 * The embedded database's own thread. PGlite runs each statement synchronously on the thread
 * that calls it; here that is not the thread that parses requests and computes reports, so the
 * two use both cores and a long statement no longer holds every request (docs/decisions.md,
 * "The embedded store runs on its own thread"). Started by src/store/pglite-db.ts, which holds
 * the data directory's lock.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { typeParsers } from './db.js';
import { oneAtATime, type TaskQueue } from './one-at-a-time.js';
import type {
  CrossedError,
  PgliteCall,
  PgliteReply,
  PgliteRequest,
  PgliteWorkerData,
} from './pglite-protocol.js';

const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs as a worker thread');

function crossed(error: unknown): CrossedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

const post = (reply: PgliteReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);

interface OpenTransaction {
  tx: Transaction;
  finish: (commit: boolean) => void;
  /** Settles once COMMIT or ROLLBACK has run, with what the transaction threw if it failed. */
  done: Promise<void>;
}

/** A transaction by the number its caller gave it, and where its calls queue. */
interface NamedTransaction {
  /** Resolves once BEGIN has run, which may wait for the transaction before it. */
  opened: Promise<OpenTransaction>;
  /** The transaction's calls, run in the order they arrived. */
  queue: TaskQueue;
}

/**
 * PostgreSQL's default of 128 MB of shared buffers is, in WASM, memory of this process that the
 * start already touches whole and never gives back. The operating system's file cache under the
 * data directory keeps what the buffers no longer hold: with an eighth of them the ingest and the
 * first reports took as long (docs/performance.md, "The embedded store's memory").
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

const { pgdata, pgliteWasmModule, initdbWasmModule } = workerData as PgliteWorkerData;
let pglite: PGlite;
try {
  pglite = await PGlite.create(pgdata, {
    parsers: typeParsers,
    startParams: START_PARAMS,
    pgliteWasmModule,
    initdbWasmModule,
  });
} catch (error) {
  post({ kind: 'failed', error: crossed(error) });
  throw error;
}

const transactions = new Map<number, NamedTransaction>();
const listeners = new Map<number, () => Promise<void>>();
let nextListener = 1;

/** Opens a transaction that stays open until `end` names it. */
async function open(): Promise<OpenTransaction> {
  let finish = (_commit: boolean) => {};
  const ended = new Promise<boolean>((resolve) => {
    finish = resolve;
  });
  let opened = (_tx: Transaction) => {};
  const started = new Promise<Transaction>((resolve) => {
    opened = resolve;
  });
  const done = pglite.transaction(async (tx) => {
    opened(tx);
    if (!(await ended)) await tx.rollback();
  });
  // `done` settles first only when BEGIN fails, and then it rejects.
  const tx = (await Promise.race([started, done])) as Transaction;
  return { tx, finish, done };
}

async function begin(id: number): Promise<void> {
  if (transactions.has(id)) throw new Error(`Transaction ${id} is already open`);
  const opened = open();
  transactions.set(id, { opened, queue: oneAtATime(opened) });
  await opened;
}

/**
 * Runs `work` in transaction `id` once the calls queued before it have settled, whatever they
 * answered: a statement that failed leaves the transaction aborted, and PostgreSQL itself then
 * refuses what follows, as it would on one connection.
 */
function inOrder<T>(id: number, work: (open: OpenTransaction) => Promise<T>): Promise<T> {
  const named = transactions.get(id);
  if (!named) return Promise.reject(new Error(`Transaction ${id} is not open`));
  return named.queue(async () => work(await named.opened));
}

async function end(id: number, commit: boolean): Promise<void> {
  const named = transactions.get(id);
  if (!named) throw new Error(`Transaction ${id} is not open`);
  try {
    await inOrder(id, async (open) => {
      open.finish(commit);
      await open.done;
    });
  } catch (error) {
    // Rolling back a transaction that never opened has nothing to undo.
    const neverOpened = await named.opened.then(
      () => false,
      () => true,
    );
    if (commit || !neverOpened) throw error;
  } finally {
    transactions.delete(id);
  }
}

/** Runs `run` on transaction `tx` in its turn, or on the database when there is none. */
function on<T>(tx: number | undefined, run: (target: PGlite | Transaction) => Promise<T>): Promise<T> {
  return tx === undefined ? run(pglite) : inOrder(tx, (open) => run(open.tx));
}

/**
 * The rows of `select` as COPY text, read under `settings`. The read runs in a transaction of its
 * own, as PostgreSQL's does: the settings are local to it, and PGlite runs nothing else until it
 * ends, so no other statement is planned under them.
 */
function copyOut(select: string, settings: Readonly<Record<string, string>>): Promise<ArrayBuffer> {
  return pglite.transaction(async (tx) => {
    for (const [name, value] of Object.entries(settings))
      await tx.query('select set_config($1, $2, true)', [name, value]);
    const { blob } = await tx.query(`copy (${select}) to '/dev/blob'`);
    return blob ? await blob.arrayBuffer() : new ArrayBuffer(0);
  });
}

/** The answer to one call, and the buffers it hands over rather than copies. */
async function answer(call: PgliteCall): Promise<[unknown, ArrayBuffer[]]> {
  switch (call.op) {
    case 'query':
      return [(await on(call.tx, (target) => target.query(call.sql, [...call.params]))).rows, []];
    case 'exec':
      // Scripts answer with their last statement's rows (pg-boss's maintenance reads them).
      return [(await on(call.tx, (target) => target.exec(call.sql))).at(-1)?.rows ?? [], []];
    case 'copyOut': {
      const bytes = await copyOut(call.sql, call.settings);
      return [bytes, [bytes]];
    }
    case 'copyRows': {
      const { blob } = await on(call.tx, (target) => target.query(`copy (${call.sql}) to '/dev/blob'`));
      const bytes = blob ? await blob.arrayBuffer() : new ArrayBuffer(0);
      return [bytes, [bytes]];
    }
    case 'copyIn':
      await on(call.tx, (target) =>
        target.query(
          `copy ${call.table} (${call.columns.join(', ')}) from '/dev/blob' with (format csv)`,
          [],
          {
            blob: new Blob([call.csv]),
          },
        ),
      );
      return [null, []];
    case 'begin':
      await begin(call.tx);
      return [null, []];
    case 'end':
      await end(call.tx, call.commit);
      return [null, []];
    case 'listen': {
      const listener = nextListener++;
      const unlisten = await pglite.listen(call.channel, (payload) =>
        post({ kind: 'notify', listener, payload }),
      );
      listeners.set(listener, unlisten);
      return [listener, []];
    }
    case 'unlisten':
      await listeners.get(call.listener)?.();
      listeners.delete(call.listener);
      return [null, []];
    case 'close':
      await pglite.close();
      return [null, []];
  }
}

async function reply({ id, call }: PgliteRequest): Promise<void> {
  try {
    const [value, transfer] = await answer(call);
    post({ kind: 'answer', id, value }, transfer);
  } catch (error) {
    // The call's own failure, or an answer structured clone refuses: either fails this call alone.
    post({ kind: 'error', id, error: crossed(error) });
  }
}

port.on('message', (request: PgliteRequest) => void reply(request));
post({ kind: 'ready' });
