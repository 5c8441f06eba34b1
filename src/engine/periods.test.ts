import { describe, expect, it } from 'vitest';
import { dayNumber as d, dayString } from './days.js';
import { type Interval, periodStart, periodsBetween } from './periods.js';

const show = (periods: { start: number; end: number }[]) =>
  periods.map((p) => `${dayString(p.start)}..${dayString(p.end)}`);

describe('periods', () => {
  it.each([
    ['2024-05-15', 'day', '2024-05-15'],
    ['2024-05-15', 'week', '2024-05-13'], // a Wednesday; Monday is the 13th
    ['2024-05-13', 'week', '2024-05-13'],
    ['2024-05-19', 'week', '2024-05-13'], // Sunday closes the ISO week
    ['1970-01-01', 'week', '1969-12-29'],
    ['2024-05-15', 'month', '2024-05-01'],
    ['2024-05-15', 'quarter', '2024-04-01'],
    ['2024-12-31', 'quarter', '2024-10-01'],
    ['2024-05-15', 'year', '2024-01-01'],
  ] as [string, Interval, string][])('%s starts its %s on %s', (day, interval, expected) => {
    expect(dayString(periodStart(d(day), interval))).toBe(expected);
  });

  it('cuts the first and last period to the range', () => {
    expect(show(periodsBetween(d('2024-01-15'), d('2024-04-10'), 'month'))).toEqual([
      '2024-01-15..2024-01-31',
      '2024-02-01..2024-02-29',
      '2024-03-01..2024-03-31',
      '2024-04-01..2024-04-10',
    ]);
    expect(show(periodsBetween(d('2023-11-20'), d('2024-02-01'), 'quarter'))).toEqual([
      '2023-11-20..2023-12-31',
      '2024-01-01..2024-02-01',
    ]);
    expect(show(periodsBetween(d('2024-05-15'), d('2024-05-15'), 'year'))).toEqual([
      '2024-05-15..2024-05-15',
    ]);
  });
});
