import { describe, expect, it } from 'vitest';
import { fixedClock } from './clock.js';
import { createTtlCache } from './ttl-cache.js';

describe('createTtlCache', () => {
  it('computes once per key until the entry is ttl old', async () => {
    const clock = fixedClock('2026-01-01T00:00:00Z');
    const cache = createTtlCache<number>(clock, 1000, 10);
    let calls = 0;
    const compute = async () => ++calls;
    expect(await cache.getOrCompute('a', compute)).toBe(1);
    clock.set('2026-01-01T00:00:00.999Z');
    expect(await cache.getOrCompute('a', compute)).toBe(1);
    clock.set('2026-01-01T00:00:01Z');
    expect(await cache.getOrCompute('a', compute)).toBe(2);
  });

  it('when full, drops expired entries first, then the oldest', async () => {
    const clock = fixedClock('2026-01-01T00:00:00Z');
    const cache = createTtlCache<string>(clock, 1000, 2);
    const seen: string[] = [];
    const get = (key: string) =>
      cache.getOrCompute(key, async () => {
        seen.push(key);
        return key;
      });
    await get('a');
    clock.set('2026-01-01T00:00:00.500Z');
    await get('b');
    // Full: 'c' evicts the oldest, 'a'; 'b' stays.
    await get('c');
    await get('b');
    await get('a');
    expect(seen).toEqual(['a', 'b', 'c', 'a']);
  });
});
