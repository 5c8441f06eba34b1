import { describe, expect, it } from 'vitest';
import { customerView } from '../../../test/helpers/customer-view.js';
import { move } from '../../../test/helpers/movements.js';
import { buildAccountSnapshot } from '../account-snapshot.js';
import { dayNumber as d } from '../days.js';
import { FxTable } from '../fx-table.js';
import { concentrationReport } from './concentration.js';

// 1 EUR = 1.25 USD.
const fx = FxTable.build([{ day: '2026-01-01', currency: 'usd', perEur: 1.25 }]);
const snapshot = buildAccountSnapshot(1, [
  customerView('b', { name: 'Beta', movements: [move('2026-02-01', 'new', 3000)] }),
  customerView('a', { name: 'Alpha', movements: [move('2026-01-01', 'new', 5000)] }),
  customerView('c', { name: 'Gamma', currency: 'eur', movements: [move('2026-03-01', 'new', 1600)] }),
  customerView('d', {
    name: 'Gone',
    movements: [move('2026-01-01', 'new', 900), move('2026-04-01', 'churn', -900)],
  }),
]);
const query = { today: d('2026-11-23'), baseCurrency: 'usd', customers: null, search: null };

describe('concentrationReport', () => {
  it('ranks paying customers by MRR with their running share', () => {
    const report = concentrationReport(snapshot, query, fx);
    // a 5000, b 3000, c 1600 EUR x 1.25 = 2000; d churned. Total 10000.
    expect(report.pareto).toEqual([
      { rank: 1, id: 'a', name: 'Alpha', mrr: 5000, cumulative_mrr: 5000, cumulative_pct: 50 },
      { rank: 2, id: 'b', name: 'Beta', mrr: 3000, cumulative_mrr: 8000, cumulative_pct: 80 },
      { rank: 3, id: 'c', name: 'Gamma', mrr: 2000, cumulative_mrr: 10000, cumulative_pct: 100 },
    ]);
    expect(report.list.map((row) => [row.id, row.share_pct])).toEqual([
      ['a', 50],
      ['b', 30],
      ['c', 20],
    ]);
    // Top 1 = 50 %; top 5, 10, 20 hold all three; the top 10 % of 3 customers is 1 customer.
    expect(report.concentration).toEqual({
      top_1_pct: 50,
      top_5_pct: 100,
      top_10_pct: 100,
      top_20_pct: 100,
      top_10_percent_pct: 50,
    });
    expect(report.count).toBe(3);
    expect(report.summary).toEqual({ total_mrr: 10000, customers: 3 });
  });

  it('has null shares, not NaN, when nobody pays', () => {
    const report = concentrationReport(snapshot, { ...query, search: 'gone' }, fx);
    expect(report).toEqual({
      pareto: [],
      list: [],
      count: 0,
      summary: { total_mrr: 0, customers: 0 },
      concentration: {
        top_1_pct: null,
        top_5_pct: null,
        top_10_pct: null,
        top_20_pct: null,
        top_10_percent_pct: null,
      },
    });
  });

  it('keeps only the filtered customers', () => {
    const report = concentrationReport(snapshot, { ...query, customers: Uint8Array.of(1, 0, 1, 0) }, fx);
    // b 3000 and c 2000: total 5000.
    expect(report.pareto.map((row) => [row.id, row.cumulative_pct])).toEqual([
      ['b', 60],
      ['c', 100],
    ]);
  });
});
