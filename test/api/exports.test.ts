import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp, reportFixtureAccount } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

// Today is 2026-11-23. 1 EUR = 1.20 USD from Sep 1, 1.25 from Oct 1.
const RATES = 'Date,USD\n2026-09-01,1.20\n2026-10-01,1.25\n';
const monthly = (
  id: string,
  customer_id: string,
  currency: string,
  plan_id: string,
  amount: number,
  from: string,
  to: string,
) => ({
  id,
  customer_id,
  currency,
  date: from,
  lines: [{ plan_id, amount, period_start: from, period_end: to }],
});

describe.each(STORE_KINDS)('CSV exports on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp(kind);
    let post;
    ({ account, post } = await reportFixtureAccount(t, RATES));
    await post('/data/customers', [
      { id: 'c_us', name: 'US', country: 'US', currency: 'usd', created_date: '2026-07-20' },
      { id: 'c_de', name: '=HYPERLINK("x")', country: 'DE', currency: 'eur', created_date: '2026-09-01' },
    ]);
    await post('/data/invoices', [
      // c_us: 5000 from Aug 1, 8000 from Oct 1 (an expansion of 3000).
      monthly('u1', 'c_us', 'usd', 'basic', 5000, '2026-08-01', '2026-09-01'),
      monthly('u2', 'c_us', 'usd', 'basic', 5000, '2026-09-01', '2026-10-01'),
      monthly('u3', 'c_us', 'usd', 'basic', 8000, '2026-10-01', '2026-11-01'),
      monthly('u4', 'c_us', 'usd', 'basic', 8000, '2026-11-01', '2026-12-01'),
      // c_de: 10000 EUR from Sep 15; the last period ends Nov 15, so it churns on Nov 18.
      monthly('d1', 'c_de', 'eur', 'euro', 10000, '2026-09-15', '2026-10-15'),
      monthly('d2', 'c_de', 'eur', 'euro', 10000, '2026-10-15', '2026-11-15'),
    ]);
  });
  afterAll(() => t.close());

  async function csv(url: string): Promise<string[][]> {
    const response = await t.call(account.viewerKey, { method: 'GET', url });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="[a-z-]+\.csv"$/);
    const rows: string[][] = parse(response.body);
    return rows;
  }

  it('exports every MRR movement of the range in day order, amounts in cents', async () => {
    expect(await csv('/exports/mrr-movements.csv?date=20260801-20261122')).toEqual([
      [
        'date',
        'customer_id',
        'customer_name',
        'customer_email',
        'type',
        'description',
        'currency',
        'mrr_change',
        'base_currency',
        'mrr_change_base_currency',
      ],
      [
        '2026-08-01',
        'c_us',
        'US',
        '',
        'new',
        'New customer: MRR 0.00 -> 50.00 USD',
        'usd',
        '5000',
        'usd',
        '5000',
      ],
      // 10000 EUR at 1.20 on Sep 15 = 12000 USD; the churn at 1.25 on Nov 18 = -12500 USD.
      ...[
        ['2026-09-15', 'new', 'New customer: MRR 0.00 -> 100.00 EUR', '10000', '12000'],
        ['2026-10-01', 'expansion', 'Expansion: MRR 50.00 -> 80.00 USD', '3000', '3000'],
        ['2026-11-18', 'churn', 'Churn: MRR 100.00 -> 0.00 EUR', '-10000', '-12500'],
      ].map(([date, type, description, change, base]) =>
        type === 'expansion'
          ? [date, 'c_us', 'US', '', type, description, 'usd', change, 'usd', base]
          : [date, 'c_de', `'=HYPERLINK("x")`, '', type, description, 'eur', change, 'usd', base],
      ),
    ]);
  });

  it('keeps the kinds asked for and answers in the base currency asked for', async () => {
    const rows = await csv('/exports/mrr-movements.csv?date=20260801-20261122&type=churn&baseCurrency=eur');
    // -10000 EUR stays -10000 in EUR.
    expect(rows.slice(1).map((row) => [row[0], row[4], row[8], row[9]])).toEqual([
      ['2026-11-18', 'churn', 'eur', '-10000'],
    ]);
  });

  it('exports every customer with MRR today in the base currency, a formula-like name as text', async () => {
    expect(await csv('/exports/customers.csv')).toEqual([
      [
        'id',
        'name',
        'email',
        'country',
        'created_date',
        'trial_started',
        'paid_started',
        'cancel_date',
        'status',
        'currency',
        'mrr',
        'base_currency',
      ],
      ['c_us', 'US', '', 'US', '2026-07-20', '', '2026-08-01', '', 'active', 'usd', '8000', 'usd'],
      [
        'c_de',
        `'=HYPERLINK("x")`,
        '',
        'DE',
        '2026-09-01',
        '',
        '2026-09-15',
        '2026-11-18',
        'cancelled',
        'eur',
        '0',
        'usd',
      ],
    ]);
  });

  it('exports with date only the customers who became leads in the range, with the report filters', async () => {
    expect((await csv('/exports/customers.csv?date=20260801-20261122')).map((row) => row[0])).toEqual([
      'id',
      'c_de',
    ]);
    expect((await csv('/exports/customers.csv?region=DE')).map((row) => row[0])).toEqual(['id', 'c_de']);
  });

  it("exports each month's movements added up day by day, a row per month and day", async () => {
    const rows = await csv('/exports/mrr-growth.csv?date=20260901-20261122');
    expect(rows[0]).toEqual(['month', 'day', 'cumulative_mrr', 'base_currency']);
    // September: days 0 to 30, October 0 to 31, November 0 to 30.
    expect(rows).toHaveLength(1 + 31 + 32 + 31);
    const at = (month: string, day: number) =>
      rows.find((row) => row[0] === month && row[1] === String(day))?.slice(2);
    expect(at('2026-09', 0)).toEqual(['0', 'usd']);
    // Sep 15: the new EUR customer, 10000 x 1.20 = 12000.
    expect(at('2026-09', 14)).toEqual(['0', 'usd']);
    expect(at('2026-09', 15)).toEqual(['12000', 'usd']);
    expect(at('2026-09', 30)).toEqual(['12000', 'usd']);
    expect(at('2026-09', 31)).toBeUndefined();
    // Oct 1: the expansion of 3000.
    expect(at('2026-10', 1)).toEqual(['3000', 'usd']);
    expect(at('2026-10', 31)).toEqual(['3000', 'usd']);
    // Nov 18: the churn, -10000 x 1.25 = -12500; Nov 24 is after today, so empty.
    expect(at('2026-11', 17)).toEqual(['0', 'usd']);
    expect(at('2026-11', 18)).toEqual(['-12500', 'usd']);
    expect(at('2026-11', 24)).toEqual(['', 'usd']);
    const onlyNew = await csv('/exports/mrr-growth.csv?date=20260901-20261122&category=new');
    expect(onlyNew.find((row) => row[0] === '2026-11' && row[1] === '18')?.[2]).toBe('0');
    expect(onlyNew.find((row) => row[0] === '2026-09' && row[1] === '18')?.[2]).toBe('12000');
  });

  it('exports a century of months in one pass over the movements: a row per day and an anchor per month', async () => {
    const rows = await csv('/exports/mrr-growth.csv?date=20000101-20991231');
    // 36,525 days from 2000-01-01 to 2099-12-31 (100 x 365 + 25 leap days: 2000, 2004, ...,
    // 2096) and a day-0 row for each of the 1,200 months, after the header.
    expect(rows).toHaveLength(1 + 36_525 + 1_200);
    expect(rows.find((row) => row[0] === '2026-11' && row[1] === '18')?.[2]).toBe('-12500');
  });

  it('refuses a bad parameter with a 400 before any CSV, and a request without a key', async () => {
    await t.expectBadRequest(
      account.viewerKey,
      '/exports/mrr-movements.csv?type=bogus',
      'Invalid query parameter "type": "bogus" is not one of new, expansion, contraction, churn, reactivation',
    );
    await t.expectBadRequest(
      account.viewerKey,
      '/exports/mrr-growth.csv?category=upgrade',
      'Invalid query parameter "category": "upgrade" is not one of new, expansion, contraction, churn, reactivation',
    );
    const anonymous = await t.call(undefined, { method: 'GET', url: '/exports/customers.csv' });
    expect(anonymous.statusCode).toBe(401);
  });
});
