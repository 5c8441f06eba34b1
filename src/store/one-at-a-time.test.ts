import { describe, expect, it } from 'vitest';
import { oneAtATime } from './one-at-a-time.js';

describe('oneAtATime', () => {
  it('starts each task after the one before has settled, failed or not', async () => {
    const events: string[] = [];
    let releaseFirst = () => {};
    const queue = oneAtATime();
    const first = queue(
      () =>
        new Promise<string>((resolve) => {
          events.push('first started');
          releaseFirst = () => resolve('first');
        }),
    );
    const second = queue(async () => {
      events.push('second started');
      throw new Error('second failed');
    });
    const third = queue(async () => {
      events.push('third started');
      return 'third';
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['first started']);
    releaseFirst();
    await expect(first).resolves.toBe('first');
    await expect(second).rejects.toThrow('second failed');
    await expect(third).resolves.toBe('third');
    expect(events).toEqual(['first started', 'second started', 'third started']);
  });

  it('waits for the promise it was made after, even one that rejects', async () => {
    let refuse = (_error: Error) => {};
    const after = new Promise<void>((_resolve, reject) => (refuse = reject));
    const queue = oneAtATime(after);
    let started = false;
    const task = queue(async () => {
      started = true;
      return 1;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(false);
    refuse(new Error('BEGIN failed'));
    await expect(task).resolves.toBe(1);
  });
});
