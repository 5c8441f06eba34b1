import type { Clock } from './clock.js';

/**
 * Values kept for a while on the service clock (so tests can move time past them), in memory
 * of this process. At most `maxEntries` are kept: when full, expired entries go first, then the
 * oldest, so arbitrary keys (search texts) cannot grow it without bound.
 */
export function createTtlCache<T>(clock: Clock, ttlMs: number, maxEntries: number) {
  const entries = new Map<string, { value: T; expires: number }>();

  function makeRoom(now: number) {
    for (const [key, entry] of entries) if (entry.expires <= now) entries.delete(key);
    // A Map iterates in insertion order: the first key is the oldest.
    while (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
  }

  return {
    async getOrCompute(key: string, compute: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit !== undefined && hit.expires > clock.now().getTime()) return hit.value;
      const value = await compute();
      const now = clock.now().getTime();
      entries.delete(key);
      if (entries.size >= maxEntries) makeRoom(now);
      entries.set(key, { value, expires: now + ttlMs });
      return value;
    },
  };
}
