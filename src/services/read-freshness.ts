import { AsyncLocalStorage } from 'node:async_hooks';

/** What one request's reads were served from: the instant its oldest stale snapshot was current. */
interface Served {
  currentAt: number | null;
}

const requests = new AsyncLocalStorage<Served>();

/**
 * Starts tracking what the rest of this request reads (the API calls it as a request begins),
 * so its answer can say how old its data is (docs/api.md, "Freshness").
 */
export function trackReadFreshness(): void {
  requests.enterWith({ currentAt: null });
}

/** A read of this request was served from a snapshot that held every write up to `currentAt` (ms). */
export function servedStale(currentAt: number): void {
  const served = requests.getStore();
  if (served && (served.currentAt === null || currentAt < served.currentAt)) served.currentAt = currentAt;
}

/** Seconds since the data this request read was current, or null when it read only current data. */
export function staleSeconds(now: number): number | null {
  const currentAt = requests.getStore()?.currentAt ?? null;
  return currentAt === null ? null : Math.max(0, (now - currentAt) / 1000);
}
