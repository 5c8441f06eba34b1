import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columns, createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

// Today is 2026-11-23. Four USD customers and a lead, all plans monthly but `annual`:
// - c_us (US): basic (licensed) 5000 from Jun 1; paid by card in October, by SEPA on Nov 1 at 09:00,
//   then a PayPal attempt failed on Nov 3 and a Visa refund on Nov 10: its latest successful payment is SEPA.
// - c_mx (MX): usage (metered) 3000 from Sep 15, paid by card; on Nov 15 split between card and Amex at
//   the same instant, which goes to the first method alphabetically: Amex.
// - c_cy (CY): annual (licensed) 120000 a year = 10000 a month from 2024-11-01, no transactions.
// - c_eg (EG): basic 1000 from Aug 1, and usage 4000 from Oct 1 (an expansion): its latest revenue
//   is on usage (Nov 1, both plans start a period; ties go to the larger value), so metered in every
//   period. PayPal on Oct 2; on Nov 1 card failed at 08:00 and PayPal paid at 12:00.
// - c_lead: no country, never paid.
// MRR: Sep 5000 + 3000 + 10000 + 1000 = 19000; Oct and Nov 5000 + 3000 + 10000 + 5000 = 23000.
const transaction = (
  id: string,
  date: string,
  payment_method: string,
  result = 'successful',
  type = 'payment',
) => ({
  id,
  date,
  type,
  result,
  amount: 1,
  payment_method,
});
const nextMonth = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return date.toISOString().slice(0, 10);
};
/** A paid invoice of one month of each plan from `start`, with these transactions. */
const monthly = (
  id: string,
  customer_id: string,
  start: string,
  plans: [string, number][],
  transactions: object[] = [],
) => ({
  id,
  customer_id,
  currency: 'usd',
  date: start,
  lines: plans.map(([plan_id, amount]) => ({
    plan_id,
    amount,
    period_start: start,
    period_end: nextMonth(start),
  })),
  transactions,
});
const annual = (id: string, start: string, end: string) => ({
  id,
  customer_id: 'c_cy',
  currency: 'usd',
  date: start,
  lines: [{ plan_id: 'annual', amount: 120000, period_start: start, period_end: end }],
});

type Row = Record<string, number | string | null>;
const MEASURES = ['new', 'expansion', 'contraction', 'churn', 'total_mrr', 'total_customers'];

describe.each(STORE_KINDS)(
  '/reports/mrr breakdowns by payment method, pricing model, age and market on %s',
  (kind) => {
    let t: TestApp;
    let account: TestAccount;
    const mrr = async (query: string) =>
      (await t.read(account.viewerKey, `/reports/mrr?${query}`)) as { breakdown?: string; result: Row[] };

    beforeAll(async () => {
      t = await createTestApp(kind);
      account = await t.newAccount();
      await t.loadRates('Date,USD\n2024-01-01,1.10\n');
      const post = (url: string, payload: unknown) => t.seed(account.adminKey, url, payload);
      await post('/data/plans', [
        { id: 'basic', name: 'Basic', billing_freq: 'month', currency: 'usd' },
        { id: 'usage', name: 'Usage', billing_freq: 'month', currency: 'usd', pricing_model: 'metered' },
        { id: 'annual', name: 'Annual', billing_freq: 'year', currency: 'usd' },
      ]);
      await post('/data/customers', [
        { id: 'c_us', name: 'US', country: 'US', currency: 'usd', created_date: '2026-06-01' },
        { id: 'c_mx', name: 'MX', country: 'MX', currency: 'usd', created_date: '2026-09-15' },
        { id: 'c_cy', name: 'CY', country: 'CY', currency: 'usd', created_date: '2024-11-01' },
        { id: 'c_eg', name: 'EG', country: 'EG', currency: 'usd', created_date: '2026-08-01' },
        { id: 'c_lead', name: 'LEAD', currency: 'usd', created_date: '2026-10-01' },
      ]);
      await post('/data/invoices', [
        ...['06', '07', '08', '09'].map((month) =>
          monthly(`us${month}`, 'c_us', `2026-${month}-01`, [['basic', 5000]]),
        ),
        monthly(
          'us10',
          'c_us',
          '2026-10-01',
          [['basic', 5000]],
          [transaction('us10_p', '2026-10-01T09:00:00Z', 'card')],
        ),
        monthly(
          'us11',
          'c_us',
          '2026-11-01',
          [['basic', 5000]],
          [
            transaction('us11_p', '2026-11-01T09:00:00Z', 'SEPA'),
            transaction('us11_f', '2026-11-03T09:00:00Z', 'paypal', 'failed'),
            transaction('us11_r', '2026-11-10T09:00:00Z', 'visa', 'successful', 'refund'),
          ],
        ),
        ...['09', '10', '11'].map((month) =>
          monthly(
            `mx${month}`,
            'c_mx',
            `2026-${month}-15`,
            [['usage', 3000]],
            [
              transaction(`mx${month}_p`, `2026-${month}-15T09:00:00Z`, 'card'),
              ...(month === '11' ? [transaction('mx11_a', '2026-11-15T09:00:00Z', 'Amex')] : []),
            ],
          ),
        ),
        annual('cy24', '2024-11-01', '2025-11-01'),
        annual('cy25', '2025-11-01', '2026-11-01'),
        annual('cy26', '2026-11-01', '2027-11-01'),
        monthly('eg08', 'c_eg', '2026-08-01', [['basic', 1000]]),
        monthly('eg09', 'c_eg', '2026-09-01', [['basic', 1000]]),
        monthly(
          'eg10',
          'c_eg',
          '2026-10-01',
          [
            ['basic', 1000],
            ['usage', 4000],
          ],
          [transaction('eg10_p', '2026-10-02T09:00:00Z', 'PayPal')],
        ),
        monthly(
          'eg11',
          'c_eg',
          '2026-11-01',
          [
            ['basic', 1000],
            ['usage', 4000],
          ],
          [
            transaction('eg11_f', '2026-11-01T08:00:00Z', 'card', 'failed'),
            transaction('eg11_p', '2026-11-01T12:00:00Z', 'paypal'),
          ],
        ),
      ]);
    });
    afterAll(() => t.close());

    const RANGE = 'date=20260901-20261122';

    it('reports the total the breakdowns add up to', async () => {
      const body = await mrr(RANGE);
      expect(columns(body.result, 'date', ...MEASURES)).toEqual([
        ['2026-09-01', 3000, 0, 0, 0, 19000, 4],
        ['2026-10-01', 0, 4000, 0, 0, 23000, 4],
        ['2026-11-01', 0, 0, 0, 0, 23000, 4],
      ]);
    });

    /** Each period's measures added up over the series of a breakdown, in date order. */
    const addedUp = (rows: Row[]) => {
      const byDate = new Map<string, number[]>();
      for (const row of rows) {
        const sums = byDate.get(row.date as string) ?? MEASURES.map(() => 0);
        byDate.set(
          row.date as string,
          sums.map((sum, index) => sum + (row[MEASURES[index]!] as number)),
        );
      }
      return [...byDate].map(([date, sums]) => [date, ...sums]);
    };

    it.each([
      [
        'payment_method',
        // amex: c_mx; paypal: c_eg (its failed card attempt does not count); sepa: c_us (neither
        // the failed PayPal nor the Visa refund after it count); none: c_cy (no payment), c_lead.
        [
          ['2026-09-01', 'amex', 3000, 0, 3000],
          ['2026-09-01', 'paypal', 0, 0, 1000],
          ['2026-09-01', 'sepa', 0, 0, 5000],
          ['2026-09-01', null, 0, 0, 10000],
          ['2026-10-01', 'amex', 0, 0, 3000],
          ['2026-10-01', 'paypal', 0, 4000, 5000],
          ['2026-10-01', 'sepa', 0, 0, 5000],
          ['2026-10-01', null, 0, 0, 10000],
          ['2026-11-01', 'amex', 0, 0, 3000],
          ['2026-11-01', 'paypal', 0, 0, 5000],
          ['2026-11-01', 'sepa', 0, 0, 5000],
          ['2026-11-01', null, 0, 0, 10000],
        ],
      ],
      [
        'pricing_model',
        // licensed: c_us 5000 + c_cy 10000; metered: c_mx 3000 + c_eg (1000 in September, while
        // only on basic, then 5000): 4000, 8000, 8000; none: c_lead.
        [
          ['2026-09-01', 'licensed', 0, 0, 15000],
          ['2026-09-01', 'metered', 3000, 0, 4000],
          ['2026-09-01', null, 0, 0, 0],
          ['2026-10-01', 'licensed', 0, 0, 15000],
          ['2026-10-01', 'metered', 0, 4000, 8000],
          ['2026-10-01', null, 0, 0, 0],
          ['2026-11-01', 'licensed', 0, 0, 15000],
          ['2026-11-01', 'metered', 0, 0, 8000],
          ['2026-11-01', null, 0, 0, 0],
        ],
      ],
      [
        'age',
        // Months from the first paid day to Nov 22, of 30.4375 days: c_mx 68 days = 2.2 (0-3);
        // c_cy 751 days = 24.7 (24-); c_us 174 days = 5.7 and c_eg 113 days = 3.7 (3-6): 6000,
        // then 10000; c_lead never paid. Values in text order.
        [
          ['2026-09-01', '0-3', 3000, 0, 3000],
          ['2026-09-01', '24-', 0, 0, 10000],
          ['2026-09-01', '3-6', 0, 0, 6000],
          ['2026-09-01', null, 0, 0, 0],
          ['2026-10-01', '0-3', 0, 0, 3000],
          ['2026-10-01', '24-', 0, 0, 10000],
          ['2026-10-01', '3-6', 0, 4000, 10000],
          ['2026-10-01', null, 0, 0, 0],
          ['2026-11-01', '0-3', 0, 0, 3000],
          ['2026-11-01', '24-', 0, 0, 10000],
          ['2026-11-01', '3-6', 0, 0, 10000],
          ['2026-11-01', null, 0, 0, 0],
        ],
      ],
      [
        'market',
        // africa: c_eg (Egypt, not middle_east); europe: c_cy (Cyprus, not middle_east); latam:
        // c_mx (Mexico, not north_america); north_america: c_us; none: c_lead without a country.
        [
          ['2026-09-01', 'africa', 0, 0, 1000],
          ['2026-09-01', 'europe', 0, 0, 10000],
          ['2026-09-01', 'latam', 3000, 0, 3000],
          ['2026-09-01', 'north_america', 0, 0, 5000],
          ['2026-09-01', null, 0, 0, 0],
          ['2026-10-01', 'africa', 0, 4000, 5000],
          ['2026-10-01', 'europe', 0, 0, 10000],
          ['2026-10-01', 'latam', 0, 0, 3000],
          ['2026-10-01', 'north_america', 0, 0, 5000],
          ['2026-10-01', null, 0, 0, 0],
          ['2026-11-01', 'africa', 0, 0, 5000],
          ['2026-11-01', 'europe', 0, 0, 10000],
          ['2026-11-01', 'latam', 0, 0, 3000],
          ['2026-11-01', 'north_america', 0, 0, 5000],
          ['2026-11-01', null, 0, 0, 0],
        ],
      ],
    ])('breaks down by %s, the series adding up to the total', async (breakdown, expected) => {
      const [total, body] = await Promise.all([mrr(RANGE), mrr(`${RANGE}&breakdown=${breakdown}`)]);
      expect(body.breakdown).toBe(breakdown);
      expect(columns(body.result, 'date', 'breakdown_value', 'new', 'expansion', 'total_mrr')).toEqual(
        expected,
      );
      expect(addedUp(body.result)).toEqual(columns(total.result, 'date', ...MEASURES));
    });

    it('measures age at the end of the range asked for', async () => {
      // As of Aug 31: c_us 91 days = 2.99 months and c_eg 30 days (0-3): 5000 + 1000; c_cy 668
      // days = 21.9 (12-24); c_mx first pays on Sep 15, after the range: none, with c_lead.
      const body = await mrr('date=20260801-20260831&breakdown=age');
      expect(columns(body.result, 'breakdown_value', 'total_mrr', 'total_customers')).toEqual([
        ['0-3', 6000, 2],
        ['12-24', 10000, 1],
        [null, 0, 0],
      ]);
    });
  },
);
