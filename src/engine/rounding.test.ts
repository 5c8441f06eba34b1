import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundCents } from './rounding.js';

describe('roundCents', () => {
  it.each([
    [0, 0],
    [83.3333, 83], // 1000 / 12
    [249.9166, 250], // 2999 / 12
    [2.5, 3],
    [-2.5, -3],
    [-0.4, 0],
    [10000 / 3 + 10000 / 3 + 10000 / 3, 10000], // 9999.999999999998 in floating point
    [0.1 + 0.2 + 0.2, 1], // 0.5000000000000001 and 0.49999999999999994 both mean a half
    [0.49999999999999994, 1],
  ])('rounds %d to %d', (value, expected) => {
    expect(roundCents(value)).toBe(expected);
  });

  it('is within half a cent and symmetric around zero', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (value) => {
        expect(Math.abs(roundCents(value) - value)).toBeLessThanOrEqual(0.5 + 1e-6);
        expect(roundCents(-value) + roundCents(value)).toBe(0);
      }),
    );
  });
});
