import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Interval } from '../periods.js';
import { seriesPeriods } from './cashflow-data.js';

const intervalArb = fc.constantFrom<Interval>('day', 'week', 'month', 'quarter', 'year');

/** The period holding `day`, found by reading every period. */
const scanned = (periods: readonly { start: number; end: number }[], day: number) =>
  periods.findIndex((period) => period.start <= day && day <= period.end);

describe('seriesPeriods', () => {
  it("finds each day's period as reading every period would, inside and around the series", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 19_000, max: 21_000 }),
        fc.integer({ min: 0, max: 800 }),
        intervalArb,
        fc.array(fc.integer({ min: -400, max: 1_200 }), { minLength: 1, maxLength: 40 }),
        (from, length, interval, offsets) => {
          const { periods, indexOf } = seriesPeriods({ from, to: from + length, interval });
          for (const offset of offsets) expect(indexOf(from + offset)).toBe(scanned(periods, from + offset));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds them by binary search in a series too long for a table of days', () => {
    // 150 years of days: past the length looked up in a table.
    const from = 0;
    const to = 150 * 365;
    const { periods, indexOf } = seriesPeriods({ from, to, interval: 'year' });
    for (const day of [-1, 0, 364, 365, 20_000, to, to + 1]) expect(indexOf(day)).toBe(scanned(periods, day));
    expect(indexOf(20_000)).toBe(54);
  });
});
