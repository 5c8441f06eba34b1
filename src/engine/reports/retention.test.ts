import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { customerView } from '../../../test/helpers/customer-view.js';
import { move, movementsOf } from '../../../test/helpers/movements.js';
import { buildAccountSnapshot } from '../account-snapshot.js';
import type { Movement } from '../types.js';
import { dayNumber as d } from '../days.js';
import { FxTable } from '../fx-table.js';
import { monthlyRate, type RetentionQuery, retentionReport } from './retention.js';

// 1 EUR = 1.20 USD until Sep 30, 1.25 from Oct 1.
const fx = FxTable.build([
  { day: '2025-01-01', currency: 'usd', perEur: 1.2 },
  { day: '2026-10-01', currency: 'usd', perEur: 1.25 },
]);

/*
 * USD unless said, MRR in the customer's currency:
 *   a  10000 from Jan 10; +5000 on Oct 15.
 *   b  10000 from Feb 1;  -4000 on Oct 5.
 *   c   5000 from Mar 1;  churns Oct 20.
 *   d   8000 EUR from Apr 1.
 *   e   6000 from May 1;  churns Oct 2, comes back with 3000 on Oct 25.
 *   f   4000 from Oct 10 (joins inside October).
 *   g   2000 from Jun 1;  churns Aug 1, comes back with 2000 on Oct 12.
 */
const customers = [
  {
    id: 'a',
    currency: 'usd',
    movements: [move('2026-01-10', 'new', 10000), move('2026-10-15', 'expansion', 5000)],
  },
  {
    id: 'b',
    currency: 'usd',
    movements: [move('2026-02-01', 'new', 10000), move('2026-10-05', 'contraction', -4000)],
  },
  {
    id: 'c',
    currency: 'usd',
    movements: [move('2026-03-01', 'new', 5000), move('2026-10-20', 'churn', -5000)],
  },
  { id: 'd', currency: 'eur', movements: [move('2026-04-01', 'new', 8000)] },
  {
    id: 'e',
    currency: 'usd',
    movements: [
      move('2026-05-01', 'new', 6000),
      move('2026-10-02', 'churn', -6000),
      move('2026-10-25', 'reactivation', 3000),
    ],
  },
  { id: 'f', currency: 'usd', movements: [move('2026-10-10', 'new', 4000)] },
  {
    id: 'g',
    currency: 'usd',
    movements: [
      move('2026-06-01', 'new', 2000),
      move('2026-08-01', 'churn', -2000),
      move('2026-10-12', 'reactivation', 2000),
    ],
  },
];
/** The account snapshot of customers given by id, currency and movements. */
const snapshotOf = (list: readonly { id: string; currency: string; movements: Movement[] }[]) =>
  buildAccountSnapshot(
    1,
    list.map((customer) => customerView(customer.id, customer)),
  );
const snapshot = snapshotOf(customers);
const everyone = new Int32Array(customers.length);
const query: RetentionQuery = {
  today: d('2026-11-23'),
  from: d('2026-10-01'),
  to: d('2026-10-31'),
  interval: 'month',
  trailingMonths: 1,
  baseCurrency: 'usd',
  fixFx: false,
  groupOf: everyone,
  groupCount: 1,
};

describe('retentionReport', () => {
  it('follows the customers paying a month before to the period end, each amount at its own day rate', () => {
    const report = retentionReport(snapshot, query, fx);
    expect(report.baselinePeriod).toBe('2026-09-01');
    expect(report.targetPeriod).toBe('2026-10-01');
    expect(report.rows[0]).toHaveLength(1);
    // Cohort on Sep 30: a 10000, b 10000, c 5000, d 8000 EUR x 1.20 = 9600, e 6000 = 40600.
    // f joined and g came back after Sep 30: neither is in it.
    // On Oct 31 (1.25): a 15000, b 6000, c 0, d 10000, e 3000 = 34000.
    // Movements: expansion a +5000, contraction b -4000, churn c -5000 and e -6000, reactivation e +3000:
    // -7000 in all, so fx_adjustment = 34000 - 40600 + 7000 = 400 (d's 9600 -> 10000).
    // Capped at the baseline: a 10000, b 6000, c 0, d 9600 (10000 > 9600), e 3000 = 28600.
    expect(report.rows[0]![0]).toEqual({
      date: '2026-10-31',
      baseline_date: '2026-09-30',
      baseline_mrr: 40600,
      target_mrr: 34000,
      grr_mrr: 28600,
      cohort_customers: 5,
      retained_customers: 4,
      churned_customers: 1,
      expansion: 5000,
      expansion_customers: 1,
      contraction: -4000,
      contraction_customers: 1,
      churn: -11000,
      churn_customers: 2,
      reactivation: 3000,
      reactivation_customers: 1,
      fx_adjustment: 400,
      nrr: 83.74, // 34000 / 40600
      grr: 70.44, // 28600 / 40600
      customer_retention_rate: 80, // 4 / 5
      customer_churn_rate: 20,
      mrr_churn_rate: 29.56, // 12000 / 40600
      net_mrr_churn_rate: 16.26, // 6600 / 40600
      // The monthly rows of Nov 2025 to Oct 2026, of which Jan has no cohort (left out) and
      // Feb to Jul and Sep keep everything (100 %, no churn). Aug: the Jul 31 cohort a, b, c,
      // d (9600), e, g = 42600 loses g (2000): NRR = GRR = 40600 / 42600, churn 1 / 6.
      // nrr_avg = (7 + 40600/42600 + 34000/40600) / 9 = (7 + 0.953052 + 0.837438) / 9 = 97.67 %.
      nrr_avg: 97.67,
      // grr_avg = (7 + 0.953052 + 28600/40600 = 0.704433) / 9 = 96.19 %.
      grr_avg: 96.19,
      // customer_churn_avg = (1/6 + 1/5) / 9 = 11/270 = 4.07 %; retention 1 - 11/270 = 95.93 %.
      customer_retention_avg: 95.93,
      customer_churn_avg: 4.07,
      // mrr_churn_avg = (2000/42600 + 12000/40600) / 9 = (0.046948 + 0.295567) / 9 = 3.81 %.
      mrr_churn_avg: 3.81,
      // net_mrr_churn_avg = (2000/42600 + 6600/40600) / 9 = (0.046948 + 0.162562) / 9 = 2.33 %.
      net_mrr_churn_avg: 2.33,
      arpa: 8500, // 34000 / 4 retained
      ltv: 208636, // 8500 / (11/270) = 2295000 / 11 = 208636.36
      customer_lifetime: 24.55, // 270 / 11 months
    });
  });

  it('converts everything at the rate of the range end with fix_fx, without fx_adjustment', () => {
    const [row] = retentionReport(snapshot, { ...query, fixFx: true }, fx).rows[0]!;
    // All at 1.25: baseline 10000 + 10000 + 5000 + 10000 + 6000 = 41000, target 34000,
    // capped 10000 + 6000 + 0 + 10000 + 3000 = 29000; the movements -7000 are the whole change.
    expect(row).toMatchObject({
      baseline_mrr: 41000,
      target_mrr: 34000,
      grr_mrr: 29000,
      fx_adjustment: 0,
      nrr: 82.93, // 34000 / 41000
      grr: 70.73, // 29000 / 41000
    });
  });

  it('anchors the baseline trailing_months back, so cohort customers who come back are retained', () => {
    const [row] = retentionReport(snapshot, { ...query, trailingMonths: 3 }, fx).rows[0]!;
    // Baseline Jul 31: a, b, c, d (9600), e, g = 42600. g churns Aug 1 and is back on Oct 12, so it
    // counts: churn c -5000, e -6000, g -2000; reactivation e +3000, g +2000.
    // Oct 31: 15000 + 6000 + 0 + 10000 + 3000 + 2000 = 36000; capped 10000 + 6000 + 9600 + 3000 + 2000 = 30600.
    expect(row).toMatchObject({
      date: '2026-10-31',
      baseline_date: '2026-07-31',
      baseline_mrr: 42600,
      target_mrr: 36000,
      grr_mrr: 30600,
      cohort_customers: 6,
      retained_customers: 5,
      churn: -13000,
      churn_customers: 3,
      reactivation: 5000,
      reactivation_customers: 2,
      fx_adjustment: 400, // 36000 - 42600 - (5000 - 4000 - 13000 + 5000)
    });
  });

  it('cuts the last period to the range, a row per period, and groups in one pass', () => {
    const groupOf = Int32Array.from(customers, (customer) => (customer.currency === 'eur' ? 1 : 0));
    const report = retentionReport(
      snapshot,
      { ...query, from: d('2026-09-01'), to: d('2026-10-20'), groupOf, groupCount: 2 },
      fx,
    );
    const columns = (group: number) =>
      report.rows[group]!.map((row) => [row.date, row.baseline_date, row.baseline_mrr, row.target_mrr]);
    // USD customers. Sep: the Aug 31 cohort a, b, c, e = 31000 keeps it all.
    // To Oct 20 from Sep 20: a 15000, b 6000, c 0 (churned that day), e 0 (churned Oct 2) of 31000.
    expect(columns(0)).toEqual([
      ['2026-09-30', '2026-08-31', 31000, 31000],
      ['2026-10-20', '2026-09-20', 31000, 21000],
    ]);
    // d alone: 8000 EUR at 1.20 on the baseline, at 1.25 from Oct 1.
    expect(columns(1)).toEqual([
      ['2026-09-30', '2026-08-31', 9600, 9600],
      ['2026-10-20', '2026-09-20', 9600, 10000],
    ]);
    expect(report.rows[1]![1]!.grr).toBe(100);
  });

  it('has 0 rates, LTV and lifetime where there is nothing to divide by, rather than NaN or Infinity', () => {
    const report = retentionReport(snapshot, { ...query, groupOf: everyone.map(() => -1) }, fx);
    // No cohort: every rate is x / 0 and every average is over no window, so 0; the 0
    // cohort_customers beside them tells it from a cohort that lost everything.
    expect(report.rows[0]![0]).toMatchObject({
      cohort_customers: 0,
      retained_customers: 0,
      nrr: 0,
      grr: 0,
      customer_retention_rate: 0,
      customer_churn_rate: 0,
      mrr_churn_rate: 0,
      net_mrr_churn_rate: 0,
      nrr_avg: 0,
      grr_avg: 0,
      customer_churn_avg: 0,
      arpa: 0, // 0 / 0 retained
      ltv: 0,
      customer_lifetime: 0,
    });
    // d alone never churns: an ARPA, but no churn to divide it by: 10000 / 0 and 1 / 0 -> 0.
    const loyal = Int32Array.from(customers, (customer) => (customer.id === 'd' ? 0 : -1));
    expect(retentionReport(snapshot, { ...query, groupOf: loyal }, fx).rows[0]![0]).toMatchObject({
      churned_customers: 0,
      customer_churn_avg: 0,
      arpa: 10000,
      ltv: 0,
      customer_lifetime: 0,
    });
  });

  it('turns a churn rate over several months into the monthly rate that compounds to it', () => {
    // Keeping 72.9 % over 3 months is keeping 90 % a month: 0.9^3 = 0.729.
    expect(monthlyRate(0.271, 3)).toBeCloseTo(0.1, 12);
    expect(monthlyRate(0.2, 1)).toBeCloseTo(0.2, 12);
    expect(monthlyRate(null, 1)).toBeNull();
  });

  describe('properties', () => {
    const base = d('2025-01-01');
    const history = fc.record({
      currency: fc.constantFrom('usd', 'eur'),
      steps: fc.array(
        fc.record({
          day: fc.integer({ min: 0, max: 700 }),
          mrr: fc.constantFrom(0, 0, 1000, 2500, 3333, 7000),
        }),
        { maxLength: 8 },
      ),
      group: fc.integer({ min: -1, max: 2 }),
    });
    const histories = fc.array(history, { minLength: 1, maxLength: 8 });
    const historiesOf = (list: { currency: string; steps: { day: number; mrr: number }[] }[]) =>
      snapshotOf(
        list.map((customer, index) => ({
          id: String(index),
          currency: customer.currency,
          movements: movementsOf(customer.steps.map((step) => ({ day: base + step.day, mrr: step.mrr }))),
        })),
      );
    const rangeQuery = (fixFx: boolean, trailingMonths: number, interval: 'week' | 'month' | 'quarter') => ({
      ...query,
      today: base + 650,
      from: base + 380,
      to: base + 700,
      fixFx,
      trailingMonths,
      interval,
    });

    it('GRR <= NRR, GRR <= 100, and the movements bridge the baseline to the target', () => {
      fc.assert(
        fc.property(
          histories,
          fc.boolean(),
          fc.integer({ min: 1, max: 12 }),
          fc.constantFrom<'week' | 'month' | 'quarter'>('week', 'month', 'quarter'),
          (list, fixFx, trailingMonths, interval) => {
            const groupOf = Int32Array.from(list, (customer) => customer.group);
            const report = retentionReport(
              historiesOf(list),
              { ...rangeQuery(fixFx, trailingMonths, interval), groupOf, groupCount: 3 },
              fx,
            );
            for (const row of report.rows.flat()) {
              expect(row.grr_mrr).toBeLessThanOrEqual(row.baseline_mrr);
              expect(row.grr_mrr).toBeLessThanOrEqual(row.target_mrr);
              if (row.baseline_mrr > 0) {
                expect(row.grr).toBeLessThanOrEqual(100);
                expect(row.grr).toBeLessThanOrEqual(row.nrr);
                // Both figures are rounded to hundredths, so they may miss 100 by one hundredth,
                // and the sum of two binary fractions by a rounding error more (seen: 0.010000000000005).
                expect(Math.abs(row.grr + row.mrr_churn_rate - 100)).toBeLessThanOrEqual(0.01 + 1e-9);
                expect(Math.abs(row.nrr + row.net_mrr_churn_rate - 100)).toBeLessThanOrEqual(0.01 + 1e-9);
              } else {
                // Nothing to divide by: 0, never NaN.
                expect([row.nrr, row.grr, row.mrr_churn_rate, row.net_mrr_churn_rate]).toEqual([0, 0, 0, 0]);
              }
              const moved = row.expansion + row.contraction + row.churn + row.reactivation;
              expect(row.target_mrr).toBe(row.baseline_mrr + moved + row.fx_adjustment);
              if (fixFx) expect(row.fx_adjustment).toBe(0);
              expect(row.retained_customers).toBeLessThanOrEqual(row.cohort_customers);
              expect(row.churned_customers).toBeLessThanOrEqual(row.churn_customers);
              expect(row.grr_avg).toBeLessThanOrEqual(100);
              expect(row.ltv).toBeGreaterThanOrEqual(0);
              expect(Number.isFinite(row.customer_lifetime)).toBe(true);
            }
          },
        ),
        { numRuns: 150 },
      );
    });

    it('the groups add up to the whole: customers exactly, MRR up to one rounding per group', () => {
      fc.assert(
        fc.property(histories, fc.boolean(), (list, fixFx) => {
          const snapshot = historiesOf(list);
          const groupOf = Int32Array.from(list, (customer) => customer.group);
          const kept = groupOf.map((group) => (group < 0 ? -1 : 0));
          const grouped = retentionReport(
            snapshot,
            { ...rangeQuery(fixFx, 1, 'month'), groupOf, groupCount: 3 },
            fx,
          );
          const [whole] = retentionReport(
            snapshot,
            { ...rangeQuery(fixFx, 1, 'month'), groupOf: kept, groupCount: 1 },
            fx,
          ).rows;
          whole!.forEach((row, index) => {
            const parts = grouped.rows.map((series) => series[index]!);
            const sum = (field: 'cohort_customers' | 'retained_customers' | 'baseline_mrr' | 'target_mrr') =>
              parts.reduce((total, part) => total + part[field], 0);
            expect(sum('cohort_customers')).toBe(row.cohort_customers);
            expect(sum('retained_customers')).toBe(row.retained_customers);
            expect(Math.abs(sum('baseline_mrr') - row.baseline_mrr)).toBeLessThanOrEqual(1.5);
            expect(Math.abs(sum('target_mrr') - row.target_mrr)).toBeLessThanOrEqual(1.5);
          });
        }),
        { numRuns: 100 },
      );
    });
  });
});
