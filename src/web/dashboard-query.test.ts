import { describe, expect, it } from 'vitest';
import {
  dashboardParams,
  parseDashboardQuery,
  periodRange,
  previousDate,
  previousRange,
  reportQuery,
} from './dashboard-query.js';

const TODAY = new Date('2026-11-23T15:00:00Z');
const parse = (query: string) => parseDashboardQuery(new URLSearchParams(query));

describe('dashboard filters in the URL', () => {
  it('defaults to the last 12 months by month in the account currency', () => {
    expect(parse('')).toEqual({ period: '12m', interval: 'month', filters: {} });
  });

  it('keeps a valid custom range, interval and currency, and drops what it cannot use', () => {
    expect(parse('period=custom&from=2026-01-01&to=2026-06-30&interval=week&currency=eur')).toEqual({
      period: 'custom',
      from: '2026-01-01',
      to: '2026-06-30',
      interval: 'week',
      currency: 'eur',
      filters: {},
    });
    // A reversed range, an unknown interval and a currency that is not a code fall back.
    expect(parse('period=custom&from=2026-06-30&to=2026-01-01&interval=hour&currency=EURO')).toEqual({
      period: '12m',
      interval: 'month',
      filters: {},
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

  it('keeps the report filters in the URL and passes them under the API names', () => {
    const query = parse(
      'period=ytd&region=eu&customer_currency=eur&plan=g1&billing_freq=year&segment=s1&data_source=d1' +
        '&custom_industry=saas~~retail&compare=previous&unknown=x&customx=y',
    );
    expect(query.filters).toEqual({
      region: 'eu',
      customer_currency: 'eur',
      plan: 'g1',
      billing_freq: 'year',
      segment: 's1',
      data_source: 'd1',
      custom_industry: 'saas~~retail',
    });
    expect(query.compare).toBe(true);
    expect(reportQuery(query, TODAY)).toEqual({
      date: '20260101-20261123',
      interval: 'month',
      baseCurrency: undefined,
      region: 'eu',
      currency: 'eur',
      plan: 'g1',
      billing_freq: 'year',
      segment: 's1',
      data_source: 'd1',
      custom_industry: 'saas~~retail',
    });
    expect(dashboardParams(query)).toMatchObject({ customer_currency: 'eur', compare: 'previous' });
  });

  it('compares with the equally long range just before, as compare=last-period does', () => {
    const query = parse('period=custom&from=2026-01-01&to=2026-06-30');
    // 181 days: 2025-07-04 to 2025-12-31.
    expect(previousRange(query, TODAY)).toEqual({ from: '2025-07-04', to: '2025-12-31' });
    expect(previousDate(query, TODAY)).toBe('20250704-20251231');
  });
});
