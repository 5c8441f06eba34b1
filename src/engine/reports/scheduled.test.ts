import { describe, expect, it } from 'vitest';
import { dayNumber as d } from '../days.js';
import { FxTable } from '../fx-table.js';
import { fallbackSubtype } from '../movement-subtypes.js';
import { buildSnapshot } from '../snapshot.js';
import type { Movement, MovementKind } from '../types.js';
import { cmrrSummary, committedMrrOn } from './cmrr-summary.js';
import { knownSince } from './scheduled.js';
import { scheduledChurnSeries } from './scheduled-churn-series.js';
import { scheduledChurnSummary } from './scheduled-churn-summary.js';
import { totalsOn } from './totals.js';

// USD per EUR: 1.10 from Jan 1 2024, 1.20 from Dec 1 2024, and a rate loaded for Mar 1 2025 (1.50)
// so that converting at a movement's own day and at a fixed day differ.
const fx = FxTable.build([
  { day: '2024-01-01', currency: 'usd', perEur: 1.1 },
  { day: '2024-12-01', currency: 'usd', perEur: 1.2 },
  { day: '2025-03-01', currency: 'usd', perEur: 1.5 },
]);
const move = (day: string, kind: MovementKind, amount: number): Movement => ({
  day: d(day),
  kind,
  subtype: fallbackSubtype(kind),
  amount,
  scheduled: false,
  knownDay: null,
});
const planned = (day: string, kind: MovementKind, amount: number, known: string | null): Movement => ({
  ...move(day, kind, amount),
  scheduled: true,
  knownDay: known === null ? null : d(known),
});

// Today is Dec 31 2024. Days back: 30 -> Dec 1, 60 -> Nov 1, 180 -> Jul 4, 365 -> Jan 1 2024.
const today = d('2024-12-31');
const snapshot = buildSnapshot([
  // A cancels on Jan 15, as asked on Nov 20.
  {
    id: 'A',
    currency: 'usd',
    movements: [move('2024-06-01', 'new', 10000), planned('2025-01-15', 'churn', -10000, '2024-11-20')],
  },
  // B pays 100 EUR and cancels on Feb 10, as asked on Oct 20.
  {
    id: 'B',
    currency: 'eur',
    movements: [move('2024-03-01', 'new', 10000), planned('2025-02-10', 'churn', -10000, '2024-10-20')],
  },
  // C downgrades on Jan 5 (asked when, the record does not say) and cancels on Mar 1, as asked on Jun 15.
  {
    id: 'C',
    currency: 'usd',
    movements: [
      move('2024-01-10', 'new', 20000),
      planned('2025-01-05', 'contraction', -5000, null),
      planned('2025-03-01', 'churn', -15000, '2024-06-15'),
    ],
  },
  // D's cancellation on Dec 10 (asked on Nov 25) has happened.
  {
    id: 'D',
    currency: 'usd',
    movements: [move('2024-05-01', 'new', 8000), planned('2024-12-10', 'churn', -8000, '2024-11-25')],
  },
  // E cancels on Jan 20; when it was asked is unknown, so it counts as known today.
  {
    id: 'E',
    currency: 'usd',
    movements: [move('2024-09-01', 'new', 3000), planned('2025-01-20', 'churn', -3000, null)],
  },
  // F upgrades on Jan 10.
  {
    id: 'F',
    currency: 'usd',
    movements: [move('2024-02-01', 'new', 4000), planned('2025-01-10', 'expansion', 1000, null)],
  },
]);
const query = { today, baseCurrency: 'usd', fixFx: false, customers: null };

describe('knownSince', () => {
  it('is the requested day, never after today, and today when unknown', () => {
    expect(knownSince(d('2024-11-20'), today)).toBe(d('2024-11-20'));
    expect(knownSince(d('2025-02-01'), today)).toBe(today);
    expect(knownSince(null, today)).toBe(today);
  });
});

describe('scheduledChurnSummary', () => {
  it('sums the cancellations known on each day and effective after it, negative, at that day rate', () => {
    expect(scheduledChurnSummary(snapshot, query, fx)).toEqual({
      // Dec 31: A -10000, B -10000 EUR x 1.20 = -12000, C -15000, E -3000 (known today) = -40000.
      churn_current: -40000,
      // Dec 1: A -10000, B -12000, C -15000, D -8000 (Dec 10 was still ahead) = -45000.
      churn_30: -45000,
      // Nov 1: B -10000 x 1.10 = -11000, C -15000 = -26000 (A and D were asked later).
      churn_60: -26000,
      // Jul 4: only C, asked on Jun 15.
      churn_180: -15000,
      // Jan 1 2024: nothing was asked yet.
      churn_365: 0,
    });
  });

  it('with fixFx converts every day at the rate of today, and filters customers', () => {
    // Nov 1: B -10000 x 1.20 = -12000, C -15000 = -27000.
    expect(scheduledChurnSummary(snapshot, { ...query, fixFx: true }, fx).churn_60).toBe(-27000);
    const onlyB = Uint8Array.of(0, 1, 0, 0, 0, 0);
    expect(scheduledChurnSummary(snapshot, { ...query, customers: onlyB }, fx)).toEqual({
      churn_current: -12000,
      churn_30: -12000,
      churn_60: -11000,
      churn_180: 0,
      churn_365: 0,
    });
  });
});

describe('cmrrSummary', () => {
  it('adds to the MRR of each day the movements known then and effective after it', () => {
    expect(cmrrSummary(snapshot, query, fx)).toEqual({
      // Dec 31: every plan is known; only F stays, 4000 + 1000 = 5000.
      cmrr_current: 5000,
      // Dec 1: A 0, B 0, C 20000 - 15000 = 5000 (the downgrade unknown yet), D 0, E 3000, F 4000 = 12000.
      cmrr_30: 12000,
      // Nov 1: A 10000, B 0, C 5000, D 8000, E 3000, F 4000 = 30000.
      cmrr_60: 30000,
      // Jul 4: A 10000, B 10000 EUR x 1.10 = 11000, C 5000, D 8000, F 4000 = 38000.
      cmrr_180: 38000,
      cmrr_365: 0,
    });
    // With fixFx, B at 1.20: 39000.
    expect(cmrrSummary(snapshot, { ...query, fixFx: true }, fx).cmrr_180).toBe(39000);
  });

  it('is the MRR of today plus the scheduled movements after today', () => {
    const [mrr] = totalsOn(
      snapshot,
      [today],
      { baseCurrency: 'usd', customers: null, fixedRateDay: null },
      fx,
    );
    // 10000 + 12000 + 20000 + 0 + 3000 + 4000 = 49000; scheduled: -10000 - 12000 - 5000 - 15000 - 3000 + 1000.
    expect(mrr!.mrr).toBe(49000);
    expect(committedMrrOn(snapshot, today, query, today, fx)).toBe(49000 - 44000);
  });

  it('never takes a customer below zero', () => {
    // G pays 5000, invoices a 5000 expansion for Jan 1 and cancels on Feb 1 (asked Dec 15):
    // 5000 - 10000 would be -5000; committed MRR is 0, not a debt.
    const g = buildSnapshot([
      {
        id: 'G',
        currency: 'usd',
        movements: [
          move('2024-11-01', 'new', 5000),
          move('2025-01-01', 'expansion', 5000),
          planned('2025-02-01', 'churn', -10000, '2024-12-15'),
        ],
      },
      { id: 'H', currency: 'usd', movements: [move('2024-11-01', 'new', 700)] },
    ]);
    expect(committedMrrOn(g, today, query, today, fx)).toBe(700);
  });
});

describe('scheduledChurnSeries', () => {
  const series = { ...query, from: d('2024-12-01'), to: d('2025-03-31'), interval: 'month' as const };

  it('adds up the scheduled losses per period, at the rate of each day', () => {
    expect(scheduledChurnSeries(snapshot, series, fx)).toEqual([
      // December is over up to today: D's cancellation is history, not a plan.
      {
        date: '2024-12-01',
        churn: 0,
        contraction: 0,
        churn_customers: 0,
        contraction_customers: 0,
        total_mrr: 0,
        total_customers: 0,
      },
      // C -5000 on the 5th; A -10000 on the 15th, E -3000 on the 20th. F's upgrade is no loss.
      {
        date: '2025-01-01',
        churn: -13000,
        contraction: -5000,
        churn_customers: 2,
        contraction_customers: 1,
        total_mrr: -18000,
        total_customers: 3,
      },
      // B -10000 EUR on Feb 10 at 1.20.
      {
        date: '2025-02-01',
        churn: -12000,
        contraction: 0,
        churn_customers: 1,
        contraction_customers: 0,
        total_mrr: -12000,
        total_customers: 1,
      },
      {
        date: '2025-03-01',
        churn: -15000,
        contraction: 0,
        churn_customers: 1,
        contraction_customers: 0,
        total_mrr: -15000,
        total_customers: 1,
      },
    ]);
  });

  it('with fixFx converts at the rate of the last day, and filters customers', () => {
    // B at the Mar 31 rate, 1.50: -15000.
    expect(scheduledChurnSeries(snapshot, { ...series, fixFx: true }, fx)[2]!.churn).toBe(-15000);
    const onlyC = Uint8Array.of(0, 0, 1, 0, 0, 0);
    const rows = scheduledChurnSeries(snapshot, { ...series, customers: onlyC, interval: 'quarter' }, fx);
    // Quarters cut to the range: Dec 1-31, then Q1 2025 with C's -5000 and -15000.
    expect(
      rows.map((row) => [row.date, row.churn, row.contraction, row.total_mrr, row.total_customers]),
    ).toEqual([
      ['2024-12-01', 0, 0, 0, 0],
      ['2025-01-01', -15000, -5000, -20000, 1],
    ]);
  });
});
