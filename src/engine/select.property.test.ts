import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstInOrder } from './select.js';

describe('firstInOrder', () => {
  it('equals a full sort cut to k, ties kept in item order', () => {
    fc.assert(
      fc.property(
        // Keys from a small range, so that many items tie.
        fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 70 }),
        fc.boolean(),
        fc.boolean(),
        (keys, k, descending, fromEnd) => {
          const direction = descending ? -1 : 1;
          const compare = (a: number, b: number) => (keys[a]! - keys[b]!) * direction || a - b;
          const sorted = keys.map((_, index) => index).sort(compare);
          expect(firstInOrder(keys.length, k, compare, fromEnd)).toEqual(sorted.slice(0, k));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps the 2 smallest of 5, in order', () => {
    // Keys 4 1 3 1 0: smallest 0 (item 4), then 1 (item 1 before item 3).
    const keys = [4, 1, 3, 1, 0];
    expect(firstInOrder(5, 2, (a, b) => keys[a]! - keys[b]! || a - b)).toEqual([4, 1]);
  });
});
