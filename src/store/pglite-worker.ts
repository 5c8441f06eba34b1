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

const transactions = new Map<number, OpenTransaction>();
const listeners = new Map<number, () => Promise<void>>();
let nextId = 1;

function target(tx: number | undefined): PGlite | Transaction {
  if (tx === undefined) return pglite;
  const open = transactions.get(tx);
  if (!open) throw new Error(`Transaction ${tx} is not open`);
  return open.tx;
}

/** Opens a transaction that stays open until `end` names it. */
async function begin(): Promise<number> {
  let finish = (_commit: boolean) => {};
  const ended = new Promise<boolean>((resolve) => {
    finish = resolve;
  });
  let opened = (_tx: Transaction) => {};
  const open = new Promise<Transaction>((resolve) => {
    opened = resolve;
  });
  const done = pglite.transaction(async (tx) => {
    opened(tx);
    if (!(await ended)) await tx.rollback();
  });
  // `done` settles first only when BEGIN fails, and then it rejects.
  const tx = (await Promise.race([open, done])) as Transaction;
  const id = nextId++;
  transactions.set(id, { tx, finish, done });
  return id;
}

async function end(id: number, commit: boolean): Promise<void> {
  const open = transactions.get(id);
  if (!open) throw new Error(`Transaction ${id} is not open`);
  open.finish(commit);
  try {
    await open.done;
  } finally {
    transactions.delete(id);
  }
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
      return [(await target(call.tx).query(call.sql, [...call.params])).rows, []];
    case 'exec':
      // Scripts answer with their last statement's rows (pg-boss's maintenance reads them).
      return [(await target(call.tx).exec(call.sql)).at(-1)?.rows ?? [], []];
    case 'copyOut': {
      const bytes = await copyOut(call.sql, call.settings);
      return [bytes, [bytes]];
    }
    case 'copyIn':
      await target(call.tx).query(
        `copy ${call.table} (${call.columns.join(', ')}) from '/dev/blob' with (format csv)`,
        [],
        { blob: new Blob([call.csv]) },
      );
      return [null, []];
    case 'begin':
      return [await begin(), []];
    case 'end':
      await end(call.tx, call.commit);
      return [null, []];
    case 'listen': {
      const listener = nextId++;
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
