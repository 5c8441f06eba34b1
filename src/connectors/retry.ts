/** How a failed call is treated: given up, or tried again (after the delay the system asked for, if any). */
export type RetryVerdict = { retry: false } | { retry: true; afterMs?: number | undefined };

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** The first backoff; each later one doubles, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** In [0, 1); a parameter so tests can pin the jitter. */
  random(): number;
  sleep(ms: number): Promise<void>;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  random: Math.random,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * The wait before retry number `retry` (0-based): what the system advertised when it said
 * (capped, so a bogus header cannot park the import), else exponential backoff with full
 * jitter, so many importers that failed together do not retry together.
 */
export function retryDelay(policy: RetryPolicy, retry: number, advertisedMs?: number): number {
  if (advertisedMs !== undefined) return Math.min(advertisedMs, policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(policy.random() * ceiling);
}

/** Calls `fn` until it succeeds, `classify` says the failure is final, or the attempts run out. */
export async function withRetries<T>(
  fn: () => Promise<T>,
  classify: (error: unknown) => RetryVerdict,
  policy: RetryPolicy,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      const verdict = classify(error);
      if (!verdict.retry || attempt >= policy.attempts) throw error;
      await policy.sleep(retryDelay(policy, attempt - 1, verdict.afterMs));
    }
  }
}
