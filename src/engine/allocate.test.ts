import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate } from './allocate.js';

/** The units handed out one at a time, in turn: what `allocate` must match. */
function oneUnitAtATime(values: readonly number[], total: number): number[] {
  const parts = values.map((value) => Math.floor(value));
  let missing = total - parts.reduce((sum, part) => sum + part, 0);
  const order = values
    .map((value, index) => ({ index, fraction: value - Math.floor(value) }))
    .sort((a, b) => b.fraction - a.fraction || a.index - b.index);
  for (let i = 0; missing !== 0; i = (i + 1) % order.length) {
    const from = missing > 0 ? order[i]! : order[order.length - 1 - i]!;
    parts[from.index]! += Math.sign(missing);
    missing -= Math.sign(missing);
  }
  return parts;
}

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

  it('hands out units far beyond one per part in whole rounds, as one unit at a time in turn would', () => {
    // Floors 0 + 0 + 0 = 0, total 3,000,000,001: a billion to each, and the one left to the largest fraction (.7).
    expect(allocate([0.2, 0.7, 0.1], 3_000_000_001)).toEqual([1_000_000_000, 1_000_000_001, 1_000_000_000]);
    // Floors 5 + 5 = 10, total -9: nine units from each, then one more from the smallest fraction (.25).
    expect(allocate([5.5, 5.25], -9)).toEqual([-4, -5]);
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: -40, max: 40 }),
        (values, offset) => {
          const total = Math.round(values.reduce((sum, value) => sum + value, 0)) + offset || 0;
          expect(allocate(values, total)).toEqual(oneUnitAtATime(values, total));
        },
      ),
    );
  });

  it('refuses amounts that are not numbers and totals that are not whole', () => {
    expect(() => allocate([1, Number.NaN], 1)).toThrow(RangeError);
    expect(() => allocate([1, Number.POSITIVE_INFINITY], 1)).toThrow(RangeError);
    expect(() => allocate([1.5, 2], 3.5)).toThrow(RangeError);
    expect(() => allocate([1, 2], Number.NaN)).toThrow(RangeError);
  });
});
