import { describe, expect, it } from 'vitest';
import type { MrrRow } from '../reports.js';
import { summaryCards } from './summary-cards.js';

const row = (date: string, total_mrr: number, total_customers: number): MrrRow => ({
  date,
  end_date: date,
  new: 0,
  expansion: 0,
  contraction: 0,
  churn: 0,
  reactivation: 0,
  total_mrr,
  total_arr: total_mrr * 12,
  total_customers,
  // As the API answers it: 0 without customers.
  arpa: total_customers === 0 ? 0 : Math.round(total_mrr / total_customers),
});
/** A retention row of a month-back cohort of `cohort_customers`, as the API answers it. */
const churn = (date: string, customer_churn_rate: number, cohort_customers = 10) => ({
  date,
  cohort_customers,
  customer_churn_rate,
});

describe('summary cards', () => {
  it('show the last period against the one before, churn in points', () => {
    const cards = summaryCards(
      [row('2026-09-01', 10000, 2), row('2026-10-01', 12500, 2)],
      [churn('2026-09-30', 10), churn('2026-10-31', 12.5)],
      'usd',
    );
    expect(cards.map(({ metric, value, text, change, good }) => [metric, value, text, change, good])).toEqual(
      [
        ['mrr', 12500, '$125', '+25.0%', true], // (12500 - 10000) / 10000
        ['arr', 150000, '$1,500', '+25.0%', true],
        ['subscribers', 2, '2', '±0.0%', null],
        ['arpa', 6250, '$63', '+25.0%', true], // 6250 cents shown in whole dollars
        ['churn-rate', 12.5, '12.5%', '+2.5 pts', false], // churn going up is bad news
      ],
    );
  });

  it('say there is nothing to compare with for a single period or a zero before', () => {
    const cards = summaryCards([row('2026-10-01', 5000, 1)], [], 'eur');
    expect(cards.map(({ text, change }) => [text, change])).toEqual([
      ['€50', null],
      ['€600', null],
      ['1', null],
      ['€50', null],
      ['–', null],
    ]);
  });

  it('show "–" for the ARPA without customers and the churn without a cohort, which the API answers as 0', () => {
    const cards = summaryCards(
      [row('2026-09-01', 4000, 1), row('2026-10-01', 0, 0)],
      [churn('2026-09-30', 0, 1), churn('2026-10-31', 0, 0)],
      'usd',
    );
    expect(cards.map(({ metric, value, text, change }) => [metric, value, text, change])).toEqual([
      ['mrr', 0, '$0', '−100.0%'],
      ['arr', 0, '$0', '−100.0%'],
      ['subscribers', 0, '0', '−100.0%'],
      // 0 / 0 customers: no ARPA, and no change to it from September's 4000.
      ['arpa', null, '–', null],
      // September's cohort of 1 lost nobody (0 %); October had no cohort: no rate, no change.
      ['churn-rate', null, '–', null],
    ]);
  });

  it('compare the end of the range with the end of the previous range when given', () => {
    const cards = summaryCards(
      [row('2026-05-01', 9000, 2), row('2026-06-01', 15000, 3)],
      [churn('2026-06-30', 0)],
      'usd',
      {
        mrr: [row('2026-02-01', 10000, 2), row('2026-03-01', 12000, 3)],
        retention: [churn('2026-03-31', 5)],
      },
    );
    expect(cards.map(({ metric, change }) => [metric, change])).toEqual([
      ['mrr', '+25.0%'], // 15000 against 12000, not against 9000
      ['arr', '+25.0%'],
      ['subscribers', '±0.0%'],
      ['arpa', '+25.0%'],
      ['churn-rate', '−5.0 pts'],
    ]);
  });
});
