import { describe, expect, it } from 'vitest';
import { retryDelay, type RetryPolicy, withRetries } from './retry.js';

function policy(random = 0.5): RetryPolicy & { slept: number[] } {
  const slept: number[] = [];
  return {
    attempts: 4,
    baseDelayMs: 100,
    maxDelayMs: 1000,
    random: () => random,
    sleep: (ms) => {
      slept.push(ms);
      return Promise.resolve();
    },
    slept,
  };
}

describe('retryDelay', () => {
  it('doubles the ceiling per retry, scaled by the jitter, up to the maximum', () => {
    // Ceilings 100, 200, 400, 800, then 1000 (capped); half of each with random 0.5.
    expect([0, 1, 2, 3, 4].map((retry) => retryDelay(policy(), retry))).toEqual([50, 100, 200, 400, 500]);
    expect(retryDelay(policy(0), 3)).toBe(0);
  });

  it('waits what the system advertised, capped by the maximum', () => {
    expect(retryDelay(policy(), 0, 700)).toBe(700);
    expect(retryDelay(policy(), 0, 60_000)).toBe(1000);
  });
});

describe('withRetries', () => {
  it('retries retryable failures until one succeeds', async () => {
    const p = policy();
    let calls = 0;
    const result = await withRetries(
      () => (++calls < 3 ? Promise.reject(new Error(`try ${calls}`)) : Promise.resolve('ok')),
      () => ({ retry: true }),
      p,
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
    expect(p.slept).toEqual([50, 100]);
  });

  it('gives up after the bounded number of attempts with the last error', async () => {
    const p = policy();
    let calls = 0;
    await expect(
      withRetries(
        () => Promise.reject(new Error(`try ${++calls}`)),
        () => ({ retry: true, afterMs: 300 }),
        p,
      ),
    ).rejects.toThrow('try 4');
    expect(p.slept).toEqual([300, 300, 300]);
  });

  it('does not retry a failure classified as final', async () => {
    const p = policy();
    let calls = 0;
    await expect(
      withRetries(
        () => Promise.reject(new Error(`try ${++calls}`)),
        () => ({ retry: false }),
        p,
      ),
    ).rejects.toThrow('try 1');
    expect(p.slept).toEqual([]);
  });
});
