import { describe, expect, it } from 'vitest';
import { derivedCache, objectId } from './derived-cache.js';

describe('derivedCache', () => {
  it('builds once per owner and key', () => {
    const cached = derivedCache<object, number[]>();
    const owner = {};
    let builds = 0;
    const build = () => [++builds];
    const first = cached(owner, 'k', build);
    expect(cached(owner, 'k', build)).toBe(first);
    expect(cached(owner, 'other', build)).toEqual([2]);
    expect(cached({}, 'k', build)).toEqual([3]);
    expect(builds).toBe(3);
  });

  it('forgets the old keys of an owner past its limit', () => {
    const cached = derivedCache<object, string>(2);
    const owner = {};
    let builds = 0;
    const build = () => `v${++builds}`;
    cached(owner, 'a', build);
    cached(owner, 'b', build);
    // A third key clears a and b; a is built again.
    cached(owner, 'c', build);
    expect(cached(owner, 'a', build)).toBe('v4');
    expect(cached(owner, 'c', build)).toBe('v3');
  });
});

describe('objectId', () => {
  it('is the same for one object and differs between two', () => {
    const a = {};
    expect(objectId(a)).toBe(objectId(a));
    expect(objectId(a)).not.toBe(objectId({}));
  });
});
