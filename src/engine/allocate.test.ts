import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate } from './allocate.js';

describe('allocate', () => {
  it('hands the missing units to the largest fractions', () => {
    // 10.6 + 20.3 + -5.2 = 25.7; total 26: floors 10, 20, -6 = 24; two units go to .6 and then .8 (of -5.2).
    expect(allocate([10.6, 20.3, -5.2], 26)).toEqual([11, 20, -5]);
  });

  it('takes excess units from the smallest fractions', () => {
    // floors 10 + 20 = 30, total 29: the .1 loses a unit.
    expect(allocate([10.9, 20.1], 29)).toEqual([10, 19]);
  });

  it('always sums to the total and stays within a unit of each value when the total is the rounded sum', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e7, max: 1e7, noNaN: true }), { minLength: 1, maxLength: 8 }),
        (values) => {
          const total = Math.round(values.reduce((sum, value) => sum + value, 0)) || 0; // no -0
          const parts = allocate(values, total);
          expect(parts.reduce((sum, part) => sum + part, 0)).toBe(total);
          parts.forEach((part, index) => expect(Math.abs(part - values[index]!)).toBeLessThan(1 + 1e-6));
        },
      ),
    );
  });
});
