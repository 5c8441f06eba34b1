import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  columns,
  createTestApp,
  type TestAccount,
  type TestApp,
  reportFixtureAccount,
} from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

// Today is 2026-11-23. 1 EUR = 1.20 USD from Sep 1, 1.25 from Oct 1.
const RATES = 'Date,USD\n2026-09-01,1.20\n2026-10-01,1.25\n';
const line = (amount: number, period_start: string, period_end: string, plan_id = 'basic') => ({
  plan_id,
  subscription_id: plan_id === 'basic' ? 'sub_us' : null,
  amount,
  period_start,
  period_end,
});
const invoice = (id: string, customer_id: string, currency: string, lines: object[]) => ({
  id,
  customer_id,
  currency,
  date: (lines[0] as { period_start: string }).period_start,
  lines,
});
/** A row of /reports/mrr-growth: the compare figure is absent on a day the compare month lacks. */
interface GrowthRow {
  date: number;
  cumulative_mrr: number;
  cumulative_mrr_compare?: number;
}

describe.each(STORE_KINDS)('/reports/mrr and /reports/summary on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp(kind);
    let post;
    ({ account, post } = await reportFixtureAccount(t, RATES));
    await post('/data/customers', [
      { id: 'c_us', name: 'US', country: 'US', currency: 'usd', created_date: '2026-07-20' },
      { id: 'c_de', name: 'DE', country: 'DE', currency: 'eur', created_date: '2026-09-01' },
    ]);
    await post('/data/invoices', [
      // c_us: 5000 from Aug 1, 8000 from Oct 1 (an expansion of 3000).
      invoice('u1', 'c_us', 'usd', [line(5000, '2026-08-01', '2026-09-01')]),
      invoice('u2', 'c_us', 'usd', [line(5000, '2026-09-01', '2026-10-01')]),
      invoice('u3', 'c_us', 'usd', [line(8000, '2026-10-01', '2026-11-01')]),
      invoice('u4', 'c_us', 'usd', [line(8000, '2026-11-01', '2026-12-01')]),
      // c_de: 10000 EUR from Sep 15; the last period ends Nov 15, so it churns on Nov 18.
      invoice('d1', 'c_de', 'eur', [line(10000, '2026-09-15', '2026-10-15', 'euro')]),
      invoice('d2', 'c_de', 'eur', [line(10000, '2026-10-15', '2026-11-15', 'euro')]),
    ]);
    // c_us will cancel on Dec 15, as asked on Nov 10: until then its subscription stays in MRR.
    await post('/data/subscriptions', {
      id: 'sub_us',
      customer_id: 'c_us',
      plan_id: 'basic',
      status: 'active',
      started_at: '2026-08-01',
      cancel_at: '2026-12-15',
      cancel_requested_at: '2026-11-10',
    });
  });
  afterAll(() => t.close());

  const get = (url: string) => t.read(account.viewerKey, url);

  it('reports MRR by month with movements, converted at each day rate, the revaluation as fx_adjustment', async () => {
    const body = await get('/reports/mrr?date=20260801-20261122');
    expect(body.currency).toBe('usd');
    expect(
      columns(
        body.result,
        'date',
        'end_date',
        'new',
        'expansion',
        'churn',
        'fx_adjustment',
        'mrr_diff',
        'total_mrr',
        'total_customers',
      ),
    ).toEqual([
      ['2026-08-01', '2026-08-31', 5000, 0, 0, 0, 5000, 5000, 1],
      // c_de: 10000 EUR x 1.20 on Sep 15 = 12000; total 5000 + 12000.
      ['2026-09-01', '2026-09-30', 12000, 0, 0, 0, 12000, 17000, 2],
      // Oct 31: 8000 + 10000 x 1.25 = 20500; diff 3500 = expansion 3000 + fx 500.
      ['2026-10-01', '2026-10-31', 0, 3000, 0, 500, 3500, 20500, 2],
      // Nov 18: churn -10000 x 1.25 = -12500.
      ['2026-11-01', '2026-11-22', 0, 0, -12500, 0, -12500, 8000, 1],
    ]);
    expect(body.result[1]).toMatchObject({
      new_customers: 1,
      asp: 12000,
      arpa: 8500,
      total_arr: 204000,
      quick_ratio: 0, // gains 12000 / losses 0: nothing to divide by, so 0 (churn_customers 0 tells)
    });
    expect(body.result[3]).toMatchObject({ churn_customers: 1, customers_diff: -1, quick_ratio: 0 });
  });

  it('serves the same figures as a table: a row per measure, a column per month', async () => {
    const table = await get('/reports/mrr-table?date=20260801-20261122');
    expect(table.currency).toBe('usd');
    const row = (metric: string) => table.result.find((entry: { metric: string }) => entry.metric === metric);
    // The months of the test above, read across.
    const months = ['2026-08-01', '2026-09-01', '2026-10-01', '2026-11-01'];
    const across = (metric: string) => months.map((month) => row(metric)[month]);
    expect(across('new')).toEqual([5000, 12000, 0, 0]);
    expect(across('expansion')).toEqual([0, 0, 3000, 0]);
    expect(across('churn')).toEqual([0, 0, 0, -12500]);
    expect(across('total_mrr')).toEqual([5000, 17000, 20500, 8000]);
    expect(across('arpa')).toEqual([5000, 8500, 10250, 8000]);
    expect(Object.keys(row('new'))).toEqual(['metric', ...months]);
    expect(table.result.map((entry: { metric: string }) => entry.metric)).not.toContain('end_date');
  });

  it('with fix_fx converts at the rate of the last day and has no fx_adjustment', async () => {
    const body = await get('/reports/mrr?date=20260801-20261122&fix_fx=true');
    // Everything at 1.25: c_de is 12500 throughout.
    expect(columns(body.result, 'new', 'expansion', 'churn', 'fx_adjustment', 'total_mrr')).toEqual([
      [5000, 0, 0, 0, 5000],
      [12500, 0, 0, 0, 17500],
      [0, 3000, 0, 0, 20500],
      [0, 0, -12500, 0, 8000],
    ]);
  });

  it('reports in another base currency', async () => {
    const body = await get('/reports/mrr?date=20261101-20261122&baseCurrency=EUR');
    // Nov 22: 8000 USD / 1.25 = 6400 EUR; Oct 31 opening: 8000 / 1.25 + 10000 = 16400; churn -10000 EUR.
    expect(body.currency).toBe('eur');
    expect(columns(body.result, 'churn', 'fx_adjustment', 'total_mrr')).toEqual([[-10000, 0, 6400]]);
  });

  it('breaks down by currency, one series per value', async () => {
    const body = await get('/reports/mrr?date=20260901-20261031&breakdown=currency');
    expect(body.breakdown).toBe('currency');
    expect(
      columns(body.result, 'date', 'breakdown_value', 'new', 'expansion', 'fx_adjustment', 'total_mrr'),
    ).toEqual([
      ['2026-09-01', 'eur', 12000, 0, 0, 12000],
      ['2026-09-01', 'usd', 0, 0, 0, 5000],
      ['2026-10-01', 'eur', 0, 0, 500, 12500],
      ['2026-10-01', 'usd', 0, 3000, 0, 8000],
    ]);
  });

  it('adds the rows of the comparison range', async () => {
    const body = await get('/reports/mrr?date=20261001-20261031&compare=last-period');
    // The 31 days before Oct 1: Aug 31 .. Sep 30.
    expect(columns(body.compare, 'date', 'end_date', 'total_mrr')).toEqual([
      ['2026-08-31', '2026-08-31', 5000],
      ['2026-09-01', '2026-09-30', 17000],
    ]);
    const lastYear = await get('/reports/mrr?date=20261001-20261031&compare=last-year');
    expect(columns(lastYear.compare, 'date', 'total_mrr')).toEqual([['2025-10-01', 0]]);
  });

  it('counts the scheduled cancellation only in committed mode', async () => {
    const plain = await get('/reports/mrr?date=20261201-20261231');
    expect(columns(plain.result, 'churn', 'total_mrr')).toEqual([[0, 8000]]);
    const committed = await get('/reports/mrr?date=20261201-20261231&committed=true');
    expect(columns(committed.result, 'churn', 'total_mrr', 'total_customers')).toEqual([[-8000, 0, 0]]);
  });

  it('filters like every report', async () => {
    const body = await get('/reports/mrr?date=20261001-20261031&region=eu');
    expect(columns(body.result, 'total_mrr')).toEqual([[12500]]);
  });

  it('filters by status at the end of the range', async () => {
    // On Nov 22 c_de has churned (Nov 18) and c_us is active.
    const cancelled = await get('/reports/mrr?date=20261001-20261122&status=cancelled');
    expect(columns(cancelled.result, 'churn', 'total_mrr')).toEqual([
      [0, 12500],
      [-12500, 0],
    ]);
    const active = await get('/reports/summary?status=active');
    expect(active.summary).toMatchObject({ mrr_current: 8000, mrr_30: 8000 });
  });

  it('summarises now and 30, 60, 180 and 365 days ago', async () => {
    const body = await get('/reports/summary');
    // Now (Nov 23): 8000. Oct 24: 8000 + 12500 = 20500. Sep 24: 5000 + 12000 = 17000. May 27 and Nov 23 2025: 0.
    expect(body).toEqual({
      currency: 'usd',
      summary: expect.objectContaining({
        mrr_current: 8000,
        mrr_30: 20500,
        mrr_60: 17000,
        mrr_180: 0,
        mrr_365: 0,
        arr_current: 96000,
        subscribers_current: 1,
        subscribers_30: 2,
        arpa_current: 8000,
        arpa_30: 10250,
        arpa_180: null,
        // (8000 - 20500) / 20500 = -60.98 %; (8000 - 17000) / 17000 = -52.94 %.
        mrr_percentage_change_30: -60.98,
        mrr_percentage_change_60: -52.94,
        mrr_percentage_change_180: null,
        subscribers_percentage_change_30: -50,
      }),
    });
    expect((await get('/reports/summary?currency=eur')).summary).toMatchObject({
      mrr_current: 0,
      mrr_30: 12500,
    });
  });

  it('lists the individual movements, newest first, with amounts in both currencies and subtypes', async () => {
    // The same plan at 8000 instead of 5000 is a price change; invoices stopping after paid ones, voluntary churn.
    const body = await get('/reports/movement-table?date=20260801-20261122');
    expect(body.currency).toBe('usd');
    expect(body.result).toEqual({
      count: 4,
      list: [
        {
          date: '2026-11-18',
          currency: 'eur',
          customer_id: 'c_de',
          customer_name: 'DE',
          customer_email: null,
          type: 'churn',
          subtype: 'voluntary',
          mrr_change: -10000,
          mrr_change_base_currency: -12500,
          description: 'Churn: MRR 100.00 -> 0.00 EUR',
        },
        {
          date: '2026-10-01',
          currency: 'usd',
          customer_id: 'c_us',
          customer_name: 'US',
          customer_email: null,
          type: 'expansion',
          subtype: 'price_change',
          mrr_change: 3000,
          mrr_change_base_currency: 3000,
          description: 'Expansion: MRR 50.00 -> 80.00 USD',
        },
        {
          date: '2026-09-15',
          currency: 'eur',
          customer_id: 'c_de',
          customer_name: 'DE',
          customer_email: null,
          type: 'new',
          subtype: 'new',
          mrr_change: 10000,
          mrr_change_base_currency: 12000,
          description: 'New customer: MRR 0.00 -> 100.00 EUR',
        },
        {
          date: '2026-08-01',
          currency: 'usd',
          customer_id: 'c_us',
          customer_name: 'US',
          customer_email: null,
          type: 'new',
          subtype: 'new',
          mrr_change: 5000,
          mrr_change_base_currency: 5000,
          description: 'New customer: MRR 0.00 -> 50.00 USD',
        },
      ],
    });
  });

  it.each([
    [
      '&type=new',
      [
        ['2026-09-15', 12000],
        ['2026-08-01', 5000],
      ],
    ],
    [
      '&type=churn,expansion',
      [
        ['2026-11-18', -12500],
        ['2026-10-01', 3000],
      ],
    ],
    [
      '&sort=mrr_change&order=asc',
      [
        ['2026-11-18', -12500],
        ['2026-10-01', 3000],
        ['2026-08-01', 5000],
        ['2026-09-15', 12000],
      ],
    ],
    ['&limit=1&offset=1', [['2026-10-01', 3000]]],
    [
      '&region=us',
      [
        ['2026-10-01', 3000],
        ['2026-08-01', 5000],
      ],
    ],
    [
      '&fix_fx=true&currency=eur',
      [
        ['2026-11-18', -12500],
        ['2026-09-15', 12500],
      ],
    ],
  ])('movement-table with %s', async (query, expected) => {
    const body = await get(`/reports/movement-table?date=20260801-20261122${query}`);
    expect(columns(body.result.list, 'date', 'mrr_change_base_currency')).toEqual(expected);
  });

  it('lists scheduled movements in the movement table only when committed', async () => {
    expect((await get('/reports/movement-table?date=20261201-20261231')).result.count).toBe(0);
    const committed = await get('/reports/movement-table?date=20261201-20261231&committed=true');
    expect(columns(committed.result.list, 'date', 'type', 'description')).toEqual([
      ['2026-12-15', 'churn', 'Scheduled Churn: MRR 80.00 -> 0.00 USD'],
    ]);
  });

  it('feeds the latest activity, with scheduled events on request', async () => {
    const recent = await get('/reports/latest-activity');
    expect(recent).toEqual({
      currency: 'usd',
      result: [
        {
          source: 'mrr',
          type: 'churn',
          subtype: 'voluntary',
          date: '2026-11-18',
          effective_date: '2026-11-18',
          overdue_date: null,
          customer_id: 'c_de',
          customer_name: 'DE',
          customer_email: null,
          amount: -12500,
          currency: 'usd',
        },
      ],
    });
    const withScheduled = await get('/reports/latest-activity?include_scheduled=1&days=90');
    // Recorded days, newest first: Nov 18 churn, Nov 10 (the cancellation was asked for) for Dec 15, Oct 1, Sep 15.
    expect(columns(withScheduled.result, 'source', 'type', 'date', 'effective_date', 'amount')).toEqual([
      ['mrr', 'churn', '2026-11-18', '2026-11-18', -12500],
      ['scheduled', 'churn', '2026-11-10', '2026-12-15', -8000],
      ['mrr', 'expansion', '2026-10-01', '2026-10-01', 3000],
      ['mrr', 'new', '2026-09-15', '2026-09-15', 12000],
    ]);
    expect((await get('/reports/latest-activity?days=90&limit=2')).result).toHaveLength(2);
  });

  it('adds up the month day by day beside the month before', async () => {
    const body = await get('/reports/mrr-growth');
    const rows = body.result as GrowthRow[];
    // November: nothing until the churn of -12500 on the 18th; the days after today (the 23rd)
    // have not been lived, so the rows stop there: the anchor and days 1 to 23.
    // October: the expansion of 3000 on the 1st, shown on November's days only.
    expect(rows).toHaveLength(24);
    expect(rows.filter((row) => [0, 1, 17, 18, 23].includes(row.date))).toEqual([
      { date: 0, cumulative_mrr: 0, cumulative_mrr_compare: 0 },
      { date: 1, cumulative_mrr: 0, cumulative_mrr_compare: 3000 },
      { date: 17, cumulative_mrr: 0, cumulative_mrr_compare: 3000 },
      { date: 18, cumulative_mrr: -12500, cumulative_mrr_compare: 3000 },
      { date: 23, cumulative_mrr: -12500, cumulative_mrr_compare: 3000 },
    ]);
    const september = await get('/reports/mrr-growth?compareMonth=2026-09&types=new,expansion');
    const sep = september.result as GrowthRow[];
    // September: c_de new 12000 on the 15th. November is known up to the 23rd.
    expect(sep).toHaveLength(24);
    expect(
      [sep[14], sep[15], sep[23]].map((row) => [row!.cumulative_mrr, row!.cumulative_mrr_compare]),
    ).toEqual([
      [0, 0],
      [0, 12000],
      [0, 12000],
    ]);
    // A month compared with itself: both columns the same, November's churn on the 18th.
    const itself = (await get('/reports/mrr-growth?compareMonth=2026-11')).result as GrowthRow[];
    expect(itself[18]).toEqual({ date: 18, cumulative_mrr: -12500, cumulative_mrr_compare: -12500 });
    expect(itself.every((row) => row.cumulative_mrr === row.cumulative_mrr_compare)).toBe(true);
  });

  it('charts a past month to its last day, the compare month on the days it has', async () => {
    const rows = (await get('/reports/mrr-growth?date=20261001-20261031&compareMonth=2026-09'))
      .result as GrowthRow[];
    // October is over: the anchor and its 31 days. September has 30 days, so the 31st has no
    // compare figure: the key is left out, as a number is required where present.
    expect(rows).toHaveLength(32);
    expect([rows[0], rows[1], rows[15], rows[30], rows[31]]).toEqual([
      { date: 0, cumulative_mrr: 0, cumulative_mrr_compare: 0 },
      { date: 1, cumulative_mrr: 3000, cumulative_mrr_compare: 0 },
      { date: 15, cumulative_mrr: 3000, cumulative_mrr_compare: 12000 },
      { date: 30, cumulative_mrr: 3000, cumulative_mrr_compare: 12000 },
      { date: 31, cumulative_mrr: 3000 },
    ]);
  });

  it('serves the month day by day as a table, a column per day of the month', async () => {
    const table = await get('/reports/mrr-growth-table');
    // The figures of the test above, read across: 0 is the anchor, 32 columns after the metric.
    expect(table.result.map((row: { metric: string }) => row.metric)).toEqual([
      'cumulative_mrr',
      'cumulative_mrr_compare',
    ]);
    const [november, october] = table.result;
    expect([november['0'], november['17'], november['18'], november['23']]).toEqual([0, 0, -12500, -12500]);
    expect([october['0'], october['1'], october['23']]).toEqual([0, 3000, 3000]);
    // The metric and the anchor with days 1 to 23: no column for a day not lived yet.
    expect(Object.keys(november)).toHaveLength(25);
  });

  it.each([
    ['/reports/mrr?breakdown=colour', 'Invalid query parameter "breakdown": unknown dimension "colour"'],
    [
      '/reports/mrr?compare=yesterday',
      'Invalid query parameter "compare": expected last-period or last-year',
    ],
    ['/reports/mrr?committed=maybe', 'Invalid query parameter "committed": expected true or false'],
    [
      '/reports/mrr?date=2026',
      'Invalid query parameter "date": expected a range YYYYMMDD-YYYYMMDD of real dates',
    ],
    [
      '/reports/mrr?interval=hour',
      'Invalid query parameter "interval": expected one of day, week, month, quarter, year',
    ],
    ['/reports/mrr?fix_fx=1', 'Invalid query parameter "fix_fx": expected true or false'],
    [
      '/reports/summary?baseCurrency=zzz',
      'Invalid query parameter "baseCurrency": unknown currency "zzz": no exchange rates for it',
    ],
    [
      '/reports/summary?status=paused',
      'Invalid query parameter "status": expected values among active, cancelled',
    ],
    ['/reports/summary?age=old', 'Invalid query parameter "age": "old" is not a month range like 0-6 or 12-'],
    [
      '/reports/movement-table?type=upgrade',
      'Invalid query parameter "type": "upgrade" is not one of new, expansion, contraction, churn, reactivation',
    ],
    [
      '/reports/movement-table?sort=name',
      'Invalid query parameter "sort": Invalid option: expected one of "date"|"mrr_change"',
    ],
    ['/reports/latest-activity?limit=101', 'Invalid query parameter "limit": must be at most 100'],
    ['/reports/latest-activity?days=0', 'Invalid query parameter "days": must be at least 1'],
    [
      '/reports/latest-activity?include_scheduled=yes',
      'Invalid query parameter "include_scheduled": must be 0 or 1',
    ],
    [
      '/reports/mrr-growth?compareMonth=2026-13',
      'Invalid query parameter "compareMonth": expected a month YYYY-MM',
    ],
    [
      '/reports/mrr-growth?types=refund',
      'Invalid query parameter "types": "refund" is not one of new, expansion, contraction, churn, reactivation',
    ],
  ])('rejects %s with 400', async (url, message) => {
    const response = await t.call(account.adminKey, { method: 'GET', url });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: message });
  });

  it('reports customer concentration among paying customers', async () => {
    // Today only c_us pays (8000); c_de churned on Nov 18.
    const body = await get('/reports/customer-concentration');
    expect(body).toEqual({
      currency: 'usd',
      result: {
        pareto: [{ rank: 1, id: 'c_us', name: 'US', mrr: 8000, cumulative_mrr: 8000, cumulative_pct: 100 }],
        concentration: {
          top_1_pct: 100,
          top_5_pct: 100,
          top_10_pct: 100,
          top_20_pct: 100,
          top_10_percent_pct: 100,
        },
        list: [
          { id: 'c_us', name: 'US', email: null, country: 'US', currency: 'usd', mrr: 8000, share_pct: 100 },
        ],
        count: 1,
        summary: { total_mrr: 8000, customers: 1 },
      },
    });
    const none = await get('/reports/customer-concentration?region=eu&baseCurrency=eur');
    expect(none.result.concentration.top_1_pct).toBeNull();
    expect((await get('/reports/customer-concentration?q=nobody')).result.count).toBe(0);
  });

  it('needs a key and shows each account only its own figures', async () => {
    expect((await t.call(undefined, { method: 'GET', url: '/reports/mrr' })).statusCode).toBe(401);
    const other = await t.newAccount('Other');
    const response = await t.call(other.adminKey, { method: 'GET', url: '/v1/reports/summary' });
    expect(response.json().summary).toMatchObject({ mrr_current: 0, subscribers_current: 0 });
  });
});
