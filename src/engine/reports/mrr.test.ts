import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineTimeline } from '../../../test/helpers/line-timeline.js';
import { dayNumber as d } from '../days.js';
import { FxTable } from '../fx-table.js';
import { buildSnapshot } from '../snapshot.js';
import { move } from '../../../test/helpers/movements.js';
import { MOVEMENT_SUBTYPES, SUBTYPES_OF_KIND } from '../vocabulary.js';
import { mrrReport, type MrrQuery } from './mrr.js';
import { mrrSubtypesReport, SPLIT_KINDS } from './mrr-subtypes.js';

// EUR -> USD: 1.10 in January, 1.15 in February, 1.20 from March.
const fx = FxTable.build([
  { day: '2024-01-01', currency: 'usd', perEur: 1.1 },
  { day: '2024-02-01', currency: 'usd', perEur: 1.15 },
  { day: '2024-03-01', currency: 'usd', perEur: 1.2 },
]);
// A pays in USD: 10000 from Jan 10, +5000 on Feb 15. B pays in EUR: 10000 from Jan 20, churns Mar 5.
const snapshot = buildSnapshot([
  {
    id: 'A',
    currency: 'usd',
    movements: [move('2024-01-10', 'new', 10000), move('2024-02-15', 'expansion', 5000)],
  },
  {
    id: 'B',
    currency: 'eur',
    movements: [move('2024-01-20', 'new', 10000), move('2024-03-05', 'churn', -10000)],
  },
]);
const query: MrrQuery = {
  today: d('2024-12-31'),
  committed: false,
  from: d('2024-01-01'),
  to: d('2024-03-31'),
  interval: 'month',
  baseCurrency: 'usd',
  fixFx: false,
  customers: null,
};
const pick = (rows: ReturnType<typeof mrrReport>, ...fields: (keyof (typeof rows)[number])[]) =>
  rows.map((row) => Object.fromEntries(fields.map((field) => [field, row[field]])));

describe('mrrReport', () => {
  it('reports a EUR customer in USD with the rates of each day, the revaluation as fx_adjustment', () => {
    const rows = mrrReport(snapshot, query, fx);
    // Jan: new = A 10000 + B 10000 x 1.10 = 21000; total on Jan 31 = 10000 + 11000 = 21000.
    // Feb: expansion 5000; total on Feb 29 = 15000 + 10000 x 1.15 = 26500; diff 5500, so fx = 500.
    // Mar: churn = -10000 x 1.20 (Mar 5) = -12000; total 15000; diff -11500, so fx = 500 (11500 -> 12000 before the churn).
    expect(
      pick(rows, 'date', 'end_date', 'new', 'expansion', 'churn', 'fx_adjustment', 'mrr_diff', 'total_mrr'),
    ).toEqual([
      {
        date: '2024-01-01',
        end_date: '2024-01-31',
        new: 21000,
        expansion: 0,
        churn: 0,
        fx_adjustment: 0,
        mrr_diff: 21000,
        total_mrr: 21000,
      },
      {
        date: '2024-02-01',
        end_date: '2024-02-29',
        new: 0,
        expansion: 5000,
        churn: 0,
        fx_adjustment: 500,
        mrr_diff: 5500,
        total_mrr: 26500,
      },
      {
        date: '2024-03-01',
        end_date: '2024-03-31',
        new: 0,
        expansion: 0,
        churn: -12000,
        fx_adjustment: 500,
        mrr_diff: -11500,
        total_mrr: 15000,
      },
    ]);
    // Subscribers 2, 2, 1; ARPA = total / subscribers (21000 / 2, 26500 / 2, 15000 / 1); ASP = new /
    // new customers (21000 / 2, then 0 / 0 -> 0); quick ratio = gains / |losses|: 21000 / 0 -> 0,
    // 5000 / 0 -> 0, then 0 / 12000 = 0. The counts beside tell "nothing to divide" from a true 0.
    expect(
      pick(
        rows,
        'total_customers',
        'customers_diff',
        'new_customers',
        'churn_customers',
        'arpa',
        'asp',
        'quick_ratio',
        'total_arr',
      ),
    ).toEqual([
      {
        total_customers: 2,
        customers_diff: 2,
        new_customers: 2,
        churn_customers: 0,
        arpa: 10500,
        asp: 10500,
        quick_ratio: 0,
        total_arr: 252000,
      },
      {
        total_customers: 2,
        customers_diff: 0,
        new_customers: 0,
        churn_customers: 0,
        arpa: 13250,
        asp: 0,
        quick_ratio: 0,
        total_arr: 318000,
      },
      {
        total_customers: 1,
        customers_diff: -1,
        new_customers: 0,
        churn_customers: 1,
        arpa: 15000,
        asp: 0,
        quick_ratio: 0,
        total_arr: 180000,
      },
    ]);
  });

  it('with fix_fx converts everything at the rate of the last day, so fx_adjustment is 0', () => {
    const rows = mrrReport(snapshot, { ...query, fixFx: true }, fx);
    // All at 1.20: Jan new = 10000 + 12000 = 22000; Feb +5000 -> 27000; Mar churn -12000 -> 15000.
    expect(pick(rows, 'new', 'expansion', 'churn', 'fx_adjustment', 'total_mrr')).toEqual([
      { new: 22000, expansion: 0, churn: 0, fx_adjustment: 0, total_mrr: 22000 },
      { new: 0, expansion: 5000, churn: 0, fx_adjustment: 0, total_mrr: 27000 },
      { new: 0, expansion: 0, churn: -12000, fx_adjustment: 0, total_mrr: 15000 },
    ]);
  });

  it('counts only the customers of the filter, and MRR from before the range as the opening', () => {
    const rows = mrrReport(snapshot, { ...query, from: d('2024-02-01'), customers: Uint8Array.of(0, 1) }, fx);
    // B alone: opening 10000 x 1.10 (Jan 31) = 11000; Feb total 11500 (fx 500); Mar churn -12000 (fx 500).
    expect(pick(rows, 'new', 'churn', 'fx_adjustment', 'mrr_diff', 'total_mrr', 'total_customers')).toEqual([
      { new: 0, churn: 0, fx_adjustment: 500, mrr_diff: 500, total_mrr: 11500, total_customers: 1 },
      { new: 0, churn: -12000, fx_adjustment: 500, mrr_diff: -11500, total_mrr: 0, total_customers: 0 },
    ]);
  });
});

describe('mrrReport kept per snapshot', () => {
  it('makes an unfiltered query once per snapshot, and another day, range or rate table anew', () => {
    const rows = mrrReport(snapshot, query, fx);
    expect(mrrReport(snapshot, { ...query }, fx)).toBe(rows);
    expect(Object.isFrozen(rows) && rows.every((row) => Object.isFrozen(row))).toBe(true);
    expect(mrrReport(snapshot, { ...query, today: d('2024-02-01') }, fx)).not.toBe(rows);
    expect(mrrReport(snapshot, { ...query, fixFx: true }, fx)).not.toBe(rows);
    // Rates loaded again: a new table, though its rates are the same.
    const reloaded = FxTable.build([{ day: '2024-01-01', currency: 'usd', perEur: 1.1 }]);
    expect(mrrReport(snapshot, query, reloaded)).not.toBe(rows);
  });

  it('keeps no filtered or single-subtype query, which would push the shared one out', () => {
    const rows = mrrReport(snapshot, query, fx);
    const mask = Uint8Array.of(0, 1);
    const filtered = mrrReport(snapshot, { ...query, customers: mask }, fx);
    // B alone: Jan total 10000 x 1.10 = 11000, not A's and B's 21000.
    expect(filtered[0]!.total_mrr).toBe(11000);
    expect(mrrReport(snapshot, { ...query, customers: mask }, fx)).not.toBe(filtered);
    // A breakdown asks one query per value: more than the eight a snapshot keeps.
    for (let subtype = 0; subtype < MOVEMENT_SUBTYPES.length; subtype++)
      mrrReport(snapshot, { ...query, subtype }, fx);
    expect(mrrReport(snapshot, query, fx)).toBe(rows);
  });

  it('shares the split of a kind between the subtypes report and the MRR rows with subtypes', () => {
    const split = mrrSubtypesReport(snapshot, query, 'expansion', fx);
    expect(mrrSubtypesReport(snapshot, { ...query }, 'expansion', fx)).toBe(split);
    expect(mrrSubtypesReport(snapshot, query, 'churn', fx)).not.toBe(split);
  });
});

describe('mrrReport after today', () => {
  // Today is Mar 15. C has 3000 USD; a record schedules its churn for Apr 10, and D's prepaid
  // period would end Apr 20 (not scheduled: a renewal may still come).
  const future = buildSnapshot([
    {
      id: 'C',
      currency: 'usd',
      movements: [
        move('2024-01-05', 'new', 3000),
        { ...move('2024-04-10', 'churn', -3000), scheduled: true },
      ],
    },
    {
      id: 'D',
      currency: 'usd',
      movements: [move('2024-02-01', 'new', 2000), move('2024-04-20', 'churn', -2000)],
    },
  ]);
  const april = { ...query, today: d('2024-03-15'), from: d('2024-04-01'), to: d('2024-04-30') };

  it('counts nothing after today by default', () => {
    expect(pick(mrrReport(future, april, fx), 'churn', 'total_mrr')).toEqual([{ churn: 0, total_mrr: 5000 }]);
  });

  it('counts scheduled movements in committed mode, and only those', () => {
    expect(
      pick(mrrReport(future, { ...april, committed: true }, fx), 'churn', 'total_mrr', 'total_customers'),
    ).toEqual([{ churn: -3000, total_mrr: 2000, total_customers: 1 }]);
  });
});

describe('mrrReport properties', () => {
  const customerArb = fc.record({
    currency: fc.constantFrom('usd', 'eur'),
    lines: fc.array(
      fc.record({
        start: fc.integer({ min: 0, max: 120 }),
        length: fc.integer({ min: 5, max: 60 }),
        amount: fc.integer({ min: 1, max: 99_999 }),
      }),
      { maxLength: 5 },
    ),
  });

  it('holds the bridge in the base currency, sums customer MRR to the total, and subtypes to their kinds', () => {
    fc.assert(
      fc.property(
        fc.array(customerArb, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.constantFrom<'day' | 'week' | 'month'>('day', 'week', 'month'),
        (customers, fixFx, interval) => {
          const base = d('2024-01-01');
          const timelines = customers.map((customer, index) => {
            const timeline = lineTimeline(String(index), customer.currency, customer.lines, base, fx);
            return {
              id: String(index),
              currency: customer.currency,
              movements: timeline.movements,
              points: timeline.points,
            };
          });
          const snapshot = buildSnapshot(timelines);
          const rangeQuery = { ...query, interval, fixFx, from: base + 10, to: base + 150 };
          const rows = mrrReport(snapshot, rangeQuery, fx);
          // Each split kind's subtypes add up to its column exactly, period by period.
          for (const kind of SPLIT_KINDS) {
            const split = mrrSubtypesReport(snapshot, rangeQuery, kind, fx);
            const subtypes = SUBTYPES_OF_KIND[kind];
            expect(
              split.map((row) => subtypes.reduce((sum, subtype) => sum + Number(row[subtype]), 0)),
            ).toEqual(rows.map((row) => row[kind]));
          }
          // The series of breakdown=subtype add up to the report, but for each series' own rounding.
          const series = MOVEMENT_SUBTYPES.map((_, subtype) =>
            mrrReport(snapshot, { ...rangeQuery, subtype }, fx),
          );
          rows.forEach((row, period) => {
            for (const field of [
              'new',
              'expansion',
              'contraction',
              'churn',
              'reactivation',
              'total_mrr',
            ] as const) {
              const sum = series.reduce((total, rowsOfSubtype) => total + rowsOfSubtype[period]![field], 0);
              expect(Math.abs(sum - row[field])).toBeLessThanOrEqual(series.length / 2);
            }
            const customers = series.reduce(
              (total, rowsOfSubtype) => total + rowsOfSubtype[period]!.total_customers,
              0,
            );
            expect(customers).toBe(row.total_customers);
          });
          let previous: number | undefined;
          for (const row of rows) {
            const net = row.new + row.expansion + row.contraction + row.churn + row.reactivation;
            expect(row.net_mrr_diff).toBe(net);
            expect(row.mrr_diff).toBe(net + row.fx_adjustment);
            if (fixFx) expect(row.fx_adjustment).toBe(0);
            if (previous !== undefined) expect(row.total_mrr).toBe(previous + row.mrr_diff);
            previous = row.total_mrr;
          }
          // Sum of each customer's MRR on the last day, converted, equals the report's total.
          const last = rows[rows.length - 1]!;
          const day = d(last.end_date);
          const rateDay = fixFx ? base + 150 : day;
          const sum = timelines.reduce((total, customer) => {
            const point = [...customer.points].reverse().find((p) => p.day <= day);
            return total + fx.convert(point?.mrr ?? 0, customer.currency, 'usd', rateDay);
          }, 0);
          expect(Math.abs(last.total_mrr - sum)).toBeLessThanOrEqual(0.5);
        },
      ),
      { numRuns: 150 },
    );
  });
});
