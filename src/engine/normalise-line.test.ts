import { describe, expect, it } from 'vitest';
import { dayNumber } from './days.js';
import { monthlyValue, nearestInterval, wholePeriodStart } from './normalise-line.js';
import type { PlanPeriod } from './normalise-line.js';
import type { BillingFreq } from './types.js';

const d = dayNumber;
const plan = (billingFreq: BillingFreq, billingFreqCount = 1): PlanPeriod => ({
  billingFreq,
  billingFreqCount,
});
const line = (amount: number, start: string, end: string, prorated = false) => ({
  amount,
  periodStart: d(start),
  periodEnd: d(end),
  prorated,
});

describe('monthlyValue of a whole line', () => {
  it.each([
    // plan, amount, expected monthly value
    ['month', 1, 4900, 4900], // x1
    ['quarter', 1, 15000, 5000], // 15000 / 3
    ['year', 1, 120000, 10000], // 120000 / 12
    ['year', 1, 100000, 8333.333333333334], // 100000 / 12, rounded later, once per customer and day
    ['week', 1, 1000, 4333.333333333333], // 1000 x 52 / 12
    ['day', 1, 100, 3041.6666666666665], // 100 x 365 / 12
    ['month', 6, 30000, 5000], // a six-month plan: 30000 / 6
    ['year', 2, 240000, 10000], // a two-year plan: 240000 / 24
  ] as const)('%s x%d: %d cents a period is %d a month', (freq, count, amount, expected) => {
    expect(monthlyValue(line(amount, '2024-01-01', '2024-02-01'), plan(freq, count))).toBeCloseTo(
      expected,
      9,
    );
  });

  it('takes the interval from the period length when there is no plan', () => {
    expect(monthlyValue(line(4900, '2024-02-01', '2024-03-01'), undefined)).toBe(4900); // 29 days: a month
    expect(monthlyValue(line(120000, '2024-01-01', '2025-01-01'), undefined)).toBe(10000); // 366 days: a year
    expect(monthlyValue(line(15000, '2024-01-01', '2024-04-01'), undefined)).toBe(5000); // 91 days: a quarter
    expect(monthlyValue(line(1000, '2024-01-01', '2024-01-08'), undefined)).toBeCloseTo(4333.3333, 4); // a week
  });
});

describe('nearestInterval', () => {
  it.each([
    [1, 'day'],
    [4, 'day'], // 3 from a day, 3 from a week: a tie goes to the shorter unit
    [5, 'week'],
    [18, 'week'], // 11 from a week, 12.4375 from a month
    [19, 'month'], // 12 from a week, 11.4375 from a month
    [28, 'month'],
    [31, 'month'],
    [60, 'month'], // 29.5625 from a month, 31.3125 from a quarter
    [61, 'quarter'], // 30.5625 from a month, 30.3125 from a quarter
    [228, 'quarter'], // 136.6875 from a quarter, 137.25 from a year
    [229, 'year'], // 137.6875 from a quarter, 136.25 from a year
    [365, 'year'],
  ] as const)('%d days is a %s', (days, expected) => {
    expect(nearestInterval(days)).toBe(expected);
  });
});

describe('a prorated line', () => {
  it('is scaled up to the whole period that ends at its period end', () => {
    // Monthly plan, whole period 2024-01-15 .. 2024-02-15 = 31 days; the line covers 2024-02-05 .. 02-15 = 10 days.
    // 1000 x 31 / 10 = 3100 for the whole month.
    expect(monthlyValue(line(1000, '2024-02-05', '2024-02-15', true), plan('month'))).toBeCloseTo(3100, 9);
    // A credit for unused time is negative the same way: -1000 x 31 / 10 = -3100.
    expect(monthlyValue(line(-1000, '2024-02-05', '2024-02-15', true), plan('month'))).toBeCloseTo(-3100, 9);
  });

  it('uses the whole yearly period for a yearly plan', () => {
    // Whole period 2023-07-01 .. 2024-07-01 = 366 days (2024 is a leap year); line 2024-04-01 .. 07-01 = 91 days.
    // 30000 x 366 / 91 = 120659.34 a year, / 12 = 10054.945 a month.
    expect(monthlyValue(line(30000, '2024-04-01', '2024-07-01', true), plan('year'))).toBeCloseTo(
      (30000 * 366) / 91 / 12,
      9,
    );
  });

  it('without a plan is amount x 30.4375 / days', () => {
    // 10 days: 1000 x 30.4375 / 10 = 3043.75
    expect(monthlyValue(line(1000, '2024-02-05', '2024-02-15', true), undefined)).toBe(3043.75);
  });
});

describe('wholePeriodStart', () => {
  it('steps back by calendar months, clamping to the end of a shorter month', () => {
    expect(wholePeriodStart(plan('month'), d('2024-03-31'))).toBe(d('2024-02-29'));
    expect(wholePeriodStart(plan('quarter'), d('2024-05-31'))).toBe(d('2024-02-29'));
    expect(wholePeriodStart(plan('year'), d('2025-02-28'))).toBe(d('2024-02-28'));
    expect(wholePeriodStart(plan('month', 2), d('2024-01-15'))).toBe(d('2023-11-15'));
    expect(wholePeriodStart(plan('week', 2), d('2024-01-15'))).toBe(d('2024-01-01'));
    expect(wholePeriodStart(plan('day', 3), d('2024-01-15'))).toBe(d('2024-01-12'));
  });
});
