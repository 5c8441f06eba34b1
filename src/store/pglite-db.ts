import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { acquireDataDirLock } from './data-dir-lock.js';
import type { Db, Queryable, Row } from './db.js';
import type { CrossedError, PgliteCall, PgliteReply, PgliteWorkerData } from './pglite-protocol.js';

/**
 * An error thrown in the store's thread, with the database's fields (`code`, `detail`, ...) it
 * carried and, given the call's `trace`, the stack of the code that made the call: the thread's
 * own stack ends in PGlite's WebAssembly and names none of the service's code.
 */
function uncrossed({ name, message, fields }: CrossedError, trace?: Error): Error {
  const error = Object.assign(new Error(message), fields, { name });
  const callers = trace?.stack?.split('\n').slice(1).join('\n');
  if (callers) error.stack = `${name}: ${message}\n${callers}`;
  return error;
}

const pgliteFile = (name: string) =>
  readFile(createRequire(import.meta.url).resolve(`@electric-sql/pglite/${name}`));
let compiled: Promise<Pick<PgliteWorkerData, 'pgliteWasmModule' | 'initdbWasmModule'>> | undefined;

/**
 * PGlite's two WebAssembly modules, compiled once per process and handed to every store thread,
 * which shares their code: a thread that compiled its own took twice as long to open a store
 * (about 4 s against 2), every time, which the tests, opening hundreds, would pay.
 */
function compiledModules() {
  if (!compiled) {
    compiled = Promise.all([pgliteFile('pglite.wasm'), pgliteFile('initdb.wasm')]).then(
      async ([pglite, initdb]) => ({
        pgliteWasmModule: await WebAssembly.compile(pglite),
        initdbWasmModule: await WebAssembly.compile(initdb),
      }),
    );
    // A failed read or compile is tried again at the next open.
    compiled.catch(() => (compiled = undefined));
  }
  return compiled;
}

/**
 * The store thread's young generation, in MiB. Its objects are rows on their way to this thread,
 * garbage at once; with V8's default (16 MiB semi-spaces) the process held 30 to 80 MiB more
 * through one run of the benchmark at 100,000 customers (docs/performance.md, "The embedded
 * store on its own thread").
 */
const STORE_THREAD_YOUNG_MB = 4;

/**
 * The store's thread runs the same module kind as this one: compiled JavaScript once built, and
 * TypeScript through tsx when run from the sources (development, tests).
 */
async function startWorker(pgdata: string | undefined): Promise<Worker> {
  const fromSources = import.meta.url.endsWith('.ts');
  const entry = fromSources ? './pglite-worker-from-sources.mjs' : './pglite-worker.js';
  const workerData: PgliteWorkerData = { pgdata, ...(await compiledModules()) };
  return new Worker(new URL(entry, import.meta.url), {
    workerData,
    resourceLimits: { maxYoungGenerationSizeMb: STORE_THREAD_YOUNG_MB },
  });
}

/** Sends calls to the store's thread and matches its answers to them. */
class StoreThread {
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; trace: Error }
  >();
  private readonly listeners = new Map<number, (payload: string) => void>();
  private nextId = 1;
  private state: 'opening' | 'open' | 'closing' = 'opening';
  private opening: { resolve: () => void; reject: (error: Error) => void } | undefined;
  /** Why the thread can take no more calls, once it cannot. */
  private gone: Error | undefined;

  constructor(private readonly worker: Worker) {
    worker.on('message', (reply: PgliteReply) => this.received(reply));
    worker.on('error', (error) => this.ended(error));
    worker.on('exit', (code) => this.ended(new Error(`The embedded store's thread exited with ${code}`)));
    // Idle, the thread keeps the process alive no more than an idle socket would.
    worker.unref();
  }

  /** Resolves once the database is open, rejects with why it could not open. */
  async ready(): Promise<void> {
    this.worker.ref();
    try {
      await new Promise<void>((resolve, reject) => {
        this.opening = { resolve, reject };
      });
      this.state = 'open';
    } finally {
      this.opening = undefined;
      this.worker.unref();
    }
  }

  get open(): boolean {
    return this.gone === undefined;
  }

  call<T>(call: PgliteCall): Promise<T> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    // Taken at every call (a few microseconds), formatted only when the call fails.
    const trace = new Error();
    return new Promise<T>((resolve, reject) => {
      // A parameter structured clone refuses (a function, say) fails this call alone.
      this.worker.postMessage({ id, call });
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, trace });
    });
  }

  listen(listener: number, onPayload: (payload: string) => void): void {
    this.listeners.set(listener, onPayload);
  }

  unlisten(listener: number): void {
    this.listeners.delete(listener);
  }

  async terminate(): Promise<void> {
    this.state = 'closing';
    this.stop(new Error('The embedded store is closed'));
    await this.worker.terminate();
  }

  private received(reply: PgliteReply): void {
    switch (reply.kind) {
      case 'ready':
        this.opening?.resolve();
        return;
      case 'failed':
        this.opening?.reject(uncrossed(reply.error));
        return;
      case 'notify':
        this.listeners.get(reply.listener)?.(reply.payload);
        return;
    }
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.kind === 'answer') waiting.resolve(reply.value);
    else waiting.reject(uncrossed(reply.error, waiting.trace));
  }

  /**
   * The thread ended. Opening, that is why it could not open; open, it is a fault (the database
   * gone with it), which ends the process as an uncaught error does, to be started again rather
   * than serve errors without a store.
   */
  private ended(error: Error): void {
    this.stop(error);
    this.opening?.reject(error);
    if (this.state !== 'open') return;
    process.nextTick(() => {
      throw new Error(`The embedded store's thread ended: ${error.message}`, { cause: error });
    });
  }

  private stop(error: Error): void {
    if (this.gone) return;
    this.gone = error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
    this.worker.unref();
  }
}

/** The store's thread with its database open; a thread that could not open it is ended. */
async function openThread(pgdata: string | undefined): Promise<StoreThread> {
  const thread = new StoreThread(await startWorker(pgdata));
  try {
    await thread.ready();
  } catch (error) {
    await thread.terminate();
    throw error;
  }
  return thread;
}

function over(thread: StoreThread, tx?: number): Queryable {
  return {
    query: <T = Row>(sql: string, params: readonly unknown[] = []) =>
      thread.call<T[]>({ op: 'query', tx, sql, params }),
    exec: async (sql: string) => {
      await thread.call({ op: 'exec', tx, sql });
    },
    copyCsv: async (table, columns, csv) => {
      await thread.call({ op: 'copyIn', tx, table, columns, csv });
    },
    copyRows: async (sql) => Buffer.from(await thread.call<ArrayBuffer>({ op: 'copyRows', tx, sql })),
  };
}

/**
 * Opens the embedded store on its own thread. With a directory the data persists there (one
 * process at a time, enforced by a lock file); without one it lives in memory, which tests use.
 */
export async function openPgliteDb(dataDir?: string): Promise<Db> {
  let release = () => {};
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    release = await acquireDataDirLock(dataDir);
  }
  let thread: StoreThread;
  try {
    thread = await openThread(dataDir ? `${dataDir}/pgdata` : undefined);
  } catch (error) {
    release();
    throw error;
  }
  let nextTransaction = 1;
  return {
    kind: 'pglite',
    ...over(thread),
    // Outside any transaction, as PostgreSQL's: a read that sets its own settings needs its own.
    async *copyText(sql, settings = {}) {
      yield Buffer.from(await thread.call<ArrayBuffer>({ op: 'copyOut', sql, settings }));
    },
    transaction: async (fn) => {
      const tx = nextTransaction++;
      // Not awaited: the first statements follow BEGIN to the store's thread without waiting for
      // this thread's turn (it may be validating another request's body meanwhile). Should BEGIN
      // fail, the thread fails them, and the commit, with its reason.
      thread.call({ op: 'begin', tx }).catch(() => {});
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn(over(thread, tx));
      } catch (error) {
        await thread.call({ op: 'end', tx, commit: false });
        throw error;
      }
      await thread.call({ op: 'end', tx, commit: true });
      return result;
    },
    // Not a query: the embedded store has one connection, so a query would wait behind any
    // transaction under way and /health would report an import as an outage. The database
    // runs in this process: a thread that still takes calls is reachable.
    async ping() {
      if (!thread.open) throw new Error('The embedded store is not open');
    },
    // One process, no connection to lose.
    listen: async (channel, onPayload) => {
      const listener = await thread.call<number>({ op: 'listen', channel });
      thread.listen(listener, onPayload);
      return async () => {
        thread.unlisten(listener);
        await thread.call({ op: 'unlisten', listener });
      };
    },
    jobQueueDb: {
      // Scripts (pg-boss's migrations and maintenance) come without values; the last
      // statement's rows answer them, as the only statement's rows answer a plain one.
      executeSql: async (text, values) => ({
        rows:
          values === undefined
            ? await thread.call<Row[]>({ op: 'exec', sql: text })
            : await thread.call<Row[]>({ op: 'query', sql: text, params: values }),
      }),
      // Only this process opens the store.
      exclusively: (fn) => fn(),
    },
    async close() {
      try {
        await thread.call({ op: 'close' });
      } finally {
        await thread.terminate();
        release();
      }
    },
  };
}
