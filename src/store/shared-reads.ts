import type { Repos } from './open-store.js';

const ignore = () => undefined;

/**
 * `read`, shared by callers who ask for the same key at the same time: a call while that key's
 * read is in flight waits for it to end and shares the next read, which starts after every one of
 * them asked. So each caller still gets what a read started after its call returns (every write
 * committed before the call shows), and a burst of callers costs two queries rather than one each.
 */
export function sharedRead<V>(read: (key: string) => Promise<V>): (key: string) => Promise<V> {
  const reads = new Map<string, { current: Promise<V>; next: Promise<V> | null }>();

  /** `read(key)`, a throw turned into a rejection: an entry must be replaced, whatever happens. */
  function attempt(key: string): Promise<V> {
    try {
      return read(key);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  function start(key: string): Promise<V> {
    const entry = { current: attempt(key), next: null as Promise<V> | null };
    reads.set(key, entry);
    const settle = () => {
      if (reads.get(key) === entry && entry.next === null) reads.delete(key);
    };
    entry.current.then(settle, settle);
    return entry.current;
  }

  return (key) => {
    const entry = reads.get(key);
    if (entry === undefined) return start(key);
    entry.next ??= entry.current.then(ignore, ignore).then(() => start(key));
    return entry.next;
  };
}

/**
 * The three reads every request makes before its own work (its API key, its account, its data
 * version), shared by the requests that arrive together. On PostgreSQL, where no process may keep
 * them, each request sent its own three queries: under 16 clients, sending them took more of the
 * event loop than answering the reports (docs/decisions.md, "Shared request reads on PostgreSQL").
 */
export function sharedRequestReads(repos: Repos): Repos {
  return {
    ...repos,
    apiKeys: { ...repos.apiKeys, findByHash: sharedRead((hash) => repos.apiKeys.findByHash(hash)) },
    accounts: { ...repos.accounts, get: sharedRead((accountId) => repos.accounts.get(accountId)) },
    changes: {
      ...repos.changes,
      dataVersion: sharedRead((accountId) => repos.changes.dataVersion(accountId)),
    },
  };
}
