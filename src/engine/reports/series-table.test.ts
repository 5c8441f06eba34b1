import { describe, expect, it } from 'vitest';
import { seriesTable } from './series-table.js';

describe('seriesTable', () => {
  it('makes each numeric field a row and each period a column, in the series order', () => {
    const rows = [
      { date: '2026-01-01', end_date: '2026-01-31', currency: 'usd', new: 1000, arpa: null },
      { date: '2026-02-01', end_date: '2026-02-28', currency: 'usd', new: 2500, arpa: 1250 },
    ];
    expect(seriesTable(rows, 'date', ['end_date'])).toEqual([
      { metric: 'new', '2026-01-01': 1000, '2026-02-01': 2500 },
      { metric: 'arpa', '2026-01-01': null, '2026-02-01': 1250 },
    ]);
  });

  it('names columns by a numeric key too, and gives no rows for an empty series', () => {
    expect(
      seriesTable(
        [
          { date: 0, cumulative_mrr: 0 },
          { date: 1, cumulative_mrr: 700 },
        ],
        'date',
      ),
    ).toEqual([{ metric: 'cumulative_mrr', '0': 0, '1': 700 }]);
    expect(seriesTable([], 'date')).toEqual([]);
  });
});
