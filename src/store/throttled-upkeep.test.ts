import { describe, expect, it } from 'vitest';
import { throttledUpkeep } from './throttled-upkeep.js';

describe('throttledUpkeep', () => {
  it('runs at most once an interval, and callers during a run wait for that run', async () => {
    let now = 0;
    let runs = 0;
    let finish = () => {};
    const upkeep = throttledUpkeep(
      () => {
        runs += 1;
        return new Promise<void>((resolve) => (finish = resolve));
      },
      5_000,
      () => now,
    );
    let firstDone = false;
    const first = upkeep().then(() => (firstDone = true));
    let secondDone = false;
    const second = upkeep().then(() => (secondDone = true));
    await Promise.resolve();
    expect([runs, firstDone, secondDone]).toEqual([1, false, false]);
    finish();
    await Promise.all([first, second]);
    now += 4_999;
    await upkeep();
    expect(runs).toBe(1);
    now += 1;
    const third = upkeep();
    finish();
    await third;
    expect(runs).toBe(2);
  });

  it('never fails its caller, and tries again at the next check once one fails', async () => {
    let now = 0;
    let attempts = 0;
    const upkeep = throttledUpkeep(
      async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('lock timeout');
      },
      5_000,
      () => now,
    );
    await expect(upkeep()).resolves.toBeUndefined();
    now += 5_000;
    await upkeep();
    expect(attempts).toBe(2);
  });
});
