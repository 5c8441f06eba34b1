import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { customerView } from '../../../test/helpers/customer-view.js';
import { move, movementsOf } from '../../../test/helpers/movements.js';
import { buildAccountSnapshot } from '../account-snapshot.js';
import { breakdownGroups } from '../breakdown.js';
import type { CashflowInvoice } from '../cashflow/cashflow-data.js';
import { buildCashflowTable } from '../cashflow/cashflow-table.js';
import { dayNumber as d } from '../days.js';
import { FxTable } from '../fx-table.js';
import { type MapQuery, mapReport } from './map.js';
import { mrrReport } from './mrr.js';
import { retentionReport } from './retention.js';

// 1 EUR = 1.20 USD until Sep 30, 1.25 from Oct 1.
const fx = FxTable.build([
  { day: '2025-01-01', currency: 'usd', perEur: 1.2 },
  { day: '2026-10-01', currency: 'usd', perEur: 1.25 },
]);

/*
 * USD unless said; created Jan 1 2026 unless said.
 *   US  a 10000 from Jan 10, +5000 Oct 15;  b 10000 from Feb 1, -4000 Oct 5;
 *       f created Oct 10, 4000 from Oct 10.
 *   DE  c 5000 from Mar 1, churns Oct 20;  d 8000 EUR from Apr 1.
 *   --  e (no country) 6000 from May 1, churns Oct 2, back with 3000 on Oct 25.
 *   FR  h created Oct 5 with a trial that day, never pays;
 *       i created Oct 2 with a trial that day, 2000 from Oct 16.
 *   GB  z paid 1000 from Jan 1 to Mar 1 2025: nothing to show in 2026.
 */
const customers = [
  customerView('a', {
    country: 'US',
    movements: [move('2026-01-10', 'new', 10000), move('2026-10-15', 'expansion', 5000)],
  }),
  customerView('b', {
    country: 'US',
    movements: [move('2026-02-01', 'new', 10000), move('2026-10-05', 'contraction', -4000)],
  }),
  customerView('f', {
    country: 'US',
    createdDate: '2026-10-10T09:00:00.000Z',
    firstPaidDay: d('2026-10-10'),
    movements: [move('2026-10-10', 'new', 4000)],
  }),
  customerView('c', {
    country: 'DE',
    movements: [move('2026-03-01', 'new', 5000), move('2026-10-20', 'churn', -5000)],
  }),
  customerView('d', { country: 'DE', currency: 'eur', movements: [move('2026-04-01', 'new', 8000)] }),
  customerView('e', {
    movements: [
      move('2026-05-01', 'new', 6000),
      move('2026-10-02', 'churn', -6000),
      move('2026-10-25', 'reactivation', 3000),
    ],
  }),
  customerView('h', {
    country: 'FR',
    createdDate: '2026-10-05T10:00:00.000Z',
    trialStarted: '2026-10-05T10:00:00.000Z',
  }),
  customerView('i', {
    country: 'FR',
    createdDate: '2026-10-02T10:00:00.000Z',
    trialStarted: '2026-10-02T10:00:00.000Z',
    firstPaidDay: d('2026-10-16'),
    movements: [move('2026-10-16', 'new', 2000)],
  }),
  customerView('z', {
    country: 'GB',
    createdDate: '2025-01-01T00:00:00.000Z',
    movements: [move('2025-01-01', 'new', 1000), move('2025-03-01', 'churn', -1000)],
  }),
];
const snapshot = buildAccountSnapshot(1, customers);

const invoice = (id: string, customer: number, attempts: [string, boolean][]): CashflowInvoice => ({
  id,
  number: null,
  description: null,
  customer,
  currency: 'usd',
  day: d(attempts[0]![0]),
  dueDay: null,
  paymentDay: null,
  status: 'paid',
  total: 1000,
  transactions: attempts.map(([day, successful], n) => ({
    id: `${id}-${n}`,
    day: d(day),
    type: 'payment',
    successful,
    amount: 1000,
    paymentMethod: null,
  })),
});
// a fails on Oct 3 and pays Oct 5; b and d pay Oct 1; c's failure of Sep 10 lies before the range.
const invoices = buildCashflowTable([
  invoice('ia', 0, [
    ['2026-10-03', false],
    ['2026-10-05', true],
  ]),
  invoice('ib', 1, [['2026-10-01', true]]),
  invoice('id', 4, [['2026-10-01', true]]),
  invoice('ic', 3, [['2026-09-10', false]]),
]);

const query: MapQuery = {
  today: d('2026-11-23'),
  from: d('2026-10-01'),
  to: d('2026-10-31'),
  baseCurrency: 'usd',
  fixFx: false,
  customers: null,
};

describe('mapReport', () => {
  it('reports each country as of the range end, with the churn of the month and the funnel of the range', () => {
    const report = mapReport(snapshot, invoices, query, fx);
    // Totals on Oct 31 (1.25): US 15000 + 6000 + 4000, DE 8000 x 1.25, FR 2000, no country 3000
    // = 40000 and 6 subscribers; 3 leads in October (f, h, i), 2 trials (h, i).
    expect(Object.keys(report.list)).toEqual(['de', 'fr', 'us']);
    expect(report.list.us).toEqual({
      current_mrr: 25000,
      subscribers: 3,
      arpa: 8333, // 25000 / 3
      asp: 4000, // f, the one new customer
      // The Sep 30 cohort a, b (20000) keeps both and grows to 15000 + 6000 = 21000.
      customer_churn_rate: 0,
      net_mrr_churn: -5, // (20000 - 21000) / 20000
      ltv: 0, // 8333 / 0: no churn to divide by, so 0 (customer_churn_rate 0 tells)
      leads: 1,
      leads_converted: 1,
      lead_conversion_rate: 100,
      new_trials: 0,
      trials_converted: 0,
      trial_conversion_rate: 0, // 0 / 0 trials
      payment_failure_rate: 50, // a's invoice failed first, of a's and b's attempted
      mrr_percent: 62.5, // 25000 / 40000
      subscribers_percent: 50, // 3 / 6
      leads_percent: 33.33, // 1 / 3
      trials_percent: 0,
    });
    expect(report.list.de).toEqual({
      current_mrr: 10000,
      subscribers: 1,
      arpa: 10000,
      asp: 0, // no new customer: 0 / 0
      // Sep 30 cohort c 5000 + d 8000 x 1.20 = 14600; Oct 31: d 10000 alone.
      customer_churn_rate: 50,
      net_mrr_churn: 31.51, // 4600 / 14600
      ltv: 20000, // 10000 / 0.5
      leads: 0,
      leads_converted: 0,
      lead_conversion_rate: 0, // 0 / 0 leads
      new_trials: 0,
      trials_converted: 0,
      trial_conversion_rate: 0, // 0 / 0 trials
      payment_failure_rate: 0, // d paid at once; c's failure was in September
      mrr_percent: 25,
      subscribers_percent: 16.67,
      leads_percent: 0,
      trials_percent: 0,
    });
    expect(report.list.fr).toEqual({
      current_mrr: 2000,
      subscribers: 1,
      arpa: 2000,
      asp: 2000,
      // Nobody paid on Sep 30: no month has a cohort, so the means over nothing are 0, and so is
      // LTV = 2000 / 0.
      customer_churn_rate: 0,
      net_mrr_churn: 0,
      ltv: 0,
      leads: 2,
      leads_converted: 1, // i
      lead_conversion_rate: 50,
      new_trials: 2,
      trials_converted: 1,
      trial_conversion_rate: 50,
      payment_failure_rate: 0, // 0 / 0 invoices attempted
      mrr_percent: 5,
      subscribers_percent: 16.67,
      leads_percent: 66.67,
      trials_percent: 100,
    });
    // e, without a country: 6000 on Sep 30, 3000 on Oct 31 after churning and coming back.
    expect(report.unknown).toMatchObject({
      current_mrr: 3000,
      subscribers: 1,
      customer_churn_rate: 0,
      net_mrr_churn: 50,
      mrr_percent: 7.5,
    });
  });

  it('averages the monthly rates over the months of the range', () => {
    const report = mapReport(snapshot, invoices, { ...query, from: d('2026-09-15') }, fx);
    // DE in September: the Aug 31 cohort c, d keeps everything (0 %, 0 %); October as above.
    // Customer churn (0 + 50) / 2 = 25 %, net MRR churn (0 + 31.5068) / 2 = 15.75 %, LTV 10000 / 0.25.
    expect(report.list.de).toMatchObject({ customer_churn_rate: 25, net_mrr_churn: 15.75, ltv: 40000 });
  });

  it('converts at the rate of the range end with fix_fx', () => {
    const report = mapReport(snapshot, invoices, { ...query, fixFx: true }, fx);
    // The DE cohort is 5000 + 8000 x 1.25 = 15000 on Sep 30 too: (15000 - 10000) / 15000.
    expect(report.list.de).toMatchObject({
      current_mrr: 10000,
      customer_churn_rate: 50,
      net_mrr_churn: 33.33,
    });
  });

  it('keeps the filtered customers only, shares of their totals', () => {
    const withoutGermany = Uint8Array.from(customers, (customer) => (customer.country === 'DE' ? 0 : 1));
    const report = mapReport(snapshot, invoices, { ...query, customers: withoutGermany }, fx);
    expect(Object.keys(report.list)).toEqual(['fr', 'us']);
    // 25000 of 25000 + 2000 + 3000.
    expect(report.list.us!.mrr_percent).toBe(83.33);
    const noCountry = Uint8Array.from(customers, (customer) => (customer.country === null ? 0 : 1));
    expect(mapReport(snapshot, invoices, { ...query, customers: noCountry }, fx).unknown).toBeNull();
  });

  it('adds up to the MRR report and agrees with the monthly retention rows', () => {
    const base = d('2025-01-01');
    const history = fc.record({
      currency: fc.constantFrom('usd', 'eur'),
      country: fc.constantFrom('US', 'DE', null),
      steps: fc.array(
        fc.record({
          day: fc.integer({ min: 0, max: 700 }),
          mrr: fc.constantFrom(0, 0, 1000, 2500, 3333, 7000),
        }),
        { maxLength: 8 },
      ),
    });
    fc.assert(
      fc.property(fc.array(history, { minLength: 1, maxLength: 8 }), fc.boolean(), (list, fixFx) => {
        const random = buildAccountSnapshot(
          1,
          list.map((customer, index) =>
            customerView(String(index), {
              currency: customer.currency,
              country: customer.country,
              movements: movementsOf(customer.steps.map((step) => ({ day: base + step.day, mrr: step.mrr }))),
            }),
          ),
        );
        const range = { ...query, today: base + 650, from: base + 380, to: base + 700, fixFx };
        const report = mapReport(random, buildCashflowTable([]), range, fx);
        const groups = [...Object.values(report.list), ...(report.unknown ? [report.unknown] : [])];
        const rows = mrrReport(random.movements, { ...range, interval: 'month', committed: false }, fx);
        const last = rows[rows.length - 1]!;
        expect(groups.reduce((sum, group) => sum + group.subscribers, 0)).toBe(last.total_customers);
        // Each country rounds once, as a breakdown of the MRR report does.
        const mrr = groups.reduce((sum, group) => sum + group.current_mrr, 0);
        expect(Math.abs(mrr - last.total_mrr)).toBeLessThanOrEqual(groups.length / 2);

        const { values, groupOf } = breakdownGroups(random, 'country', null, range.to);
        const retention = retentionReport(
          random,
          { ...range, interval: 'month', trailingMonths: 1, groupOf, groupCount: values.length },
          fx,
        );
        values.forEach((country, group) => {
          const figures = country === null ? report.unknown : report.list[country.toLowerCase()];
          // The months with a cohort: the others have nothing to divide by.
          const churn = retention.rows[group]!.filter((row) => row.cohort_customers > 0).map(
            (row) => row.customer_churn_rate,
          );
          if (churn.length === 0 || figures === null || figures === undefined) {
            expect(figures?.customer_churn_rate ?? 0).toBe(0);
          } else {
            const mean = churn.reduce((sum, rate) => sum + rate, 0) / churn.length;
            expect(Math.abs(figures.customer_churn_rate - mean)).toBeLessThanOrEqual(0.01);
          }
        });
      }),
      { numRuns: 150 },
    );
  });
});
