/**
 * The messages between the embedded store's thread (src/store/pglite-worker.ts) and the thread
 * that serves requests (src/store/pglite-db.ts). A statement names the transaction it belongs
 * to, if any, by the number its `begin` gave. The caller chooses that number, so it can send a
 * transaction's first statements behind its `begin` without waiting for the answer; the store's
 * thread runs a transaction's calls in the order they arrive.
 */
export type PgliteCall =
  | { op: 'query'; tx?: number; sql: string; params: readonly unknown[] }
  | { op: 'exec'; tx?: number; sql: string }
  | { op: 'copyOut'; sql: string; settings: Readonly<Record<string, string>> }
  | { op: 'copyRows'; tx?: number; sql: string }
  | { op: 'copyIn'; tx?: number; table: string; columns: readonly string[]; csv: string }
  | { op: 'begin'; tx: number }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; listener: number }
  | { op: 'close' };

/** What the store thread was given to open. */
export interface PgliteWorkerData {
  /** The database's directory; absent, it lives in memory. */
  pgdata: string | undefined;
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
}

/** A database error's fields that survive the crossing (a thrown object's own fields do not). */
export interface CrossedError {
  name: string;
  message: string;
  fields: Record<string, string | number>;
}

export type PgliteReply =
  | { kind: 'ready' }
  | { kind: 'failed'; error: CrossedError }
  | { kind: 'answer'; id: number; value: unknown }
  | { kind: 'error'; id: number; error: CrossedError }
  | { kind: 'notify'; listener: number; payload: string };

export interface PgliteRequest {
  id: number;
  call: PgliteCall;
}
