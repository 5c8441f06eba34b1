import { describe, expect, it } from 'vitest';
import { dayNumber as d } from '../days.js';
import { FxTable } from '../fx-table.js';
import { buildSnapshot } from '../snapshot.js';
import { move } from '../../../test/helpers/movements.js';
import { percentageChange, summaryReport } from './summary.js';

const fx = FxTable.build([
  { day: '2024-01-01', currency: 'usd', perEur: 1.1 },
  { day: '2024-12-01', currency: 'usd', perEur: 1.2 },
]);

// Today is Dec 31 2024. Days back: 30 -> Dec 1, 60 -> Nov 1, 180 -> Jul 4, 365 -> Jan 1 2024 (a leap year).
const snapshot = buildSnapshot([
  {
    id: 'A',
    currency: 'usd',
    movements: [move('2024-06-01', 'new', 10000), move('2024-11-15', 'expansion', 5000)],
  },
  { id: 'B', currency: 'eur', movements: [move('2024-12-10', 'new', 10000)] },
]);

describe('summaryReport', () => {
  it('gives each figure now and 30, 60, 180 and 365 days ago, with percentage changes', () => {
    const summary = summaryReport(
      snapshot,
      { today: d('2024-12-31'), baseCurrency: 'usd', fixFx: false, customers: null },
      fx,
    );
    // Now: A 15000 + B 10000 EUR x 1.20 = 27000, 2 subscribers, ARPA 13500.
    // Dec 1: A 15000 (B not yet); Nov 1: A 10000; Jul 4: A 10000; Jan 1: nothing.
    expect(summary).toMatchObject({
      mrr_current: 27000,
      mrr_30: 15000,
      mrr_60: 10000,
      mrr_180: 10000,
      mrr_365: 0,
      arr_current: 324000,
      arr_30: 180000,
      subscribers_current: 2,
      subscribers_30: 1,
      subscribers_365: 0,
      arpa_current: 13500,
      arpa_30: 15000,
      arpa_365: null,
      // (27000 - 15000) / 15000 = 80 %; (27000 - 10000) / 10000 = 170 %; from 0: no change to speak of.
      mrr_percentage_change_30: 80,
      mrr_percentage_change_60: 170,
      mrr_percentage_change_365: null,
      subscribers_percentage_change_30: 100,
      arpa_percentage_change_30: -10,
    });
  });

  it('with fix_fx converts every day at today rate', () => {
    const summary = summaryReport(
      snapshot,
      { today: d('2024-12-31'), baseCurrency: 'eur', fixFx: true, customers: null },
      fx,
    );
    // Now: 15000 / 1.2 + 10000 = 22500; Dec 1: 12500; Jul 4: 10000 / 1.2 = 8333.33 -> 8333
    // (at Jul 4's own rate, 1.10, it would have been 9091).
    expect(summary).toMatchObject({ mrr_current: 22500, mrr_30: 12500, mrr_180: 8333 });
    const own = summaryReport(
      snapshot,
      { today: d('2024-12-31'), baseCurrency: 'eur', fixFx: false, customers: null },
      fx,
    );
    expect(own.mrr_180).toBe(9091);
  });

  it('counts only the filtered customers', () => {
    const summary = summaryReport(
      snapshot,
      { today: d('2024-12-31'), baseCurrency: 'usd', fixFx: false, customers: Uint8Array.of(0, 1) },
      fx,
    );
    expect(summary).toMatchObject({
      mrr_current: 12000,
      mrr_30: 0,
      subscribers_current: 1,
      mrr_percentage_change_30: null,
    });
  });
});

describe('percentageChange', () => {
  it('rounds to two decimals and is null from zero or from nothing', () => {
    expect(percentageChange(2, 3)).toBe(-33.33);
    expect(percentageChange(5, 0)).toBeNull();
    expect(percentageChange(null, 4)).toBeNull();
    expect(percentageChange(-5, -10)).toBe(50);
  });
});
