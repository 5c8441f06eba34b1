import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  columns,
  createTestApp,
  type TestAccount,
  type TestApp,
  reportFixtureAccount,
} from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

// Today is 2026-11-23. 1 EUR = 1.20 USD from Sep 1, 1.25 from Nov 1. The same records as the
// engine fixture (test/helpers/cashflow-fixture.ts), stored through the public API.
const RATES = 'Date,USD\n2026-09-01,1.20\n2026-11-01,1.25\n';

let sequence = 0;
const pay = (date: string, amount: number, result = 'successful', type = 'payment') => ({
  id: `t${++sequence}`,
  date: `${date}T10:00:00Z`,
  type,
  result,
  amount,
  payment_method: 'card',
});
const subscription = (customer_id: string, plan_id: string, amount: number, start: string, end: string) => ({
  customer_id,
  date: start,
  lines: [{ plan_id, amount, period_start: start, period_end: end, description: 'Monthly' }],
});
const oneTime = (customer_id: string, date: string, amount: number, due_date: string) => ({
  customer_id,
  date,
  due_date,
  status: 'open',
  lines: [{ type: 'one_time', amount, description: 'Setup' }],
});

const INVOICES = [
  {
    id: 'p1',
    number: 'P-1',
    ...subscription('c_pay', 'basic', 10000, '2026-10-01', '2026-11-01'),
    transactions: [pay('2026-10-01', 10000)],
  },
  {
    id: 'p2',
    ...subscription('c_pay', 'basic', 10000, '2026-11-01', '2026-12-01'),
    payment_date: '2026-11-01',
    transactions: [pay('2026-11-01', 10000), pay('2026-11-10', 2500, 'successful', 'refund')],
  },
  {
    id: 'e1',
    currency: 'eur',
    ...subscription('c_eur', 'euro', 8000, '2026-11-02', '2026-12-02'),
    transactions: [pay('2026-11-02', 8000)],
  },
  {
    id: 'r1',
    ...subscription('c_rec', 'basic', 6000, '2026-11-05', '2026-12-05'),
    transactions: [
      pay('2026-11-05', 6000, 'failed'),
      pay('2026-11-08', 6000, 'failed'),
      pay('2026-11-12', 6000),
    ],
  },
  {
    id: 'k0',
    ...subscription('c_churn', 'basic', 4000, '2026-09-15', '2026-10-15'),
    transactions: [pay('2026-09-15', 4000)],
  },
  // Never paid: the customer's last period ends Nov 15 and it churns on Nov 18 (3 grace days).
  {
    id: 'k1',
    status: 'uncollectible',
    ...subscription('c_churn', 'basic', 4000, '2026-10-15', '2026-11-15'),
    transactions: [pay('2026-10-15', 4000, 'failed'), pay('2026-10-20', 4000, 'failed')],
  },
  { id: 'o1', ...oneTime('c_open', '2026-10-20', 3000, '2026-11-03') },
  {
    id: 'o2',
    ...oneTime('c_open', '2026-08-11', 2000, '2026-08-25'),
    transactions: [pay('2026-09-01', 500)],
  },
  { id: 'o3', ...oneTime('c_open', '2026-11-17', 9999, '2026-12-01') },
];

describe.each(STORE_KINDS)('cashflow reports on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp(kind);
    let post;
    ({ account, post } = await reportFixtureAccount(t, RATES));
    await post(
      '/data/customers',
      [
        ['c_pay', 'US', 'usd'],
        ['c_eur', 'DE', 'eur'],
        ['c_rec', 'US', 'usd'],
        ['c_churn', 'FR', 'usd'],
        ['c_open', 'US', 'usd'],
      ].map(([id, country, currency]) => ({
        id,
        name: id!.toUpperCase(),
        email: `${id}@example.com`,
        country,
        currency,
        created_date: '2026-01-01',
      })),
    );
    await post(
      '/data/invoices',
      INVOICES.map((invoice) => ({ currency: 'usd', transactions: [], ...invoice })),
    );
  });
  afterAll(() => t.close());

  const get = (url: string) => t.read(account.viewerKey, url);
  const RANGE = 'date=20260801-20261123';

  it('reports net cash per month: payments less refunds, failed attempts left out', async () => {
    const body = await get(`/reports/transactions?${RANGE}`);
    expect(body.currency).toBe('usd');
    expect(columns(body.result, 'date', 'payments', 'refund', 'net_amount', 'net_amount_change_pct')).toEqual(
      [
        ['2026-08-01', 0, 0, 0, null],
        ['2026-09-01', 4500, 0, 4500, null], // o2 500 + k0 4000; no change from 0
        ['2026-10-01', 10000, 0, 10000, 122.22], // p1; (10000 - 4500) / 4500
        // p2 10000 + e1 8000 EUR x 1.25 + r1 6000, less the 2500 refund.
        ['2026-11-01', 26000, 2500, 23500, 135],
      ],
    );
    const eur = await get('/reports/transactions?date=20261101-20261123&baseCurrency=EUR');
    // 10000 / 1.25 + 8000 + 6000 / 1.25; 2500 / 1.25.
    expect(eur).toMatchObject({
      currency: 'eur',
      result: [{ payments: 20800, refund: 2000, net_amount: 18800 }],
    });
  });

  it('converts at the last day of the range with fix_fx', async () => {
    // Every amount at Oct 31's 1.20: 4500 / 1.2 = 3750 in September, 10000 / 1.2 = 8333.33 in October.
    const body = await get('/reports/transactions?date=20260901-20261031&baseCurrency=eur&fix_fx=true');
    expect(columns(body.result, 'payments')).toEqual([[3750], [8333]]);
  });

  it('summarises net cash to date beside the same spans before', async () => {
    const body = await get('/reports/transactions-summary');
    expect(body.summary).toMatchObject({
      mtd_payments: 26000,
      prev_mtd_payments: 10000, // Oct 1-23
      mtd_payments_change_pct: 160,
      mtd_refunds: 2500,
      mtd_refunds_change_pct: null, // from 0
      mtd_net_amount: 23500,
      prev_mtd_net_amount: 10000,
      mtd_net_amount_change_pct: 135,
      qtd_net_amount: 33500, // Oct 1 - Nov 23
      prev_qtd_net_amount: 0, // Jul 1 - Aug 23
      qtd_net_amount_change_pct: null,
      ytd_payments: 40500,
      ytd_net_amount: 38000,
      prev_ytd_net_amount: 0,
    });
  });

  it('lists transactions and refunds with customer, invoice and both currencies', async () => {
    const body = await get('/reports/transactions-detail?date=20261101-20261123&limit=3&offset=3');
    expect(body.result.count).toBe(3);
    expect(
      columns(body.result.list, 'date', 'invoice_ref', 'result', 'amount', 'amount_base_currency'),
    ).toEqual([
      ['2026-11-05', 'r1', 'failed', 6000, 6000],
      ['2026-11-02', 'e1', 'successful', 8000, 10000],
      ['2026-11-01', 'p2', 'successful', 10000, 10000],
    ]);
    expect(body.result.list[1]).toMatchObject({
      customer_id: 'c_eur',
      customer_name: 'C_EUR',
      currency: 'eur',
    });
    const refunds = await get('/reports/cashflow-refunds-detail');
    expect(refunds.result.list).toEqual([
      expect.objectContaining({
        date: '2026-11-10',
        type: 'refund',
        invoice_ref: 'p2',
        amount: 2500,
        customer_id: 'c_pay',
      }),
    ]);
  });

  it('serves net cash, refunds and failed payments as tables, one row per measure', async () => {
    const measure = (body: { result: { metric: string }[] }, metric: string) =>
      body.result.find((row) => row.metric === metric);
    const cash = await get(`/reports/transactions-table?${RANGE}`);
    // The months of the net-cash test above, read across.
    expect(measure(cash, 'net_amount')).toEqual({
      metric: 'net_amount',
      '2026-08-01': 0,
      '2026-09-01': 4500,
      '2026-10-01': 10000,
      '2026-11-01': 23500,
    });
    const refunds = await get('/reports/cashflow-refunds-table?date=20261001-20261123');
    expect(measure(refunds, 'refund_amount')).toEqual({
      metric: 'refund_amount',
      '2026-10-01': 0,
      '2026-11-01': 2500,
    });
    const failed = await get(`/reports/cashflow-failed-payments-table?${RANGE}`);
    // k1 churned 4000 in October; r1 recovered 6000 in November.
    expect(measure(failed, 'recovered')).toMatchObject({ '2026-10-01': 0, '2026-11-01': 6000 });
    expect(measure(failed, 'churned')).toMatchObject({ '2026-10-01': 4000, '2026-11-01': 0 });
    expect(measure(failed, 'currency')).toBeUndefined();
  });

  it('reports refunds per period', async () => {
    const body = await get('/reports/cashflow-refunds?date=20261001-20261123');
    expect(columns(body.result, 'date', 'refund_amount', 'refund_count', 'customers_refunded')).toEqual([
      ['2026-10-01', 0, 0, 0],
      ['2026-11-01', 2500, 1, 1],
    ]);
  });

  it('reports failed payments by outcome: recovered, and churned with the invoice unpaid', async () => {
    const body = await get(`/reports/cashflow-failed-payments?${RANGE}`);
    expect(
      columns(
        body.result,
        'date',
        'failed_amount',
        'recovered',
        'still_unpaid',
        'churned',
        'failed_invoices',
        'total_retry_attempts',
      ),
    ).toEqual([
      ['2026-08-01', 0, 0, 0, 0, 0, 0],
      ['2026-09-01', 0, 0, 0, 0, 0, 0],
      ['2026-10-01', 4000, 0, 0, 4000, 1, 1], // k1: failed Oct 15, retried Oct 20, churned Nov 18
      ['2026-11-01', 6000, 6000, 0, 0, 1, 2], // r1: failed Nov 5 and 8, paid Nov 12
    ]);
    expect(body.result[2]).toMatchObject({ churned_customers: 1, affected_customers: 1, currency: 'usd' });
    const detail = await get('/reports/cashflow-failed-payments-detail');
    expect(
      columns(detail.result.list, 'invoice_ref', 'customer_id', 'outcome', 'outcome_date', 'retry_attempts'),
    ).toEqual([
      ['r1', 'c_rec', 'recovered', '2026-11-12', 2],
      ['k1', 'c_churn', 'churned', '2026-11-18', 1],
    ]);
  });

  it('puts failed payments in the latest-activity feed unless asked not to', async () => {
    const feed = await get('/reports/latest-activity?days=60');
    const failed = (feed.result as { type: string }[]).filter((item) => item.type === 'failed_payment');
    expect(columns(failed, 'source', 'date', 'subtype', 'customer_id', 'amount')).toEqual([
      ['payments', '2026-11-05', 'recovered', 'c_rec', 6000],
      ['payments', '2026-10-15', 'churned', 'c_churn', 4000],
    ]);
    const dates = (feed.result as { date: string }[]).map((item) => item.date);
    expect(dates).toEqual([...dates].sort().reverse());
    const without = await get('/reports/latest-activity?days=60&include_failed=0');
    expect((without.result as { type: string }[]).some((item) => item.type === 'failed_payment')).toBe(false);
  });

  it('summarises failed payments with every summary field, twins and changes', async () => {
    const body = await get('/reports/cashflow-failed-payments-summary');
    expect(body).toEqual({
      currency: 'usd',
      summary: {
        // Nov 1-23: r1 failed and was recovered; attempted p2, e1, r1: 1 / 3.
        mtd_still_unpaid: 0,
        prev_mtd_still_unpaid: 4000, // Oct 1-23: k1, still unpaid on Oct 23
        mtd_recovery_rate: 100,
        prev_mtd_recovery_rate: 0,
        mtd_failed_pct: 33.33,
        prev_mtd_failed_pct: 50, // k1 of p1, k1
        mtd_failed_invoices: 1,
        prev_mtd_failed_invoices: 1,
        mtd_still_unpaid_change_pct: -100,
        mtd_recovery_rate_change: 100,
        mtd_failed_pct_change: -16.67,
        // Jan 1 - Nov 23: 1 of 2 recovered; 2 of 7 attempted invoices failed. 2025 had nothing.
        ytd_still_unpaid: 0,
        prev_ytd_still_unpaid: 0,
        ytd_recovery_rate: 50,
        prev_ytd_recovery_rate: null,
        ytd_failed_pct: 28.57,
        prev_ytd_failed_pct: null,
        ytd_failed_invoices: 2,
        prev_ytd_failed_invoices: 0,
        ytd_still_unpaid_change_pct: null,
        ytd_recovery_rate_change: null,
        ytd_failed_pct_change: null,
      },
    });
  });

  it('reports the failure rate, 0 for a period without attempts', async () => {
    const body = await get(`/reports/cashflow-failure-rate?${RANGE}`);
    expect(columns(body.result, 'date', 'attempted_invoices', 'failed_invoices', 'failure_rate')).toEqual([
      ['2026-08-01', 0, 0, 0], // 0 / 0 attempted: 0, and attempted_invoices says there were none
      ['2026-09-01', 2, 0, 0],
      ['2026-10-01', 2, 1, 50],
      ['2026-11-01', 3, 1, 33.33],
    ]);
    const summary = (await get('/reports/cashflow-failure-rate-summary')).summary;
    expect(summary).toMatchObject({
      mtd_failure_rate: 33.33,
      prev_mtd_failure_rate: 50,
      mtd_failure_rate_change: -16.67,
      qtd_failure_rate: 40, // k1, r1 of p1, k1, p2, e1, r1
      prev_qtd_failure_rate: null,
      qtd_failure_rate_change: null,
      ytd_failure_rate: 28.57,
      ytd_attempted_invoices: 7,
    });
    expect(Object.values(summary).every((value) => value === null || Number.isFinite(value))).toBe(true);
  });

  it('ages what open invoices past due still owe', async () => {
    // o1 3000, 20 days past due; o2 2000 - 500 = 1500, 90 days; o3 is due Dec 1.
    expect(await get('/reports/cashflow-outstanding-unpaid')).toEqual({
      currency: 'usd',
      summary: {
        outstanding_current: 4500,
        invoices_current: 2,
        outstanding_30: 1500,
        invoices_30: 1,
        outstanding_60: 1500,
        invoices_60: 1,
        outstanding_180: 0,
        invoices_180: 0,
        outstanding_365: 0,
        invoices_365: 0,
      },
    });
    // 4500 / 1.25 = 3600 EUR.
    expect(
      (await get('/reports/cashflow-outstanding-unpaid?baseCurrency=eur')).summary.outstanding_current,
    ).toBe(3600);
  });

  it('shows a customer’s invoices with every field of the invoice record', async () => {
    const body = await get('/reports/invoices-detail?customer=c_pay&baseCurrency=EUR');
    expect(body.result.list).toEqual([
      {
        invoice_ref: 'p2',
        invoice_number: null,
        invoice_date: '2026-11-01',
        invoice_status: 'paid',
        payment_date: '2026-11-01',
        customer_id: 'c_pay',
        customer_name: 'C_PAY',
        customer_email: 'c_pay@example.com',
        description: null,
        currency: 'usd',
        total: 10000,
        total_base_currency: 8000, // 10000 / 1.25
        transaction_count: 2,
        lines: [
          {
            description: 'Monthly',
            amount: 10000,
            quantity: 1,
            period_start: '2026-11-01',
            period_end: '2026-12-01',
          },
        ],
      },
      expect.objectContaining({ invoice_ref: 'p1', invoice_number: 'P-1', total_base_currency: 8333 }), // 10000 / 1.2
    ]);
    const all = await get('/reports/invoices-detail?limit=2');
    expect(all.result.list.map((record: { invoice_ref: string }) => record.invoice_ref)).toEqual([
      'o3',
      'r1',
    ]);
  });

  it('applies the report filters', async () => {
    const us = await get(`/reports/transactions?date=20261101-20261123&region=US`);
    // Without c_eur (DE): 10000 + 6000.
    expect(us.result[0]).toMatchObject({ payments: 16000, refund: 2500 });
    const churned = await get('/reports/cashflow-failed-payments-summary?region=FR');
    expect(churned.summary).toMatchObject({
      ytd_failed_invoices: 1,
      ytd_recovery_rate: 0,
      ytd_failed_pct: 50,
    });
    const euro = await get('/reports/cashflow-refunds?date=20261101-20261123&currency=eur');
    expect(euro.result[0].refund_amount).toBe(0);
  });

  it.each([
    [
      '/reports/transactions?date=20261301-20261401',
      'Invalid query parameter "date": expected a range YYYYMMDD-YYYYMMDD of real dates',
    ],
    [
      '/reports/cashflow-refunds?interval=decade',
      'Invalid query parameter "interval": expected one of day, week, month, quarter, year',
    ],
    [
      '/reports/cashflow-failed-payments-summary?baseCurrency=xyz',
      'Invalid query parameter "baseCurrency": unknown currency "xyz": no exchange rates for it',
    ],
    [
      '/reports/cashflow-outstanding-unpaid?region=atlantis',
      'Invalid query parameter "region": "atlantis" is neither a country code nor a named region',
    ],
    ['/reports/transactions-detail?limit=0', 'Invalid query parameter "limit": must be at least 1'],
    [
      '/reports/transactions-summary?fix_fx=maybe',
      'Invalid query parameter "fix_fx": expected true or false',
    ],
  ])('rejects %s with 400', async (url, message) => {
    const response = await t.call(account.adminKey, { method: 'GET', url });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: message });
  });

  it('answers 404 for the invoices of a customer that does not exist', async () => {
    const response = await t.call(account.viewerKey, {
      method: 'GET',
      url: '/reports/invoices-detail?customer=nobody',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Customer nobody not found' });
  });

  it('needs a key and shows each account only its own figures', async () => {
    expect((await t.call(undefined, { method: 'GET', url: '/reports/transactions' })).statusCode).toBe(401);
    const other = await t.newAccount('Other');
    const call = (url: string) =>
      t.call(other.adminKey, { method: 'GET', url }).then((response) => response.json());
    expect((await call('/v1/reports/cashflow-failed-payments-summary')).summary).toMatchObject({
      mtd_failed_invoices: 0,
      mtd_recovery_rate: null,
      mtd_failed_pct: null,
    });
    expect((await call('/reports/invoices-detail')).result.list).toEqual([]);
    expect((await call('/reports/invoices-detail?customer=c_pay')).error).toBe('Customer c_pay not found');
    expect((await call('/reports/cashflow-outstanding-unpaid')).summary.outstanding_current).toBe(0);
  });
});
