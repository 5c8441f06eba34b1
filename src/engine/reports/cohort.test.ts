import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { customerView } from '../../../test/helpers/customer-view.js';
import { move } from '../../../test/helpers/movements.js';
import { buildAccountSnapshot, mrrOn } from '../account-snapshot.js';
import { lineTimeline } from '../../../test/helpers/line-timeline.js';
import { dayNumber as d } from '../days.js';
import { FxTable } from '../fx-table.js';
import { type Interval, periodsBetween, periodStart } from '../periods.js';
import { roundCents } from '../rounding.js';
import { type CohortPeriod, cohortChart, cohortReport, type CohortQuery } from './cohort.js';
import { mrrReport } from './mrr.js';

// EUR -> USD: 1.10 in January 2024, 1.20 in February and March, 1.25 from April.
const fx = FxTable.build([
  { day: '2024-01-01', currency: 'usd', perEur: 1.1 },
  { day: '2024-02-01', currency: 'usd', perEur: 1.2 },
  { day: '2024-04-01', currency: 'usd', perEur: 1.25 },
]);

// Today is Apr 15, 2024: April is unfinished.
//   A (USD, US): new Jan 10 10000, +5000 Feb 15, churns Mar 20, reactivates Apr 5 at 8000.
//   B (EUR, DE): new Jan 20 10000 EUR, never changes.
//   C (USD, no country): new Jan 25 4000, churns Jan 28: in the January cohort, paying at no period end.
//   D (USD, US): new Mar 3 6000, down to 3000 on Apr 10.
//   E (USD, US): new Apr 2 2000.
//   F started in December 2023, before the range; G never paid; H starts after today: none is in a cohort.
const snapshot = buildAccountSnapshot(1, [
  customerView('A', {
    country: 'US',
    firstPaidDay: d('2024-01-10'),
    movements: [
      move('2024-01-10', 'new', 10000),
      move('2024-02-15', 'expansion', 5000),
      move('2024-03-20', 'churn', -15000),
      move('2024-04-05', 'reactivation', 8000),
    ],
  }),
  customerView('B', {
    country: 'DE',
    currency: 'eur',
    firstPaidDay: d('2024-01-20'),
    movements: [move('2024-01-20', 'new', 10000)],
  }),
  customerView('C', {
    firstPaidDay: d('2024-01-25'),
    movements: [move('2024-01-25', 'new', 4000), move('2024-01-28', 'churn', -4000)],
  }),
  customerView('D', {
    country: 'US',
    firstPaidDay: d('2024-03-03'),
    movements: [move('2024-03-03', 'new', 6000), move('2024-04-10', 'contraction', -3000)],
  }),
  customerView('E', {
    country: 'US',
    firstPaidDay: d('2024-04-02'),
    movements: [move('2024-04-02', 'new', 2000)],
  }),
  customerView('F', { firstPaidDay: d('2023-12-15'), movements: [move('2023-12-15', 'new', 3000)] }),
  customerView('G'),
  customerView('H', { firstPaidDay: d('2024-04-20'), movements: [move('2024-04-20', 'new', 9000)] }),
]);

const query: CohortQuery = {
  today: d('2024-04-15'),
  from: d('2024-01-01'),
  to: d('2024-04-30'),
  interval: 'month',
  baseCurrency: 'usd',
  fixFx: false,
  customers: null,
  breakdown: null,
};

/** A period's fields in a fixed order: mrr, customers, then retention, relative and their churns. */
const row = (period: CohortPeriod) => [
  period.mrr_retained,
  period.customers_retained,
  period.mrr_retention,
  period.customer_retention,
  period.mrr_retention_relative,
  period.customer_retention_relative,
  period.mrr_churn,
  period.customer_churn,
  period.mrr_churn_relative,
  period.customer_churn_relative,
];

describe('cohortReport', () => {
  const report = cohortReport(snapshot, query, fx);

  it('groups customers by the month of their first paid day, read at each month end (today for April)', () => {
    expect(
      report.cohorts.map(({ cohort_group, label, initial_mrr, initial_customers }) => [
        cohort_group,
        label,
        initial_mrr,
        initial_customers,
      ]),
    ).toEqual([
      // Jan 31: A 10000 + B 10000 EUR x 1.10 = 21000; C joined but no longer pays: 3 customers.
      ['2024-01-01', '2024-01', 21000, 3],
      // Nobody started in February: the cohort stays, with zeros.
      ['2024-02-01', '2024-02', 0, 0],
      ['2024-03-01', '2024-03', 6000, 1],
      ['2024-04-01', '2024-04', 2000, 1],
    ]);
  });

  it('works out every period field of the January cohort by hand', () => {
    expect(report.cohorts[0]!.periods.map(row)).toEqual([
      // Jan 31: 21000 of 21000 = 100 %; 2 of 3 customers pay = 66.67 %. Period 0 compares
      // with the start, so the relatives equal the retentions.
      [21000, 2, 100, 66.67, 100, 66.67, 0, 33.33, 0, 33.33],
      // Feb 29: A 15000 + B 10000 x 1.20 = 27000. 27000 / 21000 = 128.57 %, churn 100 - 128.57
      // = -28.57; relative to January also 128.57; customers 2 of 3, and 2 of the 2 of January.
      [27000, 2, 128.57, 66.67, 128.57, 100, -28.57, 33.33, -28.57, 0],
      // Mar 31: A churned; B 12000. 12000 / 21000 = 57.14 %; 12000 / 27000 = 44.44 %;
      // 1 of 3 = 33.33 %, 1 of 2 = 50 %.
      [12000, 1, 57.14, 33.33, 44.44, 50, 42.86, 66.67, 55.56, 50],
      // Apr 15 (today): A reactivated at 8000 counts again; B 10000 x 1.25 = 12500; 20500.
      // 20500 / 21000 = 97.62 %; 20500 / 12000 = 170.83 %; 2 of 3; 2 of 1 = 200 %.
      [20500, 2, 97.62, 66.67, 170.83, 200, 2.38, 33.33, -70.83, -100],
    ]);
    expect(report.cohorts[0]!.periods.map((period) => period.nrr)).toEqual([100, 128.57, 57.14, 97.62]);
  });

  it('keeps an empty cohort with zeros, and reads the later cohorts up to today', () => {
    const zeros = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    expect(report.cohorts[1]!.periods.map(row)).toEqual([zeros, zeros, zeros]);
    expect(report.cohorts[2]!.periods.map(row)).toEqual([
      [6000, 1, 100, 100, 100, 100, 0, 0, 0, 0],
      // Apr 15: D contracted to 3000, half of its start.
      [3000, 1, 50, 100, 50, 100, 50, 0, 50, 0],
    ]);
    expect(report.cohorts[3]!.periods.map(row)).toEqual([[2000, 1, 100, 100, 100, 100, 0, 0, 0, 0]]);
  });

  it('averages the cohorts that reached each period, weighted by their size', () => {
    expect(report.average.cohort_group).toBe('average');
    expect(report.average.periods.map(row)).toEqual([
      // All 4 cohorts: (21000 + 0 + 6000 + 2000) / 4 = 7250; (2 + 0 + 1 + 1) / 4 = 1 customer;
      // retention 29000 / 29000 = 100 %; customers 4 of (3 + 0 + 1 + 1) = 80 %.
      [7250, 1, 100, 80, 100, 80, 0, 20, 0, 20],
      // January, February, March: (27000 + 0 + 3000) / 3 = 10000; 30000 / (21000 + 6000) =
      // 111.11 %; 3 of 4 customers = 75 %; relative 30000 / 27000 = 111.11 %, 3 of 3.
      [10000, 1, 111.11, 75, 111.11, 100, -11.11, 25, -11.11, 0],
      // January, February: 12000 / 2 = 6000; 0.5 customers; 12000 / 21000; 1 of 3; 12000 / 27000; 1 of 2.
      [6000, 0.5, 57.14, 33.33, 44.44, 50, 42.86, 66.67, 55.56, 50],
      // January alone.
      [20500, 2, 97.62, 66.67, 170.83, 200, 2.38, 33.33, -70.83, -100],
    ]);
  });

  it('gives the bounds of the percentages of the cohorts with customers', () => {
    // Customer retention: Jan 66.67, 66.67, 33.33, 66.67; Mar 100, 100; Apr 100.
    // MRR retention: Jan 100, 128.57, 57.14, 97.62; Mar 100, 50; Apr 100. Churns are 100 minus them.
    expect(report.limits).toEqual({
      retention: { min: 33.33, max: 100 },
      nrr: { min: 50, max: 128.57 },
      churn: { min: 0, max: 66.67 },
      netChurn: { min: -28.57, max: 50 },
    });
  });

  it('with fixFx converts a cohort at the rate of its first day', () => {
    const fixed = cohortReport(snapshot, { ...query, fixFx: true }, fx);
    // January's rate 1.10 throughout: B is 11000 in every period.
    // Jan 21000; Feb 15000 + 11000; Mar 11000; Apr 8000 + 11000.
    expect(fixed.cohorts[0]!.periods.map((period) => period.mrr_retained)).toEqual([
      21000, 26000, 11000, 19000,
    ]);
    expect(fixed.cohorts[0]!.periods[1]!.mrr_retention).toBe(123.81); // 26000 / 21000
  });

  it('has period 0 equal to the new MRR of its customers plus their other movements of that period', () => {
    const january = mrrReport(
      snapshot.movements,
      { ...query, committed: false, to: d('2024-01-31') },
      fx,
    )[0]!;
    // New in January: A 10000 + B 11000 + C 4000 = 25000; C's churn -4000 leaves 21000.
    expect([january.new, january.churn]).toEqual([25000, -4000]);
    expect(report.cohorts[0]!.periods[0]!.mrr_retained).toBe(january.new + january.churn);
    // March: D's new MRR is all of the cohort's period 0.
    const march = mrrReport(
      snapshot.movements,
      { ...query, committed: false, from: d('2024-03-01'), to: d('2024-03-31') },
      fx,
    )[0]!;
    expect(report.cohorts[2]!.periods[0]!.mrr_retained).toBe(march.new);
  });

  it('counts only the customers the filters keep', () => {
    // Only A and D (indexes 0 and 3).
    const kept = Uint8Array.from([1, 0, 0, 1, 0, 0, 0, 0]);
    const filtered = cohortReport(snapshot, { ...query, customers: kept }, fx);
    expect(filtered.cohorts.map((cohort) => [cohort.initial_mrr, cohort.initial_customers])).toEqual([
      [10000, 1],
      [0, 0],
      [6000, 1],
      [0, 0],
    ]);
  });

  it('with a breakdown pools each value from every customer own start', () => {
    const byCurrency = cohortReport(snapshot, { ...query, breakdown: 'currency' }, fx);
    expect(
      byCurrency.cohorts.map(({ cohort_group, label, initial_mrr, initial_customers }) => [
        cohort_group,
        label,
        initial_mrr,
        initial_customers,
      ]),
    ).toEqual([
      // B alone: 10000 EUR x 1.10 on Jan 31.
      ['eur', 'eur', 11000, 1],
      // A and C from January, D from March, E from April: 10000 + 6000 + 2000, 4 customers.
      ['usd', 'usd', 18000, 4],
    ]);
    expect(byCurrency.cohorts[1]!.periods.map(row)).toEqual([
      // Every member: 18000 of 18000; 3 of 4 customers pay (C does not).
      [18000, 3, 100, 75, 100, 75, 0, 25, 0, 25],
      // January's and March's reached a second period: A 15000 + D 3000 = 18000 of their
      // start 10000 + 6000 = 112.5 %; 2 of 3 customers; relative 18000 / 16000, 2 of 2.
      [18000, 2, 112.5, 66.67, 112.5, 100, -12.5, 33.33, -12.5, 0],
      // January's alone: A churned: 0 of 10000; 0 of 2; 0 of the 15000 and the 1 before.
      [0, 0, 0, 0, 0, 0, 100, 100, 100, 100],
      // A reactivated: 8000 of 10000; 1 of 2; relative to 0 there is nothing to compare with.
      [8000, 1, 80, 50, 0, 0, 20, 50, 0, 0],
    ]);
    // B: 11000, then 12000 (10000 x 1.20) = 109.09 %, 12000, 12500 = 113.64 %.
    expect(
      byCurrency.cohorts[0]!.periods.map((period) => [period.mrr_retained, period.mrr_retention]),
    ).toEqual([
      [11000, 100],
      [12000, 109.09],
      [12000, 109.09],
      [12500, 113.64],
    ]);
    // Both values reach every period: the average is their mean, (11000 + 18000) / 2 = 14500.
    expect(byCurrency.average.periods[0]).toMatchObject({
      mrr_retained: 14500,
      customers_retained: 2,
      customer_retention: 80,
    });
  });

  it('puts the customers without a breakdown value last, and a value only as far as its oldest start reaches', () => {
    const byCountry = cohortReport(snapshot, { ...query, breakdown: 'country' }, fx);
    expect(
      byCountry.cohorts.map((cohort) => [
        cohort.cohort_group,
        cohort.label,
        cohort.initial_customers,
        cohort.periods.length,
      ]),
    ).toEqual([
      ['DE', 'DE', 1, 4],
      ['US', 'US', 3, 4],
      ['', 'Not set', 1, 4],
    ]);
    const onlyLate = cohortReport(
      snapshot,
      { ...query, breakdown: 'country', customers: Uint8Array.from([0, 0, 0, 1, 1, 0, 0, 0]) },
      fx,
    );
    // D started in March: the US cohort has two periods, March's and April's.
    expect(onlyLate.cohorts.map((cohort) => [cohort.cohort_group, cohort.periods.length])).toEqual([
      ['US', 2],
    ]);
  });

  it('aggregates daily cohorts weekly, labelled by ISO week', () => {
    const range = { from: d('2024-01-08'), to: d('2024-01-21') };
    const weekly = cohortReport(snapshot, { ...query, ...range, interval: 'week' }, fx);
    expect(cohortReport(snapshot, { ...query, ...range, interval: 'day' }, fx)).toEqual(weekly);
    // A started in the week of Monday Jan 8, B in the next; both read on Sundays (Jan 14, Jan 21).
    expect(
      weekly.cohorts.map((cohort) => [
        cohort.cohort_group,
        cohort.label,
        cohort.initial_mrr,
        cohort.periods.map((period) => period.mrr_retained),
      ]),
    ).toEqual([
      ['2024-01-08', '2024-W02', 10000, [10000, 10000]],
      ['2024-01-15', '2024-W03', 11000, [11000]],
    ]);
    // An ISO week belongs to the year of its Thursday.
    const empty = buildAccountSnapshot(1, []);
    const labels = (from: string, to: string) =>
      cohortReport(
        empty,
        { ...query, interval: 'week', from: d(from), to: d(to), today: d(to) },
        fx,
      ).cohorts.map((cohort) => cohort.label);
    expect(labels('2020-12-28', '2021-01-04')).toEqual(['2020-W53', '2021-W01']);
    expect(labels('2024-12-30', '2025-01-06')).toEqual(['2025-W01', '2025-W02']);
  });

  it('groups by quarter and by year', () => {
    const quarters = cohortReport(snapshot, { ...query, interval: 'quarter' }, fx);
    expect(
      quarters.cohorts.map((cohort) => [
        cohort.label,
        cohort.initial_customers,
        cohort.periods.map((period) => [period.mrr_retained, period.mrr_retention]),
      ]),
    ).toEqual([
      // A, B, C and D, read on Mar 31: 0 + 12000 + 0 + 6000; on Apr 15: 8000 + 12500 + 0 + 3000
      // = 23500, 23500 / 18000 = 130.56 %.
      [
        '2024-Q1',
        4,
        [
          [18000, 100],
          [23500, 130.56],
        ],
      ],
      ['2024-Q2', 1, [[2000, 100]]],
    ]);
    const years = cohortReport(snapshot, { ...query, interval: 'year' }, fx);
    // Everyone from A to E, read today: 8000 + 12500 + 0 + 3000 + 2000.
    expect(
      years.cohorts.map((cohort) => [cohort.label, cohort.initial_customers, cohort.initial_mrr]),
    ).toEqual([['2024', 5, 25500]]);
  });

  it('has no cohort when the range starts after today', () => {
    const future = cohortReport(snapshot, { ...query, from: d('2024-05-01'), to: d('2024-06-30') }, fx);
    expect(future).toEqual({
      cohorts: [],
      average: {
        cohort_group: 'average',
        label: 'Average',
        initial_mrr: 0,
        initial_customers: 0,
        periods: [],
      },
      limits: {
        retention: { min: 0, max: 0 },
        nrr: { min: 0, max: 0 },
        churn: { min: 0, max: 0 },
        netChurn: { min: 0, max: 0 },
      },
    });
  });
});

describe('cohortChart', () => {
  it('lays the cohorts out by period, the average last', () => {
    const chart = cohortChart(cohortReport(snapshot, { ...query, breakdown: 'currency' }, fx));
    expect(chart.map((period) => period.period)).toEqual([0, 1, 2, 3]);
    expect(chart[0]).toEqual({
      period: 0,
      breakdown: {
        eur: {
          label: 'eur',
          mrr_retained: 11000,
          customers_retained: 1,
          mrr_retention: 100,
          customer_retention: 100,
        },
        usd: {
          label: 'usd',
          mrr_retained: 18000,
          customers_retained: 3,
          mrr_retention: 100,
          customer_retention: 75,
        },
        average: {
          label: 'Average',
          mrr_retained: 14500,
          customers_retained: 2,
          mrr_retention: 100,
          customer_retention: 80,
        },
      },
    });
  });

  it('leaves out the cohorts that have not reached a period', () => {
    const chart = cohortChart(cohortReport(snapshot, query, fx));
    expect(Object.keys(chart[3]!.breakdown)).toEqual(['2024-01-01', 'average']);
    expect(chart[3]!.breakdown['2024-01-01']!.label).toBe('2024-01');
  });
});

describe('cohortReport properties', () => {
  const base = d('2024-01-01');
  const customerArb = fc.record({
    currency: fc.constantFrom('usd', 'eur'),
    country: fc.constantFrom('US', 'DE', null),
    kept: fc.boolean(),
    lines: fc.array(
      fc.record({
        start: fc.integer({ min: 0, max: 120 }),
        length: fc.integer({ min: 5, max: 60 }),
        amount: fc.integer({ min: 1, max: 99_999 }),
      }),
      { maxLength: 5 },
    ),
  });
  const caseArb = fc.record({
    customers: fc.array(customerArb, { minLength: 1, maxLength: 8 }),
    fixFx: fc.boolean(),
    filtered: fc.boolean(),
    interval: fc.constantFrom<Interval>('day', 'week', 'month', 'quarter'),
    from: fc.integer({ min: 0, max: 60 }),
    to: fc.integer({ min: 30, max: 200 }),
    today: fc.integer({ min: 20, max: 180 }),
  });

  type CaseCustomer = typeof customerArb extends fc.Arbitrary<infer C> ? C : never;

  /** Customer views from invoice lines, through the engine's own timeline. */
  const viewsOf = (customers: readonly CaseCustomer[]) =>
    customers.map((customer, index) => {
      const timeline = lineTimeline(String(index), customer.currency, customer.lines, base, fx);
      return customerView(String(index), {
        currency: customer.currency,
        country: customer.country,
        firstPaidDay: timeline.points.find((point) => point.mrr > 0)?.day ?? null,
        movements: timeline.movements,
      });
    });

  it('matches a customer-by-customer recount, and period 0 bridges with the MRR report', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const views = viewsOf(c.customers);
        const accountSnapshot = buildAccountSnapshot(1, views);
        const kept = c.filtered ? Uint8Array.from(c.customers, (customer) => (customer.kept ? 1 : 0)) : null;
        const cohortQuery: CohortQuery = {
          ...query,
          today: base + c.today,
          from: base + c.from,
          to: base + c.from + c.to,
          interval: c.interval,
          fixFx: c.fixFx,
          customers: kept,
        };
        const report = cohortReport(accountSnapshot, cohortQuery, fx);
        const interval = c.interval === 'day' ? 'week' : c.interval;
        const end = Math.min(cohortQuery.to, cohortQuery.today);
        const periods =
          cohortQuery.from > end
            ? []
            : periodsBetween(periodStart(cohortQuery.from, interval), end, interval);
        expect(report.cohorts.length).toBe(periods.length);

        periods.forEach((period, start) => {
          const cohort = report.cohorts[start]!;
          const members = views.filter(
            (view, index) =>
              (kept === null || kept[index] === 1) &&
              view.firstPaidDay !== null &&
              view.firstPaidDay >= period.start &&
              view.firstPaidDay <= period.end,
          );
          expect(cohort.initial_customers).toBe(members.length);
          // Recount: each member's MRR on each later period's read day, converted and added up.
          cohort.periods.forEach((cell, k) => {
            const day = periods[start + k]!.end;
            const rateDay = c.fixFx ? period.start : day;
            const paying = members.filter((view) => mrrOn(view, day) > 0);
            const mrr = paying.reduce(
              (sum, view) => sum + fx.convert(mrrOn(view, day), view.currency, 'usd', rateDay),
              0,
            );
            expect(cell.mrr_retained).toBe(roundCents(mrr));
            expect(cell.customers_retained).toBe(paying.length);
          });

          // The MRR report over the cohort's first period and customers: its opening is 0, so
          // its closing total is period 0, and that is new + the other movements + fx_adjustment.
          const mask = Uint8Array.from(views, (view) => (members.includes(view) ? 1 : 0));
          const row = mrrReport(
            accountSnapshot.movements,
            {
              ...cohortQuery,
              committed: false,
              interval,
              from: period.start,
              to: period.end,
              fixFx: false,
              customers: mask,
            },
            fx,
          )[0]!;
          expect(row.new_customers).toBe(cohort.initial_customers);
          if (!c.fixFx) {
            expect(cohort.periods[0]!.mrr_retained).toBe(row.total_mrr);
            expect(cohort.periods[0]!.customers_retained).toBe(row.total_customers);
            expect(
              row.new + row.expansion + row.contraction + row.churn + row.reactivation + row.fx_adjustment,
            ).toBe(cohort.periods[0]!.mrr_retained);
          }
        });

        // The average is the mean of the cohorts that reached each period.
        report.average.periods.forEach((cell, k) => {
          const reached = report.cohorts.filter((cohort) => cohort.periods.length > k);
          const sum = (pick: (period: CohortPeriod) => number) =>
            reached.reduce((total, cohort) => total + pick(cohort.periods[k]!), 0);
          expect(
            Math.abs(cell.mrr_retained * reached.length - sum((p) => p.mrr_retained)),
          ).toBeLessThanOrEqual(reached.length);
          // Two decimals: at most half a hundredth off.
          expect(
            Math.abs(cell.customers_retained - sum((p) => p.customers_retained) / reached.length),
          ).toBeLessThanOrEqual(0.005 + 1e-9);
        });

        // A breakdown regroups the same customers.
        const byCountry = cohortReport(accountSnapshot, { ...cohortQuery, breakdown: 'country' }, fx);
        const customersOf = (cohorts: typeof report.cohorts) =>
          cohorts.reduce((sum, cohort) => sum + cohort.initial_customers, 0);
        expect(customersOf(byCountry.cohorts)).toBe(customersOf(report.cohorts));
      }),
      { numRuns: 200 },
    );
  });
});
