import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columns, createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

// Today is 2026-11-23. 1 EUR = 1.20 USD from Sep 1, 1.25 from Oct 1 (and so on every later day).
const RATES = 'Date,USD\n2026-09-01,1.20\n2026-10-01,1.25\n';
const monthly = (
  id: string,
  customer_id: string,
  currency: string,
  amount: number,
  period_start: string,
  period_end: string,
  subscription_id: string | null,
) => ({
  id,
  customer_id,
  currency,
  date: period_start,
  lines: [
    {
      plan_id: currency === 'usd' ? 'basic' : 'euro',
      subscription_id,
      amount,
      period_start,
      period_end,
    },
  ],
});

/*
 * The movements the fixture derives, amounts in the customer's currency:
 *   c_us  +8000 USD Aug 1;  scheduled churn -8000 on Dec 15 2026, asked Nov 10.
 *   c_de +10000 EUR Sep 15; scheduled churn -10000 on Jan 15 2027, asked Sep 20.
 *   c_gb  +3000 USD Jun 1;  scheduled downgrade -2000 on Feb 1 2027 and churn -1000 on Mar 10 2027,
 *                           when asked unknown (so known today).
 *   c_fr  +5000 EUR Oct 1;  no subscription record: its revenue stops after its last period and the
 *                           grace days (Dec 4), which is no plan anybody made, so never scheduled churn.
 */
describe.each(STORE_KINDS)('scheduled churn, CMRR and custom variables on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;

  const post = (key: string, url: string, payload: unknown) => t.seed(key, url, payload);

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
    await t.loadRates(RATES);
    const key = account.adminKey;
    await post(key, '/data/plans', [
      { id: 'basic', name: 'Basic', billing_freq: 'month', currency: 'usd' },
      { id: 'euro', name: 'Euro', billing_freq: 'month', currency: 'eur' },
    ]);
    await post(key, '/data/customers', [
      {
        id: 'c_us',
        name: 'US',
        email: 'us@example.com',
        country: 'US',
        currency: 'usd',
        created_date: '2026-07-20',
        custom_variables: { industry: 'Software' },
      },
      {
        id: 'c_de',
        name: 'DE',
        country: 'DE',
        currency: 'eur',
        created_date: '2026-09-01',
        custom_variables: { industry: 'Retail' },
      },
      {
        id: 'c_gb',
        name: 'GB',
        country: 'GB',
        currency: 'usd',
        created_date: '2026-05-20',
        custom_variables: { industry: 'software' },
      },
      {
        id: 'c_fr',
        name: 'FR',
        country: 'FR',
        currency: 'eur',
        created_date: '2026-09-20',
        custom_variables: { industry: 'Retail' },
      },
    ]);
    await post(key, '/data/invoices', [
      monthly('u1', 'c_us', 'usd', 8000, '2026-08-01', '2026-09-01', 'sub_us'),
      monthly('u2', 'c_us', 'usd', 8000, '2026-09-01', '2026-10-01', 'sub_us'),
      monthly('u3', 'c_us', 'usd', 8000, '2026-10-01', '2026-11-01', 'sub_us'),
      monthly('u4', 'c_us', 'usd', 8000, '2026-11-01', '2026-12-01', 'sub_us'),
      monthly('d1', 'c_de', 'eur', 10000, '2026-09-15', '2026-10-15', 'sub_de'),
      monthly('d2', 'c_de', 'eur', 10000, '2026-10-15', '2026-11-15', 'sub_de'),
      monthly('d3', 'c_de', 'eur', 10000, '2026-11-15', '2026-12-15', 'sub_de'),
      monthly('f1', 'c_fr', 'eur', 5000, '2026-10-01', '2026-11-01', null),
      monthly('f2', 'c_fr', 'eur', 5000, '2026-11-01', '2026-12-01', null),
    ]);
    await post(key, '/data/subscriptions', [
      {
        id: 'sub_us',
        customer_id: 'c_us',
        plan_id: 'basic',
        started_at: '2026-08-01',
        cancel_at: '2026-12-15',
        cancel_requested_at: '2026-11-10',
      },
      {
        id: 'sub_de',
        customer_id: 'c_de',
        plan_id: 'euro',
        started_at: '2026-09-15',
        cancel_at: '2027-01-15',
        cancel_requested_at: '2026-09-20',
      },
      {
        id: 'sub_gb',
        customer_id: 'c_gb',
        started_at: '2026-06-01',
        mrr: 3000,
        currency: 'usd',
        scheduled_changes: [{ date: '2027-02-01', amount: 1000 }],
        cancel_at: '2027-03-10',
      },
    ]);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.read(account.viewerKey, url);
  const movements = async (query: string) =>
    columns(
      (await get(`/reports/churn-scheduled-movements${query}`)).result.list,
      'date',
      'customer_id',
      'mrr_change_base_currency',
    );

  describe('/reports/churn-scheduled-movements', () => {
    it('lists every scheduled cancellation after today, soonest first', async () => {
      // Each cancellation asked for, or at least not after an unpaid invoice: voluntary.
      expect(await get('/reports/churn-scheduled-movements')).toEqual({
        result: {
          list: [
            {
              date: '2026-12-15',
              currency: 'usd',
              customer_id: 'c_us',
              customer_name: 'US',
              customer_email: 'us@example.com',
              type: 'churn',
              subtype: 'voluntary',
              mrr_change: -8000,
              mrr_change_base_currency: -8000,
              description: 'Scheduled Churn: MRR 80.00 -> 0.00 USD',
            },
            {
              date: '2027-01-15',
              currency: 'eur',
              customer_id: 'c_de',
              customer_name: 'DE',
              customer_email: null,
              type: 'churn',
              subtype: 'voluntary',
              // -10000 EUR x 1.25 (the latest rate) = -12500 USD.
              mrr_change: -10000,
              mrr_change_base_currency: -12500,
              description: 'Scheduled Churn: MRR 100.00 -> 0.00 EUR',
            },
            {
              date: '2027-03-10',
              currency: 'usd',
              customer_id: 'c_gb',
              customer_name: 'GB',
              customer_email: null,
              type: 'churn',
              subtype: 'voluntary',
              // What is left after the downgrade on Feb 1: 3000 - 2000 = 1000.
              mrr_change: -1000,
              mrr_change_base_currency: -1000,
              description: 'Scheduled Churn: MRR 10.00 -> 0.00 USD',
            },
          ],
        },
      });
    });

    it.each([
      ['?selected-date=2027-01-10&selected-type=month_churn', [['2027-01-15', 'c_de', -12500]]],
      [
        '?selected-date=2027-01-10&selected-type=quarter_churn',
        [
          ['2027-01-15', 'c_de', -12500],
          ['2027-03-10', 'c_gb', -1000],
        ],
      ],
      ['?selected-date=2026-01-01&selected-type=year_churn', [['2026-12-15', 'c_us', -8000]]],
      // Dec 15 2026 is a Tuesday: its week runs Monday Dec 14 to Sunday Dec 20.
      ['?selected-date=2026-12-20&selected-type=week_churn', [['2026-12-15', 'c_us', -8000]]],
      ['?selected-date=2026-12-15&selected-type=day_churn', [['2026-12-15', 'c_us', -8000]]],
      ['?selected-date=2026-12-16&selected-type=day_churn', []],
      // Without selected-type, the period is the interval's, by default a month.
      ['?selected-date=2026-12-01', [['2026-12-15', 'c_us', -8000]]],
      [
        '?selected-date=2027-06-30&interval=year',
        [
          ['2027-01-15', 'c_de', -12500],
          ['2027-03-10', 'c_gb', -1000],
        ],
      ],
      // The period of November 2026 holds no cancellation after today.
      ['?selected-date=2026-11-01', []],
      [
        '?sort=mrr_change',
        [
          ['2027-01-15', 'c_de', -12500],
          ['2026-12-15', 'c_us', -8000],
          ['2027-03-10', 'c_gb', -1000],
        ],
      ],
      [
        '?sort=date&order=desc',
        [
          ['2027-03-10', 'c_gb', -1000],
          ['2027-01-15', 'c_de', -12500],
          ['2026-12-15', 'c_us', -8000],
        ],
      ],
      ['?breakdown=currency&breakdown-value=eur', [['2027-01-15', 'c_de', -12500]]],
      ['?breakdown=country&breakdown-value=US', [['2026-12-15', 'c_us', -8000]]],
      ['?breakdown=custom_industry&breakdown-value=software', [['2027-03-10', 'c_gb', -1000]]],
      ['?breakdown=currency&breakdown-value=gbp', []],
      // A breakdown alone groups the list: eur first, then usd, each by date.
      [
        '?breakdown=currency',
        [
          ['2027-01-15', 'c_de', -12500],
          ['2026-12-15', 'c_us', -8000],
          ['2027-03-10', 'c_gb', -1000],
        ],
      ],
      // By plan: basic, euro, and c_gb's record without a plan last.
      [
        '?breakdown=plan&order=desc',
        [
          ['2026-12-15', 'c_us', -8000],
          ['2027-01-15', 'c_de', -12500],
          ['2027-03-10', 'c_gb', -1000],
        ],
      ],
      ['?customer=c_gb', [['2027-03-10', 'c_gb', -1000]]],
      ['?region=eu', [['2027-01-15', 'c_de', -12500]]],
      ['?industry=Software', [['2026-12-15', 'c_us', -8000]]],
      // In EUR: -8000 / 1.25 = -6400; -10000 as it is; -1000 / 1.25 = -800.
      [
        '?baseCurrency=EUR',
        [
          ['2026-12-15', 'c_us', -6400],
          ['2027-01-15', 'c_de', -10000],
          ['2027-03-10', 'c_gb', -800],
        ],
      ],
      ['?fix_fx=true&currency=eur', [['2027-01-15', 'c_de', -12500]]],
    ])('with %s', async (query, expected) => {
      expect(await movements(query)).toEqual(expected);
    });
  });

  describe('/reports/churn-scheduled', () => {
    const row = (
      date: string,
      churn: number,
      churnCustomers: number,
      contraction = 0,
      contractionCustomers = 0,
      totalCustomers = churnCustomers + contractionCustomers,
    ) => ({
      date,
      churn,
      contraction,
      churn_customers: churnCustomers,
      contraction_customers: contractionCustomers,
      total_mrr: churn + contraction,
      total_customers: totalCustomers,
    });

    it('adds up the scheduled losses per period; c_fr ending without a plan is not one', async () => {
      expect(await get('/reports/churn-scheduled?date=20261201-20270331')).toEqual({
        currency: 'usd',
        result: [
          row('2026-12-01', -8000, 1),
          row('2027-01-01', -12500, 1),
          row('2027-02-01', 0, 0, -2000, 1),
          row('2027-03-01', -1000, 1),
        ],
      });
    });

    it('covers the next 365 days by default and takes interval and filters', async () => {
      const body = await get('/reports/churn-scheduled');
      // From Nov 24 2026 (tomorrow) to Nov 23 2027: 13 months, the first cut to the range.
      expect(body.result).toHaveLength(13);
      expect(body.result[0]).toEqual(row('2026-11-24', 0, 0));
      expect(body.result.reduce((sum: number, r: { total_mrr: number }) => sum + r.total_mrr, 0)).toBe(
        -8000 - 12500 - 2000 - 1000,
      );
      const quarters = await get('/reports/churn-scheduled?date=20261201-20270331&interval=quarter');
      // Q1 2027: churn -12500 - 1000 by two customers, contraction -2000 by c_gb, who is counted once.
      expect(quarters.result).toEqual([
        row('2026-12-01', -8000, 1),
        row('2027-01-01', -13500, 2, -2000, 1, 2),
      ]);
      const gb = await get('/reports/churn-scheduled?date=20270101-20270331&interval=quarter&region=gb');
      expect(gb.result).toEqual([row('2027-01-01', -1000, 1, -2000, 1, 1)]);
      const eur = await get('/reports/churn-scheduled?date=20270101-20270131&baseCurrency=eur&fix_fx=true');
      expect(eur).toEqual({ currency: 'eur', result: [row('2027-01-01', -10000, 1)] });
    });
  });

  describe('/reports/churn-scheduled-summary', () => {
    it('gives scheduled churn now and as it stood 30, 60, 180 and 365 days ago', async () => {
      expect(await get('/reports/churn-scheduled-summary')).toEqual({
        currency: 'usd',
        summary: {
          // Nov 23: -8000 - 10000 x 1.25 - 1000 = -21500.
          churn_current: -21500,
          // Oct 24: only c_de was asked for yet (Sep 20): -10000 x 1.25.
          churn_30: -12500,
          // Sep 24: c_de at that day's rate, 1.20.
          churn_60: -12000,
          churn_180: 0,
          churn_365: 0,
        },
      });
    });

    it('equals the sum of the listed scheduled movements', async () => {
      const list = (await get('/reports/churn-scheduled-movements')).result.list as {
        mrr_change_base_currency: number;
      }[];
      const summary = (await get('/reports/churn-scheduled-summary')).summary;
      expect(summary.churn_current).toBe(list.reduce((sum, item) => sum + item.mrr_change_base_currency, 0));
    });

    it.each([
      // Every figure at today's rate: Sep 24 becomes -12500.
      ['?fix_fx=true', [-21500, -12500, -12500, 0, 0]],
      ['?region=eu', [-12500, -12500, -12000, 0, 0]],
      ['?currency=usd', [-9000, 0, 0, 0, 0]],
      ['?industry=Retail', [-12500, -12500, -12000, 0, 0]],
      ['?customer=c_us', [-8000, 0, 0, 0, 0]],
      // In EUR: -8000 / 1.25 - 10000 - 1000 / 1.25 = -17200; Oct 24 and Sep 24: c_de's -10000.
      ['?baseCurrency=eur', [-17200, -10000, -10000, 0, 0]],
    ])('with %s', async (query, expected) => {
      expect(Object.values((await get(`/reports/churn-scheduled-summary${query}`)).summary)).toEqual(
        expected,
      );
    });
  });

  describe('/reports/cmrr-summary', () => {
    it('gives committed MRR now and as it stood 30, 60, 180 and 365 days ago', async () => {
      expect(await get('/reports/cmrr-summary')).toEqual({
        currency: 'usd',
        summary: {
          // Nov 23: c_us, c_de and c_gb all end; c_fr's 5000 EUR x 1.25 = 6250 stays (no plan ends it).
          cmrr_current: 6250,
          // Oct 24: c_us 8000 + c_de 0 (cancellation known) + c_gb 3000 + c_fr 6250 = 17250.
          cmrr_30: 17250,
          // Sep 24: c_us 8000 + c_de 0 + c_gb 3000 (c_fr not yet) = 11000.
          cmrr_60: 11000,
          cmrr_180: 0,
          cmrr_365: 0,
        },
      });
    });

    it('equals MRR plus the scheduled movements', async () => {
      const mrr = (await get('/reports/summary')).summary.mrr_current;
      // MRR: 8000 + 10000 x 1.25 + 3000 + 5000 x 1.25 = 29750.
      expect(mrr).toBe(29750);
      const committed = await get('/reports/movement-table?date=20261124-20271231&committed=true');
      const scheduled = (committed.result.list as { mrr_change_base_currency: number }[]).reduce(
        (sum, item) => sum + item.mrr_change_base_currency,
        0,
      );
      // -8000 - 12500 - 2000 - 1000 = -23500.
      expect(scheduled).toBe(-23500);
      expect((await get('/reports/cmrr-summary')).summary.cmrr_current).toBe(mrr + scheduled);
    });

    it.each([
      // In EUR, rounded once: Oct 24 (8000 + 3000) / 1.25 + 5000 = 13800; Sep 24 11000 / 1.20 = 9166.67.
      ['?baseCurrency=eur', [5000, 13800, 9167, 0, 0]],
      ['?region=eu', [6250, 6250, 0, 0, 0]],
      ['?currency=usd', [0, 11000, 11000, 0, 0]],
      ['?customer=c_gb', [0, 3000, 3000, 0, 0]],
      ['?baseCurrency=eur&fix_fx=true', [5000, 13800, 8800, 0, 0]],
    ])('with %s', async (query, expected) => {
      expect(Object.values((await get(`/reports/cmrr-summary${query}`)).summary)).toEqual(expected);
    });
  });

  describe('/reports/custom-variables', () => {
    it('counts the customers per value, most first, and searches in any case', async () => {
      expect(await get('/reports/custom-variables?key=industry')).toEqual({
        values: [
          { value: 'Retail', count: 2 },
          { value: 'Software', count: 1 },
          { value: 'software', count: 1 },
        ],
      });
      expect((await get('/reports/custom-variables?key=industry&search=SOFT')).values).toEqual([
        { value: 'Software', count: 1 },
        { value: 'software', count: 1 },
      ]);
      expect((await get('/reports/custom-variables?key=industry&limit=1')).values).toEqual([
        { value: 'Retail', count: 2 },
      ]);
      expect((await get('/v1/reports/custom-variables?key=colour')).values).toEqual([]);
    });

    it('serves a result for 5 minutes, per account and query', async () => {
      const other = await t.newAccount('Cache');
      const values = async (query: string) => {
        const response = await t.call(other.viewerKey, {
          method: 'GET',
          url: `/reports/custom-variables?${query}`,
        });
        return response.json().values;
      };
      const customer = (id: string) => ({
        id,
        name: id,
        currency: 'usd',
        created_date: '2026-11-01',
        custom_variables: { size: 'small' },
      });
      await post(other.adminKey, '/data/customers', [customer('a')]);
      expect(await values('key=size')).toEqual([{ value: 'small', count: 1 }]);
      await post(other.adminKey, '/data/customers', [customer('b')]);
      try {
        t.clock.set('2026-11-23T12:04:59.000Z');
        expect(await values('key=size')).toEqual([{ value: 'small', count: 1 }]);
        // Another query is another entry, and the first account's values stay its own.
        expect(await values('key=size&limit=5')).toEqual([{ value: 'small', count: 2 }]);
        expect(await values('key=industry')).toEqual([]);
        t.clock.set('2026-11-23T12:05:01.000Z');
        expect(await values('key=size')).toEqual([{ value: 'small', count: 2 }]);
      } finally {
        t.clock.set('2026-11-23T12:00:00.000Z');
      }
    });
  });

  it.each([
    ['/reports/custom-variables', 'Missing required parameter: key'],
    ['/reports/custom-variables?key=', 'Missing required parameter: key'],
    ['/reports/custom-variables?key=industry&limit=0', 'Invalid query parameter "limit": must be at least 1'],
    [
      '/reports/custom-variables?key=industry&limit=101',
      'Invalid query parameter "limit": must be at most 100',
    ],
    [
      '/reports/churn-scheduled-movements?selected-type=month',
      'Invalid query parameter "selected-type": Invalid option: expected one of "day_churn"|"week_churn"|"month_churn"|"quarter_churn"|"year_churn"',
    ],
    [
      '/reports/churn-scheduled-movements?selected-date=2027-02-30',
      'Invalid query parameter "selected-date": expected a real date YYYY-MM-DD',
    ],
    [
      '/reports/churn-scheduled-movements?selected-date=20270201',
      'Invalid query parameter "selected-date": must be a date YYYY-MM-DD',
    ],
    [
      '/reports/churn-scheduled-movements?breakdown=colour',
      'Invalid query parameter "breakdown": unknown dimension "colour"',
    ],
    [
      '/reports/churn-scheduled-movements?breakdown-value=eur',
      'Invalid query parameter "breakdown-value": needs "breakdown"',
    ],
    [
      '/reports/churn-scheduled-movements?sort=name',
      'Invalid query parameter "sort": Invalid option: expected one of "date"|"mrr_change"',
    ],
    [
      '/reports/churn-scheduled-movements?order=up',
      'Invalid query parameter "order": Invalid option: expected one of "asc"|"desc"',
    ],
    [
      '/reports/churn-scheduled-movements?interval=hour',
      'Invalid query parameter "interval": expected one of day, week, month, quarter, year',
    ],
    [
      '/reports/churn-scheduled-movements?fix_fx=1',
      'Invalid query parameter "fix_fx": expected true or false',
    ],
    [
      '/reports/churn-scheduled?date=2027',
      'Invalid query parameter "date": expected a range YYYYMMDD-YYYYMMDD of real dates',
    ],
    [
      '/reports/churn-scheduled?interval=hour',
      'Invalid query parameter "interval": expected one of day, week, month, quarter, year',
    ],
    [
      '/reports/churn-scheduled-summary?baseCurrency=zzz',
      'Invalid query parameter "baseCurrency": unknown currency "zzz": no exchange rates for it',
    ],
    [
      '/reports/churn-scheduled-summary?region=atlantis',
      'Invalid query parameter "region": "atlantis" is neither a country code nor a named region',
    ],
    ['/reports/cmrr-summary?plan=nope', 'Invalid query parameter "plan": unknown plan group "nope"'],
    ['/reports/cmrr-summary?currency=zzz', 'Invalid query parameter "currency": unknown currency "zzz"'],
  ])('rejects %s with 400', (url, message) => t.expectBadRequest(account.viewerKey, url, message));

  it('documents the routes with their parameters in /openapi.json', async () => {
    expect(await t.documentedParameters('/reports/churn-scheduled-movements')).toEqual(
      expect.arrayContaining([
        'selected-date',
        'selected-type',
        'breakdown',
        'breakdown-value',
        'sort',
        'order',
      ]),
    );
    expect(await t.documentedParameters('/reports/custom-variables')).toEqual(['key', 'search', 'limit']);
    for (const path of [
      '/reports/churn-scheduled',
      '/reports/churn-scheduled-summary',
      '/reports/cmrr-summary',
    ])
      expect(await t.documentedParameters(path)).toEqual(
        expect.arrayContaining(['baseCurrency', 'region', 'plan', 'fix_fx']),
      );
  });

  it.each([
    '/reports/churn-scheduled-movements',
    '/reports/churn-scheduled',
    '/reports/churn-scheduled-summary',
    '/reports/cmrr-summary',
    '/reports/custom-variables?key=industry',
  ])('%s needs a key and shows each account only its own figures', async (url) => {
    const unauthorised = await t.call(undefined, { method: 'GET', url });
    expect(unauthorised.statusCode).toBe(401);
    expect(unauthorised.json()).toEqual({ error: 'Unauthorized' });
    const other = await t.newAccount('Other');
    const body = (await t.call(other.viewerKey, { method: 'GET', url })).json();
    const figures = JSON.stringify(body);
    expect(figures).not.toMatch(/c_us|Retail|-8000|6250/);
  });
});
