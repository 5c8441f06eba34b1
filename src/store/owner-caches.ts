import type { AccountRow } from './accounts-repo.js';
import type { ApiKeyRow } from './api-keys-repo.js';
import type { Repos } from './open-store.js';

/** What a committed write changed of the cached rows. */
type Effect =
  | { kind: 'version'; accountId: string; version: number }
  | { kind: 'key'; keyId: string }
  | { kind: 'account'; accountId: string };

/**
 * The three reads every request makes before its own work (its API key, its account, its
 * data version), kept in memory for a store that only this process writes: the embedded one,
 * whose data directory is locked to one process. On its single connection those reads would
 * otherwise queue behind any import transaction under way, so a warm report of another
 * account waited for someone else's import (docs/decisions.md, "Owner caches").
 *
 * Every write of those rows passes through the repos this returns, and changes the cache
 * only once committed: a transaction's writes are kept aside and applied after its commit,
 * and a read that began before a change cannot store what it read after it.
 */
export function ownerCaches() {
  const versions = new Map<string, number>();
  const accounts = new Map<string, AccountRow>();
  const keys = new Map<string, ApiKeyRow>();
  // Bumped by every key or account change: a lookup stores its row only if none happened meanwhile.
  let keyGeneration = 0;
  let accountGeneration = 0;
  // Writes no request waited for.
  const unsettled = new Set<Promise<void>>();

  function apply(effect: Effect): void {
    if (effect.kind === 'version') {
      // Versions only grow: a read that raced a bump never sets the cache back.
      versions.set(effect.accountId, Math.max(versions.get(effect.accountId) ?? 0, effect.version));
      return;
    }
    if (effect.kind === 'account') {
      accountGeneration += 1;
      accounts.delete(effect.accountId);
      return;
    }
    keyGeneration += 1;
    for (const [hash, row] of keys) if (row.key_id === effect.keyId) keys.delete(hash);
  }

  /** The writes that change cached rows, each reported through `record`. */
  function recordingWrites(base: Repos, record: (effect: Effect) => void): Repos {
    return {
      ...base,
      accounts: {
        ...base.accounts,
        async setBaseCurrency(accountId, baseCurrency) {
          const row = await base.accounts.setBaseCurrency(accountId, baseCurrency);
          record({ kind: 'account', accountId });
          return row;
        },
      },
      apiKeys: {
        ...base.apiKeys,
        async replaceSecret(accountId, keyId, secret) {
          const row = await base.apiKeys.replaceSecret(accountId, keyId, secret);
          record({ kind: 'key', keyId });
          return row;
        },
        async delete(accountId, keyId) {
          const deleted = await base.apiKeys.delete(accountId, keyId);
          record({ kind: 'key', keyId });
          return deleted;
        },
      },
      changes: {
        ...base.changes,
        async bumpDataVersion(accountId) {
          const version = await base.changes.bumpDataVersion(accountId);
          record({ kind: 'version', accountId, version });
          return version;
        },
      },
    };
  }

  return {
    /** Repos outside a transaction: each write is committed when it returns. */
    root(base: Repos): Repos {
      const repos = recordingWrites(base, apply);
      return {
        ...repos,
        accounts: {
          ...repos.accounts,
          // Only setBaseCurrency changes an account row once written.
          async get(accountId) {
            const hit = accounts.get(accountId);
            if (hit) return hit;
            const generation = accountGeneration;
            const row = await base.accounts.get(accountId);
            if (row && generation === accountGeneration) accounts.set(accountId, row);
            return row;
          },
        },
        apiKeys: {
          ...repos.apiKeys,
          async findByHash(secretHash) {
            const hit = keys.get(secretHash);
            if (hit) return hit;
            const generation = keyGeneration;
            const row = await base.apiKeys.findByHash(secretHash);
            if (row && generation === keyGeneration) keys.set(secretHash, row);
            return row;
          },
          // last_used is a courtesy figure: the request does not wait for its write, which on
          // the one connection would queue behind an import. Later statements still run after
          // it, and closing the store waits for it (`settled`).
          async touch(accountId, keyId, at) {
            const write = base.apiKeys.touch(accountId, keyId, at).finally(() => unsettled.delete(write));
            unsettled.add(write);
          },
        },
        changes: {
          ...repos.changes,
          async dataVersion(accountId) {
            const hit = versions.get(accountId);
            if (hit !== undefined) return hit;
            const version = await base.changes.dataVersion(accountId);
            apply({ kind: 'version', accountId, version });
            return version;
          },
        },
      };
    },

    /** Waits for the writes no request waited for, before the store closes. */
    async settled(): Promise<void> {
      await Promise.allSettled([...unsettled]);
    },

    /**
     * Repos inside a transaction, and the step that applies its writes once it committed.
     * Its reads go to the store: they may see its own writes, which are not committed yet.
     */
    transaction(base: Repos): { repos: Repos; committed: () => void } {
      const effects: Effect[] = [];
      return {
        repos: recordingWrites(base, (effect) => effects.push(effect)),
        committed: () => effects.forEach(apply),
      };
    },
  };
}
