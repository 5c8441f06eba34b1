import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, dayNumber, dayString } from './days.js';

const MS_PER_DAY = 86_400_000;
const FIRST = -719_528; // 0000-01-01
const LAST = 2_932_896; // 9999-12-31

/** The reference: Date's own ISO calendar, which is also proleptic Gregorian in UTC. */
function isoOf(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

describe('dayNumber and dayString', () => {
  it.each([
    ['1970-01-01', 0],
    ['1970-01-02', 1],
    ['1969-12-31', -1],
    // 30 years of 365 days plus 7 leap days (72, 76, 80, 84, 88, 92, 96): 10957.
    ['2000-01-01', 10_957],
    // 2000 is a leap year (divisible by 400): 10957 + 31 (January) + 28 = 11016.
    ['2000-02-29', 11_016],
    ['2000-03-01', 11_017],
    ['0000-01-01', FIRST],
    ['9999-12-31', LAST],
  ])('%s is day %i', (text, day) => {
    expect(dayNumber(text)).toBe(day);
    expect(dayString(day)).toBe(text);
  });

  it('agrees with Date over the whole range, both ways', () => {
    fc.assert(
      fc.property(fc.integer({ min: FIRST, max: LAST }), (day) => {
        const iso = isoOf(day);
        expect(dayString(day)).toBe(iso);
        expect(dayNumber(iso)).toBe(day);
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([
    '',
    '2024-1-01',
    '2024-01-1',
    '2024/01/01',
    '20240101',
    '2024-01-01T00:00:00Z',
    ' 2024-01-01',
    '2024-00-10',
    '2024-13-01',
    '2024-01-00',
    '2024-01-32',
    '2023-02-29', // not a leap year
    '1900-02-29', // divisible by 100, not by 400
    '2024-04-31',
    'abcd-ef-gh',
    '2024-0a-01',
    '+024-01-01',
  ])('dayNumber rejects %j', (text) => {
    expect(() => dayNumber(text)).toThrow(RangeError);
    expect(() => dayNumber(text)).toThrow(`Invalid day "${text}"`);
  });

  it('accepts 29 February in leap years only', () => {
    expect(dayString(dayNumber('2024-02-29'))).toBe('2024-02-29');
    expect(dayString(dayNumber('2000-02-29'))).toBe('2000-02-29');
  });

  it.each([FIRST - 1, LAST + 1, 0.5, Number.NaN])('dayString rejects %d', (day) => {
    expect(() => dayString(day)).toThrow(RangeError);
  });
});

describe('addDays', () => {
  it('crosses month, leap-day and year boundaries', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-02-28', 2)).toBe('2024-03-01');
    expect(addDays('2023-12-31', 1)).toBe('2024-01-01');
    expect(addDays('2024-01-01', -1)).toBe('2023-12-31');
    expect(addDays('2024-03-15', 0)).toBe('2024-03-15');
  });
});
