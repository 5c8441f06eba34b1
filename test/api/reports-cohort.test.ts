import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  columns,
  createTestApp,
  type TestAccount,
  type TestApp,
  reportFixtureAccount,
} from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

// Today is 2026-11-23. 1 EUR = 1.20 USD from Sep 1, 1.25 from Oct 1 (before Sep 1, the last
// rate of the shipped history, 1.1684).
const RATES = 'Date,USD\n2026-09-01,1.20\n2026-10-01,1.25\n';
const line = (amount: number, period_start: string, period_end: string, plan_id: string) => ({
  plan_id,
  amount,
  period_start,
  period_end,
});
const invoice = (id: string, customer_id: string, currency: string, ...lines: object[]) => ({
  id,
  customer_id,
  currency,
  date: (lines[0] as { period_start: string }).period_start,
  lines,
});

// us1 (USD): 5000 from Aug 1, 8000 from Oct 1.        -> August cohort
// de (EUR): 10000 from Sep 15; its last period ends Nov 15, so it churns on Nov 18 (3 grace days).
// us2 (USD): 3000 from Sep 5; its only period ends Oct 5, so it churns on Oct 8.
//                                                      -> de and us2: September cohort
// Nobody starts paying in October.                     -> an empty October cohort
// fr (EUR): 4000 from Nov 2.                           -> November cohort, read today
// No customer moves again in the month it starts, so each cohort's period 0 is its new MRR.
const LIST = '/reports/cohort?date=20260801-20261130';

describe.each(STORE_KINDS)('/reports/cohort on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp(kind);
    let post;
    ({ account, post } = await reportFixtureAccount(t, RATES));
    const customer = (
      id: string,
      country: string,
      currency: string,
      industry: string,
      channel: string,
      size: string,
    ) => ({
      id,
      name: id,
      country,
      currency,
      created_date: '2026-07-01',
      custom_variables: { industry, channel, size },
    });
    await post('/data/customers', [
      customer('us1', 'US', 'usd', 'saas', 'direct', 'small'),
      customer('de', 'DE', 'eur', 'saas', 'partner', 'large'),
      customer('us2', 'US', 'usd', 'media', 'direct', 'small'),
      customer('fr', 'FR', 'eur', 'fintech', 'partner', 'small'),
    ]);
    await post('/data/invoices', [
      invoice('u1', 'us1', 'usd', line(5000, '2026-08-01', '2026-09-01', 'basic')),
      invoice('u2', 'us1', 'usd', line(5000, '2026-09-01', '2026-10-01', 'basic')),
      invoice('u3', 'us1', 'usd', line(8000, '2026-10-01', '2026-11-01', 'basic')),
      invoice('u4', 'us1', 'usd', line(8000, '2026-11-01', '2026-12-01', 'basic')),
      invoice('d1', 'de', 'eur', line(10000, '2026-09-15', '2026-10-15', 'euro')),
      invoice('d2', 'de', 'eur', line(10000, '2026-10-15', '2026-11-15', 'euro')),
      invoice('v1', 'us2', 'usd', line(3000, '2026-09-05', '2026-10-05', 'basic')),
      invoice('f1', 'fr', 'eur', line(4000, '2026-11-02', '2026-12-02', 'euro')),
    ]);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.read(account.viewerKey, url);
  /** Each cohort's group and one field of each of its periods. */
  const grid = (list: { cohort_group: string; periods: Record<string, number>[] }[], field: string) =>
    list.map((cohort) => [cohort.cohort_group, cohort.periods.map((period) => period[field])]);

  it('lists monthly cohorts with every period field worked out by hand, the average last', async () => {
    const body = await get(LIST);
    expect(body.currency).toBe('usd');
    expect(body.breakdown).toBeUndefined();
    const list = body.result.list;
    expect(columns(list.slice(0, -1), 'cohort_group', 'label', 'initial_mrr', 'initial_customers')).toEqual([
      ['2026-08-01', '2026-08', 5000, 1],
      // Sep 30: de 10000 EUR x 1.20 + us2 3000.
      ['2026-09-01', '2026-09', 15000, 2],
      ['2026-10-01', '2026-10', 0, 0],
      // Nov 23 (today): fr 4000 EUR x 1.25.
      ['2026-11-01', '2026-11', 5000, 1],
    ]);
    // Read on Aug 31, Sep 30, Oct 31 and today; the October rate lifts de to 12500.
    expect(grid(list, 'mrr_retained')).toEqual([
      ['2026-08-01', [5000, 5000, 8000, 8000]],
      ['2026-09-01', [15000, 12500, 0]],
      ['2026-10-01', [0, 0]],
      ['2026-11-01', [5000]],
      // Mean of the cohorts that reached the period: (5000 + 15000 + 0 + 5000) / 4;
      // (5000 + 12500 + 0) / 3 = 5833.33; (8000 + 0) / 2; 8000 / 1.
      ['average', [6250, 5833, 4000, 8000]],
    ]);
    expect(grid(list, 'customers_retained')).toEqual([
      ['2026-08-01', [1, 1, 1, 1]],
      ['2026-09-01', [2, 1, 0]],
      ['2026-10-01', [0, 0]],
      ['2026-11-01', [1]],
      // (1 + 2 + 0 + 1) / 4; (1 + 1 + 0) / 3 = 0.67; 1 / 2; 1.
      ['average', [1, 0.67, 0.5, 1]],
    ]);
    expect(grid(list, 'mrr_retention')).toEqual([
      // 8000 / 5000 = 160 %.
      ['2026-08-01', [100, 100, 160, 160]],
      // 12500 / 15000 = 83.33 %; de churned on Nov 18.
      ['2026-09-01', [100, 83.33, 0]],
      ['2026-10-01', [0, 0]],
      ['2026-11-01', [100]],
      // 17500 / (5000 + 15000) = 87.5 %; 8000 / 20000 = 40 %; 8000 / 5000.
      ['average', [100, 87.5, 40, 160]],
    ]);
    expect(grid(list, 'customer_retention')).toEqual([
      ['2026-08-01', [100, 100, 100, 100]],
      ['2026-09-01', [100, 50, 0]],
      ['2026-10-01', [0, 0]],
      ['2026-11-01', [100]],
      // 4 of 4; 2 of 3; 1 of 3; 1 of 1.
      ['average', [100, 66.67, 33.33, 100]],
    ]);
    expect(grid(list, 'mrr_retention_relative')).toEqual([
      ['2026-08-01', [100, 100, 160, 100]],
      // 0 of the 12500 before.
      ['2026-09-01', [100, 83.33, 0]],
      ['2026-10-01', [0, 0]],
      ['2026-11-01', [100]],
      // 17500 / 20000; 8000 / (5000 + 12500) = 45.71 %; 8000 / 8000.
      ['average', [100, 87.5, 45.71, 100]],
    ]);
    expect(grid(list, 'customer_retention_relative')).toEqual([
      ['2026-08-01', [100, 100, 100, 100]],
      ['2026-09-01', [100, 50, 0]],
      ['2026-10-01', [0, 0]],
      ['2026-11-01', [100]],
      // 2 of 3; 1 of (1 + 1).
      ['average', [100, 66.67, 50, 100]],
    ]);
    // Churns are 100 minus the retentions, 0 where there is nothing to retain.
    expect(grid(list, 'mrr_churn')).toEqual([
      ['2026-08-01', [0, 0, -60, -60]],
      ['2026-09-01', [0, 16.67, 100]],
      ['2026-10-01', [0, 0]],
      ['2026-11-01', [0]],
      ['average', [0, 12.5, 60, -60]],
    ]);
    expect(grid(list, 'customer_churn')[1]).toEqual(['2026-09-01', [0, 50, 100]]);
    expect(grid(list, 'mrr_churn_relative')[0]).toEqual(['2026-08-01', [0, 0, -60, 0]]);
    expect(grid(list, 'customer_churn_relative')[1]).toEqual(['2026-09-01', [0, 50, 100]]);
    expect(grid(list, 'nrr')).toEqual(grid(list, 'mrr_retention'));
    // The average's initial figures are the means of the cohorts that started: October has no
    // first payment. (5000 + 15000 + 5000) / 3 = 8333.33; (1 + 2 + 1) / 3 = 1.33.
    expect(columns([list.at(-1)], 'cohort_group', 'label', 'initial_mrr', 'initial_customers')).toEqual([
      ['average', 'Average', 8333, 1.33],
    ]);
    // Over August, September and November (October has no customers).
    expect(body.result.limits).toEqual({
      retention: { min: 0, max: 100 },
      nrr: { min: 0, max: 160 },
      churn: { min: 0, max: 100 },
      netChurn: { min: -60, max: 100 },
    });
  });

  it('has period 0 of each cohort equal to the new MRR of the MRR report, with the same filters', async () => {
    for (const filter of [
      '',
      '&region=DE',
      '&currency=usd',
      '&industry=saas',
      '&channel=partner',
      '&size=small',
    ]) {
      const cohorts = (await get(`${LIST}${filter}`)).result.list.slice(0, -1);
      const months = (await get(`/reports/mrr?date=20260801-20261130${filter}`)).result;
      expect(columns(cohorts, 'cohort_group', 'initial_customers')).toEqual(
        columns(months, 'date', 'new_customers'),
      );
      expect(
        cohorts.map((cohort: { periods: { mrr_retained: number }[] }) => cohort.periods[0]!.mrr_retained),
      ).toEqual(columns(months, 'new').flat());
    }
  });

  it('takes an end date alone, and by default ends today, cohorts starting in the month 365 days before', async () => {
    const ending = (await get('/reports/cohort?date=2026-10-31')).result.list;
    // 365 days from 2025-11-01: the cohorts of November 2025 to October 2026 and the average, read up to Oct 31.
    expect(ending.length).toBe(13);
    expect([ending[0].cohort_group, ending.at(-2).cohort_group]).toEqual(['2025-11-01', '2026-10-01']);
    expect(grid(ending.slice(9, 11), 'mrr_retained')).toEqual([
      ['2026-08-01', [5000, 5000, 8000]],
      ['2026-09-01', [15000, 12500]],
    ]);

    const today = (await get('/reports/cohort')).result.list;
    // November 2025 to November 2026; the empty ones keep all their periods, with zeros.
    expect(today.length).toBe(14);
    expect(today[0].cohort_group).toBe('2025-11-01');
    expect(today[0].periods).toHaveLength(13);
    expect(today[0].periods.every((period: Record<string, number>) => period.mrr_retained === 0)).toBe(true);
    expect(today.at(-1).periods).toHaveLength(13);
    expect(today.at(-2)).toMatchObject({ cohort_group: '2026-11-01', initial_mrr: 5000 });
  });

  it('with fix_fx converts each cohort at the rate of its first day', async () => {
    const { list } = (await get(`${LIST}&fix_fx=true`)).result;
    // September at Sep 1's 1.20: de is 12000 in October too; 12000 / 15000 = 80 %.
    expect(grid(list.slice(0, 4), 'mrr_retained')).toEqual([
      ['2026-08-01', [5000, 5000, 8000, 8000]],
      ['2026-09-01', [15000, 12000, 0]],
      ['2026-10-01', [0, 0]],
      ['2026-11-01', [5000]],
    ]);
    expect(list[1].periods[1].mrr_retention).toBe(80);
  });

  it('converts to another base currency', async () => {
    const body = await get(`${LIST}&baseCurrency=EUR`);
    expect(body.currency).toBe('eur');
    // us1: 5000 / 1.1684 = 4279.36 on Aug 31, 5000 / 1.20 = 4166.67 on Sep 30, then 8000 / 1.25.
    // September: 10000 + 3000 / 1.20, then de alone.
    expect(grid(body.result.list.slice(0, 2), 'mrr_retained')).toEqual([
      ['2026-08-01', [4279, 4167, 6400, 6400]],
      ['2026-09-01', [12500, 10000, 0]],
    ]);
  });

  it('aggregates daily cohorts weekly, labelled by ISO week', async () => {
    const weekly = await get(`${LIST}&interval=week`);
    expect(await get(`${LIST}&interval=day`)).toEqual(weekly);
    const list = weekly.result.list;
    // Mondays from Jul 27 (the week of Aug 1) to Nov 23: 18 weeks, and the average.
    expect(list).toHaveLength(19);
    const started = list.filter((cohort: { initial_customers: number }) => cohort.initial_customers > 0);
    expect(columns(started, 'cohort_group', 'label', 'initial_mrr')).toEqual([
      ['2026-07-27', '2026-W31', 5000],
      ['2026-08-31', '2026-W36', 3000],
      ['2026-09-14', '2026-W38', 12000],
      ['2026-11-02', '2026-W45', 5000],
      // (5000 + 3000 + 12000 + 5000) / 4, over the four weeks that started a cohort.
      ['average', 'Average', 6250],
    ]);
  });

  it('groups by quarter and by year', async () => {
    const quarters = (await get(`${LIST}&interval=quarter`)).result.list;
    // Q3: us1, de, us2 on Sep 30: 5000 + 12000 + 3000; today: 8000 = 40 %, 1 of 3 customers.
    expect(
      columns(quarters.slice(0, -1), 'cohort_group', 'label', 'initial_mrr', 'initial_customers'),
    ).toEqual([
      ['2026-07-01', '2026-Q3', 20000, 3],
      ['2026-10-01', '2026-Q4', 5000, 1],
    ]);
    expect(columns(quarters[0].periods, 'mrr_retained', 'mrr_retention', 'customer_retention')).toEqual([
      [20000, 100, 100],
      [8000, 40, 33.33],
    ]);
    const years = (await get(`${LIST}&interval=year`)).result.list;
    // Everyone, read today: 8000 + 0 + 0 + 5000; 2 of 4 pay.
    expect(columns(years, 'cohort_group', 'initial_mrr', 'initial_customers')).toEqual([
      ['2026-01-01', 13000, 4],
      // One cohort: the mean is that cohort.
      ['average', 13000, 4],
    ]);
    expect(years[0].periods[0]).toMatchObject({ customers_retained: 2, customer_retention: 50 });
  });

  it('breaks down by country, each customer counted from its own start', async () => {
    const body = await get(`${LIST}&breakdown=country`);
    expect(body.breakdown).toBe('country');
    expect(columns(body.result.list, 'cohort_group', 'label', 'initial_mrr', 'initial_customers')).toEqual([
      ['DE', 'DE', 12000, 1],
      ['FR', 'FR', 5000, 1],
      // us1 from August, us2 from September.
      ['US', 'US', 8000, 2],
      // (12000 + 5000 + 8000) / 3 = 8333.33; (1 + 1 + 2) / 3 = 1.33.
      ['average', 'Average', 8333, 1.33],
    ]);
    expect(grid(body.result.list, 'mrr_retained')).toEqual([
      ['DE', [12000, 12500, 0]],
      ['FR', [5000]],
      // us1 5000 + us2 0; us1 8000 + us2 0; us1 alone (us2 has no fourth period yet).
      ['US', [8000, 5000, 8000, 8000]],
      // (12000 + 5000 + 8000) / 3 = 8333.33; (12500 + 5000) / 2; (0 + 8000) / 2; 8000.
      ['average', [8333, 8750, 4000, 8000]],
    ]);
    expect(grid(body.result.list, 'mrr_retention')).toEqual([
      // 12500 / 12000 = 104.17 %.
      ['DE', [100, 104.17, 0]],
      ['FR', [100]],
      // 5000 / 8000; 8000 / 8000; 8000 / 5000 (us1's own start).
      ['US', [100, 62.5, 100, 160]],
      // 17500 / (12000 + 8000); 8000 / 20000; 8000 / 5000.
      ['average', [100, 87.5, 40, 160]],
    ]);
    expect(grid(body.result.list, 'customer_retention')[2]).toEqual(['US', [100, 50, 50, 100]]);
  });

  it('breaks down by currency', async () => {
    const { list } = (await get(`${LIST}&breakdown=currency`)).result;
    expect(columns(list, 'cohort_group', 'initial_mrr', 'initial_customers')).toEqual([
      // de 12000 + fr 5000.
      ['eur', 17000, 2],
      ['usd', 8000, 2],
      // (17000 + 8000) / 2; (2 + 2) / 2.
      ['average', 12500, 2],
    ]);
    // Period 1 only de reached: 12500 of its 12000.
    expect(grid(list.slice(0, 1), 'mrr_retention')).toEqual([['eur', [100, 104.17, 0]]]);
  });

  it('keeps only the customers the filters keep', async () => {
    const initial = async (filter: string) =>
      columns((await get(`${LIST}&${filter}`)).result.list.slice(0, -1), 'initial_mrr', 'initial_customers');
    expect(await initial('region=US')).toEqual([
      [5000, 1],
      [3000, 1],
      [0, 0],
      [0, 0],
    ]);
    expect(await initial('region=~US')).toEqual([
      [0, 0],
      [12000, 1],
      [0, 0],
      [5000, 1],
    ]);
    expect(await initial('currency=usd')).toEqual(await initial('region=US'));
    expect(await initial('industry=saas')).toEqual([
      [5000, 1],
      [12000, 1],
      [0, 0],
      [0, 0],
    ]);
    expect(await initial('channel=partner')).toEqual(await initial('region=~US'));
    expect(await initial('size=large')).toEqual([
      [0, 0],
      [12000, 1],
      [0, 0],
      [0, 0],
    ]);
  });

  it('lays the figures out by period for a chart', async () => {
    const body = await get(`${LIST}&format=chart`);
    expect(body.currency).toBe('usd');
    expect(body.breakdown).toBeUndefined();
    expect(body.result.map((period: { period: number }) => period.period)).toEqual([0, 1, 2, 3]);
    expect(Object.keys(body.result[0].breakdown)).toEqual([
      '2026-08-01',
      '2026-09-01',
      '2026-10-01',
      '2026-11-01',
      'average',
    ]);
    expect(body.result[1].breakdown['2026-09-01']).toEqual({
      label: '2026-09',
      mrr_retained: 12500,
      customers_retained: 1,
      mrr_retention: 83.33,
      customer_retention: 50,
    });
    // Only August reached its fourth period.
    expect(Object.keys(body.result[3].breakdown)).toEqual(['2026-08-01', 'average']);

    const byCountry = await get(`${LIST}&format=chart&breakdown=country`);
    expect(byCountry.breakdown).toBe('country');
    expect(byCountry.result[0]).toEqual({
      period: 0,
      breakdown: {
        DE: {
          label: 'DE',
          mrr_retained: 12000,
          customers_retained: 1,
          mrr_retention: 100,
          customer_retention: 100,
        },
        FR: {
          label: 'FR',
          mrr_retained: 5000,
          customers_retained: 1,
          mrr_retention: 100,
          customer_retention: 100,
        },
        US: {
          label: 'US',
          mrr_retained: 8000,
          customers_retained: 2,
          mrr_retention: 100,
          customer_retention: 100,
        },
        average: {
          label: 'Average',
          mrr_retained: 8333,
          customers_retained: 1.33,
          mrr_retention: 100,
          customer_retention: 100,
        },
      },
    });
  });

  it('answers a viewer key under /v1 too', async () => {
    expect(await get(`/v1${LIST}`)).toEqual(await get(LIST));
  });

  it('documents the route, its parameters and both shapes in /openapi.json', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operation = doc.paths['/reports/cohort'].get;
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
      expect.arrayContaining([
        'date',
        'interval',
        'baseCurrency',
        'breakdown',
        'fix_fx',
        'format',
        'region',
        'size',
      ]),
    );
    expect(operation.responses['200'].content['application/json'].schema.anyOf).toHaveLength(2);
  });

  it('refuses a request without a key', async () => {
    const response = await t.call(undefined, { method: 'GET', url: LIST });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'Unauthorized' });
  });

  it.each([
    [
      'date=2026-02-30',
      'Invalid query parameter "date": expected a date YYYY-MM-DD or a range YYYYMMDD-YYYYMMDD of real dates',
    ],
    ['date=20261130-20260801', 'Invalid query parameter "date": the range ends before it starts'],
    ['interval=hour', 'Invalid query parameter "interval": expected one of day, week, month, quarter, year'],
    [
      'baseCurrency=zzz',
      'Invalid query parameter "baseCurrency": unknown currency "zzz": no exchange rates for it',
    ],
    ['breakdown=planet', 'Invalid query parameter "breakdown": unknown dimension "planet"'],
    ['fix_fx=yes', 'Invalid query parameter "fix_fx": expected true or false'],
    ['format=table', 'Invalid query parameter "format": Invalid input: expected "chart"'],
    [
      'region=atlantis',
      'Invalid query parameter "region": "atlantis" is neither a country code nor a named region',
    ],
    ['currency=doubloon', 'Invalid query parameter "currency": unknown currency "doubloon"'],
  ])('rejects %s with 400', async (parameter, message) => {
    const response = await t.call(account.viewerKey, { method: 'GET', url: `/reports/cohort?${parameter}` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: message });
  });
});
