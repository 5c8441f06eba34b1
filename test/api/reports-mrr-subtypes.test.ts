import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columns, createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

// Today is 2026-11-23. 1 EUR = 1.10 USD from Sep 1, 1.20 from Oct 1. Every customer is kept
// in USD and billed monthly, one invoice a month on the 1st for Sep, Oct and Nov (periods to the
// next 1st), without subscription records, so each plan's lines are one subscription:
// - c_plan: Basic 5000, then Pro 9000 from Oct: +4000 plan_change.
// - c_seat: Basic x1 5000, x3 15000 in Oct (+10000 quantity_change), x2 10000 in Nov (-5000).
// - c_disc: Basic 5000, then 1000 off in Oct and Nov (4000): -1000 discount_change.
// - c_price: Basic 5000, then 6000 from Oct: +1000 price_change.
// - c_addon: Basic 5000; an Addon 2000 beside it in Oct only: +2000 add_on on Oct 1, -2000 add_on
//   on Nov 1 (no grace days: the customer's revenue does not stop).
// - c_fx: 10000 EUR every month: 11000 USD in Sep, 12000 from Oct: +1000 fx.
// - c_late: Sep paid, Oct open (unpaid), no Nov invoice: churns Nov 4, delinquent.
// - c_quit: Sep and Oct paid, no Nov invoice: churns Nov 4, voluntary.
// Sep: new 5000 x 7 + 11000 = 46000 (8 customers).
// Oct: expansion 4000 + 10000 + 1000 + 2000 + 1000 = 18000 (5); contraction -1000 (1).
// Nov: contraction -5000 - 2000 = -7000 (2); churn -5000 - 5000 = -10000 (2).
const RATES = 'Date,USD\n2026-09-01,1.10\n2026-10-01,1.20\n';
const MONTHS = ['2026-09-01', '2026-10-01', '2026-11-01', '2026-12-01'];

interface Billed {
  plan_id?: string;
  amount?: number;
  quantity?: number;
  discount?: number;
}
/** One invoice per month `index` (0 Sep, 1 Oct, 2 Nov) with these lines. */
const invoice = (customer: string, index: number, lines: Billed[], extra: object = {}) => ({
  id: `${customer}_${index}`,
  customer_id: customer,
  currency: 'usd',
  date: MONTHS[index],
  lines: lines.map((billed) => ({
    plan_id: 'basic',
    amount: 5000,
    period_start: MONTHS[index],
    period_end: MONTHS[index + 1],
    ...billed,
  })),
  ...extra,
});
/** The same lines in each of the months given. */
const months = (customer: string, indexes: number[], lines: Billed[] = [{}]) =>
  indexes.map((index) => invoice(customer, index, lines));

const CUSTOMERS = ['c_plan', 'c_seat', 'c_disc', 'c_price', 'c_addon', 'c_fx', 'c_late', 'c_quit'];
const RANGE = 'date=20260901-20261122';

type Row = Record<string, number | string | null>;

describe.each(STORE_KINDS)('movement subtypes through the API on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  const get = (url: string) => t.read(account.viewerKey, url);

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
    await t.loadRates(RATES);
    const post = (url: string, payload: unknown) => t.seed(account.adminKey, url, payload);
    await post(
      '/data/plans',
      ['basic', 'pro', 'addon'].map((id) => ({ id, name: id, billing_freq: 'month', currency: 'usd' })),
    );
    await post(
      '/data/customers',
      CUSTOMERS.map((id) => ({ id, name: id, currency: 'usd', created_date: '2026-09-01' })),
    );
    await post('/data/invoices', [
      ...months('c_plan', [0]),
      ...months('c_plan', [1, 2], [{ plan_id: 'pro', amount: 9000 }]),
      invoice('c_seat', 0, [{}]),
      invoice('c_seat', 1, [{ quantity: 3, amount: 15000 }]),
      invoice('c_seat', 2, [{ quantity: 2, amount: 10000 }]),
      ...months('c_disc', [0]),
      ...months('c_disc', [1, 2], [{ amount: 4000, discount: 1000 }]),
      ...months('c_price', [0]),
      ...months('c_price', [1, 2], [{ amount: 6000 }]),
      ...months('c_addon', [0, 2]),
      invoice('c_addon', 1, [{}, { plan_id: 'addon', amount: 2000 }]),
      ...[0, 1, 2].map((index) =>
        invoice('c_fx', index, [{ plan_id: 'basic', amount: 10000 }], { currency: 'eur' }),
      ),
      invoice('c_late', 0, [{}]),
      invoice('c_late', 1, [{}], { status: 'open' }),
      ...months('c_quit', [0, 1]),
    ]);
  });
  afterAll(() => t.close());

  it('splits expansion by what changed, adding up to /reports/mrr', async () => {
    const body = await get(`/reports/mrr-subtypes?type=expansion&${RANGE}`);
    expect(body.type).toBe('expansion');
    expect(body.subtypes).toEqual([
      'plan_change',
      'add_on',
      'quantity_change',
      'discount_change',
      'price_change',
      'fx',
      'other',
    ]);
    expect(
      columns(
        body.result,
        'date',
        'plan_change',
        'add_on',
        'quantity_change',
        'discount_change',
        'price_change',
        'fx',
        'other',
        'expansion',
        'expansion_customers',
      ),
    ).toEqual([
      ['2026-09-01', 0, 0, 0, 0, 0, 0, 0, 0, 0],
      ['2026-10-01', 4000, 2000, 10000, 0, 1000, 1000, 0, 18000, 5],
      ['2026-11-01', 0, 0, 0, 0, 0, 0, 0, 0, 0],
    ]);
    expect(body.result[1].fx_customers).toBe(1);
    const mrr = await get(`/reports/mrr?${RANGE}`);
    expect(columns(mrr.result, 'new', 'expansion', 'contraction', 'churn')).toEqual([
      [46000, 0, 0, 0],
      [0, 18000, -1000, 0],
      [0, 0, -7000, -10000],
    ]);
  });

  it('splits contraction: a discount in October, fewer seats and an add-on removed in November', async () => {
    const body = await get(`/reports/mrr-subtypes?type=contraction&${RANGE}`);
    expect(
      columns(
        body.result,
        'date',
        'discount_change',
        'quantity_change',
        'add_on',
        'add_on_customers',
        'contraction',
        'contraction_customers',
      ),
    ).toEqual([
      ['2026-09-01', 0, 0, 0, 0, 0, 0],
      ['2026-10-01', -1000, 0, 0, 0, -1000, 1],
      ['2026-11-01', 0, -5000, -2000, 1, -7000, 2],
    ]);
  });

  it('splits churn: an end after an unpaid invoice is delinquent, after a paid one voluntary', async () => {
    const body = await get(`/reports/mrr-subtypes?type=churn&${RANGE}`);
    expect(body.subtypes).toEqual(['voluntary', 'delinquent']);
    expect(body.result[2]).toEqual({
      date: '2026-11-01',
      end_date: '2026-11-22',
      voluntary: -5000,
      voluntary_customers: 1,
      delinquent: -5000,
      delinquent_customers: 1,
      churn: -10000,
      churn_customers: 2,
    });
  });

  it('keeps to the filters: only c_seat', async () => {
    const body = await get(`/reports/mrr-subtypes?type=expansion&${RANGE}&customer=c_seat`);
    expect(columns(body.result, 'quantity_change', 'expansion')).toEqual([
      [0, 0],
      [10000, 10000],
      [0, 0],
    ]);
  });

  it('names each movement of the movement table by its subtype', async () => {
    const body = await get(
      `/reports/movement-table?${RANGE}&type=expansion,contraction,churn&sort=date&order=asc`,
    );
    expect(columns(body.result.list, 'date', 'customer_id', 'type', 'subtype', 'mrr_change')).toEqual([
      ['2026-10-01', 'c_addon', 'expansion', 'add_on', 2000],
      ['2026-10-01', 'c_disc', 'contraction', 'discount_change', -1000],
      ['2026-10-01', 'c_fx', 'expansion', 'fx', 1000],
      ['2026-10-01', 'c_plan', 'expansion', 'plan_change', 4000],
      ['2026-10-01', 'c_price', 'expansion', 'price_change', 1000],
      ['2026-10-01', 'c_seat', 'expansion', 'quantity_change', 10000],
      ['2026-11-01', 'c_addon', 'contraction', 'add_on', -2000],
      ['2026-11-01', 'c_seat', 'contraction', 'quantity_change', -5000],
      ['2026-11-04', 'c_late', 'churn', 'delinquent', -5000],
      ['2026-11-04', 'c_quit', 'churn', 'voluntary', -5000],
    ]);
  });

  it('breaks /reports/mrr down by subtype: each series its own movements, adding up to the report', async () => {
    const body = (await get(`/reports/mrr?${RANGE}&breakdown=subtype`)) as {
      breakdown: string;
      result: Row[];
    };
    expect(body.breakdown).toBe('subtype');
    const november = body.result.filter((row) => row.date === '2026-11-01');
    expect(november.map((row) => row.breakdown_value)).toEqual([
      'new',
      'reactivation',
      'plan_change',
      'add_on',
      'quantity_change',
      'discount_change',
      'price_change',
      'fx',
      'other',
      'voluntary',
      'delinquent',
    ]);
    const series = (value: string) => november.find((row) => row.breakdown_value === value)!;
    // add_on: +2000 on Oct 1, -2000 on Nov 1: nothing left by Nov 22. Units belong to no subtype.
    expect(columns([series('add_on')], 'expansion', 'contraction', 'total_mrr', 'quantity')).toEqual([
      [0, -2000, 0, 0],
    ]);
    // new: 46000 from September by 8 customers, whatever happened to them since.
    expect(columns([series('new')], 'new', 'total_mrr', 'total_customers')).toEqual([[0, 46000, 8]]);
    // delinquent: c_late's -5000, and one customer fewer.
    expect(columns([series('delinquent')], 'churn', 'total_mrr', 'total_customers')).toEqual([
      [-5000, -5000, -1],
    ]);
    const sum = (field: string) => november.reduce((total, row) => total + (row[field] as number), 0);
    const report = (await get(`/reports/mrr?${RANGE}`)).result[2] as Row;
    // 46000 + 18000 - 1000 - 7000 - 10000 = 46000 at Nov 22, 6 customers left.
    expect([sum('contraction'), sum('churn'), sum('total_mrr'), sum('total_customers')]).toEqual([
      report.contraction,
      report.churn,
      46000,
      6,
    ]);
    expect(report.total_mrr).toBe(46000);
  });

  it('adds the subtypes to the MRR table, each under its kind', async () => {
    const body = await get(`/reports/mrr-table-subtypes?${RANGE}`);
    const metrics = (body.result as Row[]).map((row) => row.metric);
    expect(metrics.slice(metrics.indexOf('expansion'), metrics.indexOf('expansion') + 8)).toEqual([
      'expansion',
      'expansion_plan_change',
      'expansion_add_on',
      'expansion_quantity_change',
      'expansion_discount_change',
      'expansion_price_change',
      'expansion_fx',
      'expansion_other',
    ]);
    const row = (metric: string) => (body.result as Row[]).find((candidate) => candidate.metric === metric);
    expect(row('churn_delinquent')).toEqual({
      metric: 'churn_delinquent',
      '2026-09-01': 0,
      '2026-10-01': 0,
      '2026-11-01': -5000,
    });
    expect(row('contraction_quantity_change_customers')!['2026-11-01']).toBe(1);
    expect(row('total_mrr')!['2026-11-01']).toBe(46000);
  });

  it.each([
    ['/reports/mrr-subtypes', 'Invalid query parameter "type": expected expansion, contraction, churn'],
    [
      '/reports/mrr-subtypes?type=new',
      'Invalid query parameter "type": expected expansion, contraction, churn',
    ],
    [
      '/reports/mrr-subtypes?type=churn&committed=maybe',
      'Invalid query parameter "committed": expected true or false',
    ],
    [
      '/reports/mrr-table-subtypes?interval=fortnight',
      'Invalid query parameter "interval": expected one of day, week, month, quarter, year',
    ],
    ...['/reports/retention', '/reports/cohort'].map((path) => [
      `${path}?breakdown=subtype`,
      'Invalid query parameter "breakdown": "subtype" splits MRR movements, not customers; this report ' +
        'counts customers. Use /reports/mrr?breakdown=subtype or /reports/mrr-subtypes',
    ]),
  ])('%s is refused', async (url, error) => {
    await t.expectBadRequest(account.viewerKey, url, error);
  });
});
