import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { patchedOrder } from './orders.js';

describe('patchedOrder', () => {
  it('gives the order a sort of the kept and added positions would', () => {
    fc.assert(
      fc.property(
        // A value per position, with ties, so that the order's tie on position matters.
        fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 40 }),
        fc.array(fc.boolean(), { maxLength: 40 }),
        fc.array(fc.boolean(), { maxLength: 40 }),
        (values, removedFlags, addedFlags) => {
          const compare = (a: number, b: number) => values[b]! - values[a]! || a - b;
          const positions = values.map((_, position) => position);
          // Each position is in the old order, added, or neither; some of the old ones removed.
          const added = positions.filter((position) => addedFlags[position] === true);
          const old = positions.filter((position) => addedFlags[position] !== true);
          const removed = old.filter((position) => removedFlags[position] === true);
          const kept = old.filter((position) => removedFlags[position] !== true);
          const patched = patchedOrder(
            Int32Array.from(old).sort(compare),
            removed,
            Int32Array.from(added).sort(compare),
            compare,
          );
          expect(Array.from(patched)).toEqual([...kept, ...added].sort(compare));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
