import { describe, expect, it } from 'vitest';
import { parseDashboardQuery, periodRange, reportQuery } from './dashboard-query.js';

const TODAY = new Date('2026-11-23T15:00:00Z');
const parse = (query: string) => parseDashboardQuery(new URLSearchParams(query));

describe('dashboard filters in the URL', () => {
  it('defaults to the last 12 months by month in the account currency', () => {
    expect(parse('')).toEqual({ period: '12m', interval: 'month' });
  });

  it('keeps a valid custom range, interval and currency, and drops what it cannot use', () => {
    expect(parse('period=custom&from=2026-01-01&to=2026-06-30&interval=week&currency=eur')).toEqual({
      period: 'custom',
      from: '2026-01-01',
      to: '2026-06-30',
      interval: 'week',
      currency: 'eur',
    });
    // A reversed range, an unknown interval and a currency that is not a code fall back.
    expect(parse('period=custom&from=2026-06-30&to=2026-01-01&interval=hour&currency=EURO')).toEqual({
      period: '12m',
      interval: 'month',
    });
  });

  it.each([
    ['30d', '2026-10-25'], // 29 days before today, today included: 30 days
    ['3m', '2026-08-24'], // the day after the same day three months back
    ['12m', '2025-11-24'],
    ['ytd', '2026-01-01'],
    ['24m', '2024-11-24'],
  ])('%s runs from %s to today', (period, from) => {
    expect(periodRange(parse(`period=${period}`), TODAY)).toEqual({ from, to: '2026-11-23' });
  });

  it("gives the API's date range and parameters", () => {
    expect(reportQuery(parse('period=ytd&interval=quarter&currency=gbp'), TODAY)).toEqual({
      date: '20260101-20261123',
      interval: 'quarter',
      baseCurrency: 'gbp',
    });
  });
});
