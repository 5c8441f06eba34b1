import { describe, expect, it } from 'vitest';
import { ALREADY_MARKED, FIRST_IN_PERIOD, FIRST_IN_SLOT, PeriodMarks } from './period-marks.js';

describe('PeriodMarks', () => {
  it('tells a customer’s first mark of a period, its first in a slot, and a repeat', () => {
    const marks = new PeriodMarks(3, 7);
    expect(marks.mark(1, 6, 0)).toBe(FIRST_IN_PERIOD);
    expect(marks.mark(1, 6, 0)).toBe(ALREADY_MARKED);
    expect(marks.mark(1, 0, 0)).toBe(FIRST_IN_SLOT);
    expect(marks.mark(2, 6, 0)).toBe(FIRST_IN_PERIOD);
    // A later period starts every customer afresh, the period indexes far apart included.
    expect(marks.mark(1, 6, 1)).toBe(FIRST_IN_PERIOD);
    expect(marks.mark(1, 0, 1)).toBe(FIRST_IN_SLOT);
    expect(marks.mark(1, 6, 5_000)).toBe(FIRST_IN_PERIOD);
    expect(marks.mark(0, 3, 5_000)).toBe(FIRST_IN_PERIOD);
  });

  it('refuses more slots than a mark has bits for beside the period', () => {
    expect(() => new PeriodMarks(1, 9)).toThrow(RangeError);
  });
});
