import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  columns,
  createTestApp,
  type TestAccount,
  type TestApp,
  BASIC_AND_EURO_PLANS,
} from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

const RATES = 'Date,USD\n2025-01-01,1.25\n';

const monthly = (
  id: string,
  customer_id: string,
  currency: string,
  period_start: string,
  period_end: string,
) => ({
  id,
  customer_id,
  currency,
  date: period_start,
  lines: [{ plan_id: currency === 'usd' ? 'basic' : 'euro', amount: 5000, period_start, period_end }],
});

/*
 * Today is Monday 2026-11-23. The funnel of the fixture, days from lead to paid and from trial to paid:
 *
 *   id  where        lead          trial    paid                                  lead->paid  trial->paid
 *   p1  US, CA, usd  Sep 3         Sep 3    Sep 17 (first invoice)                14          14
 *   p2  DE, eur      Oct 5         Oct 6    -
 *   p3  FR, eur      Oct 12        -        Oct 20 (the record's paid_started)    8
 *   p4  US, usd      Nov 2         Nov 9    Nov 16 (first invoice)                14          7
 *   p5  GB, usd      Nov 20 (in a second data source)
 *   p6  US, usd      Jun 10 2025   -        Jul 1 2025 (first invoice)            21
 *
 * p1 and p4 pay for the monthly plan "basic" up to after today, so they are active; p6's one
 * month ended in 2025.
 */
describe.each(STORE_KINDS)('lead and trial reports on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  let basicGroup: string;
  let csvSource: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
    await t.loadRates(RATES);
    const post = (url: string, payload: unknown) => t.seed(account.adminKey, url, payload);
    csvSource = (await post('/data/data-sources', { name: 'Books', type: 'csv' })).json().id;
    await post('/data/plans', BASIC_AND_EURO_PLANS);
    basicGroup = (await post('/data/plan-groups', { name: 'Basic', plans: [{ id: 'basic' }] })).json().id;
    await post('/data/customers', [
      {
        id: 'p1',
        name: 'P1',
        country: 'US',
        state: 'CA',
        currency: 'usd',
        created_date: '2026-09-03T10:00:00Z',
        trial_started: '2026-09-03T10:05:00Z',
        custom_variables: { industry: 'Software', channel: 'ads', size: 'small' },
      },
      {
        id: 'p2',
        name: 'P2',
        country: 'DE',
        currency: 'eur',
        created_date: '2026-10-05',
        trial_started: '2026-10-06',
        cancel_reason: 'too_expensive',
        custom_variables: { industry: 'Retail', channel: 'organic', size: 'large' },
      },
      {
        id: 'p3',
        name: 'P3',
        country: 'FR',
        currency: 'eur',
        created_date: '2026-10-12',
        paid_started: '2026-10-20',
        custom_variables: { industry: 'Retail' },
      },
      {
        id: 'p4',
        name: 'P4',
        country: 'US',
        currency: 'usd',
        created_date: '2026-11-02',
        trial_started: '2026-11-09',
      },
      {
        id: 'p5',
        name: 'P5',
        country: 'GB',
        currency: 'usd',
        created_date: '2026-11-20',
        data_source: csvSource,
      },
      { id: 'p6', name: 'P6', country: 'US', currency: 'usd', created_date: '2025-06-10' },
    ]);
    await post('/data/invoices', [
      monthly('i1', 'p1', 'usd', '2026-09-17', '2026-10-17'),
      monthly('i2', 'p1', 'usd', '2026-10-17', '2026-11-17'),
      monthly('i3', 'p1', 'usd', '2026-11-17', '2026-12-17'),
      monthly('i4', 'p4', 'usd', '2026-11-16', '2026-12-16'),
      monthly('i6', 'p6', 'usd', '2025-07-01', '2025-08-01'),
    ]);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.read(account.viewerKey, url);
  const FALL = 'date=20260901-20261123';

  describe('/reports/leads', () => {
    it('covers the last 365 days by month by default, with a forecast for this month only', async () => {
      const body = await get('/reports/leads');
      expect(body.currency).toBe('usd');
      // Nov 24 2025 (today - 364) to Nov 23 2026: the cut November 2025, then 12 whole months.
      expect(body.result).toHaveLength(13);
      expect(body.result[0]).toMatchObject({ date: '2025-11-24', leads: 0, leads_percent_change: null });
      expect(columns(body.result.slice(-4), 'date', 'leads', 'trials')).toEqual([
        ['2026-08-01', 0, 0],
        ['2026-09-01', 1, 1],
        ['2026-10-01', 2, 1],
        ['2026-11-01', 2, 1],
      ]);
      expect(body.result.slice(0, -1).some((row: object) => 'leads_forecast' in row)).toBe(false);
      expect(body.result.slice(-3)).toEqual([
        {
          date: '2026-09-01',
          // p1: a lead, a trial, paying 14 days on: 1 / 1 everywhere. August had nothing: null.
          leads: 1,
          leads_percent_change: null,
          trials: 1,
          trials_percent_change: null,
          leads_converted: 1,
          trials_converted: 1,
          lead_to_trial_rate: 100,
          lead_to_trial_rate_percent_change: null,
          trial_to_paid_rate: 100,
          trial_to_paid_rate_percent_change: null,
          lead_to_paid_rate: 100,
          lead_to_paid_rate_percent_change: null,
          lead_to_paid_days: 14,
          trial_to_paid_days: 14,
        },
        {
          date: '2026-10-01',
          // Leads p2, p3: (2 - 1) / 1 = +100 %; p2 trialed (1 / 2), p3 pays 8 days on (1 / 2).
          leads: 2,
          leads_percent_change: 100,
          // Trial p2, not paying: 0 / 1.
          trials: 1,
          trials_percent_change: 0,
          leads_converted: 1,
          trials_converted: 0,
          lead_to_trial_rate: 50,
          lead_to_trial_rate_percent_change: -50,
          trial_to_paid_rate: 0,
          trial_to_paid_rate_percent_change: -100,
          lead_to_paid_rate: 50,
          lead_to_paid_rate_percent_change: -50,
          lead_to_paid_days: 8,
          // No trial converted: 0 days / 0 conversions -> 0 (trials_converted 0 tells).
          trial_to_paid_days: 0,
        },
        {
          date: '2026-11-01',
          // Leads p4, p5; p4 trialed and pays (14 days from lead, 7 from trial).
          leads: 2,
          leads_percent_change: 0,
          trials: 1,
          trials_percent_change: 0,
          leads_converted: 1,
          trials_converted: 1,
          lead_to_trial_rate: 50,
          lead_to_trial_rate_percent_change: 0,
          trial_to_paid_rate: 100,
          // From 0 %: null.
          trial_to_paid_rate_percent_change: null,
          lead_to_paid_rate: 50,
          lead_to_paid_rate_percent_change: 0,
          lead_to_paid_days: 14,
          trial_to_paid_days: 7,
          // 23 of November's 30 days gone: 2 x 30 / 23 = 2.61; 1 x 30 / 23 = 1.30.
          leads_forecast: 3,
          trials_forecast: 1,
          conversions_forecast: 1,
          trial_to_paid_rate_forecast: 100,
        },
      ]);
    });

    it.each([
      // Quarters: Q3 p1; Q4 p2, p3, p4, p5. Q4 holds today: 54 of its 92 days gone (Oct 1 to
      // Nov 23), so leads 4 x 92 / 54 = 6.81, trials (p2, p4) 3.41, conversions (p3, p4) 3.41.
      [
        'date=20260701-20261123&interval=quarter',
        [
          ['2026-07-01', 1, 1, null, undefined, undefined, undefined],
          ['2026-10-01', 4, 2, 300, 7, 3, 3],
        ],
      ],
      // Years: 2025 p6 (21 days to paid); 2026 p1 to p5 (5 - 1) / 1 = +400 %; 327 of 365 days
      // gone: 5 x 365 / 327 = 5.58, trials 3.35, conversions (p1, p3, p4) 3.35.
      [
        'date=20250101-20261123&interval=year',
        [
          ['2025-01-01', 1, 0, null, undefined, undefined, undefined],
          ['2026-01-01', 5, 3, 400, 6, 3, 3],
        ],
      ],
      // Weeks from Monday: Nov 2-8 p4, Nov 9-15 none, Nov 16-22 p5, and today's week, cut at
      // Nov 23, is empty: a forecast of 0.
      [
        'date=20261102-20261123&interval=week',
        [
          ['2026-11-02', 1, 0, null, undefined, undefined, undefined],
          ['2026-11-09', 0, 1, -100, undefined, undefined, undefined],
          ['2026-11-16', 1, 0, null, undefined, undefined, undefined],
          ['2026-11-23', 0, 0, -100, 0, 0, 0],
        ],
      ],
      [
        'date=20261119-20261121&interval=day',
        [
          ['2026-11-19', 0, 0, null, undefined, undefined, undefined],
          ['2026-11-20', 1, 0, null, undefined, undefined, undefined],
          ['2026-11-21', 0, 0, -100, undefined, undefined, undefined],
        ],
      ],
    ])('by %s', async (query, expected) => {
      const body = await get(`/reports/leads?${query}`);
      expect(
        columns(
          body.result,
          'date',
          'leads',
          'trials',
          'leads_percent_change',
          'leads_forecast',
          'trials_forecast',
          'conversions_forecast',
        ),
      ).toEqual(expected);
    });

    it.each([
      // Leads per month Sep, Oct, Nov 2026.
      ['', [1, 2, 2]],
      ['region=us', [1, 0, 1]],
      ['region=eu', [0, 2, 0]],
      ['region=~us', [0, 2, 1]],
      ['currency=eur', [0, 2, 0]],
      ['industry=Software', [1, 0, 0]],
      ['industry=Retail', [0, 2, 0]],
      ['channel=ads', [1, 0, 0]],
      ['size=large', [0, 1, 0]],
      ['custom_channel=organic', [0, 1, 0]],
      ['customer=p4', [0, 0, 1]],
      ['plan=BASIC', [1, 0, 1]],
      ['billing_freq=month', [1, 0, 1]],
      ['data_source=CSV', [0, 0, 1]],
      ['state=CA', [1, 0, 0]],
      ['cancel_reason=too_expensive', [0, 1, 0]],
      // Status on the range's last day: p1 and p4 pay then; p2 and p5 never paid, so they have
      // cancelled nothing and are active too; p3 paid (its record says so) and has no MRR.
      ['status=active', [1, 1, 2]],
      ['status=cancelled', [0, 1, 0]],
      // Months since the first payment on Nov 23: p4 0 (Nov 16), p1 2 (Sep 17); p3's payment
      // is the record's only, with no MRR, so it has no age.
      ['age=0-1', [0, 0, 1]],
      ['age=1-', [1, 0, 0]],
    ])('filters with %s', async (filter, expected) => {
      const query = filter.replace('BASIC', basicGroup).replace('CSV', csvSource);
      const body = await get(`/reports/leads?${FALL}&${query}`);
      expect(body.result.map((row: { leads: number }) => row.leads)).toEqual(expected);
    });

    it('answers in the requested currency, which only names it: the report counts customers', async () => {
      const body = await get(`/reports/leads?${FALL}&baseCurrency=EUR`);
      expect(body.currency).toBe('eur');
      expect(body.result).toEqual((await get(`/reports/leads?${FALL}`)).result);
    });

    it('is served under /v1 too', async () => {
      expect(await get(`/v1/reports/leads?${FALL}`)).toEqual(await get(`/reports/leads?${FALL}`));
    });
  });

  describe('/reports/leads-summary', () => {
    it('counts leads and trials of the last 30, 60, 180 and 365 days against the days before', async () => {
      // Days back from Nov 23: leads p1 81, p2 49, p3 42, p4 21, p5 3, p6 531; trials p1 81, p2 48, p4 14.
      expect(await get('/reports/leads-summary')).toEqual({
        currency: 'usd',
        summary: {
          // 0-29 days back: p4, p5; 30-59: p2, p3.
          leads_30: 2,
          // 0-59: p2 to p5; 60-119: p1.
          leads_60: 4,
          // 180-359 days back: nothing.
          leads_180: 5,
          // 365-729 days back: p6.
          leads_365: 5,
          trials_30: 1,
          trials_60: 2,
          trials_180: 3,
          trials_365: 3,
          leads_percentage_change_30: 0,
          leads_percentage_change_60: 300,
          leads_percentage_change_180: null,
          leads_percentage_change_365: 400,
          // p4 against p2; p2 and p4 against p1; nothing before for 180 and 365.
          trials_percentage_change_30: 0,
          trials_percentage_change_60: 100,
          trials_percentage_change_180: null,
          trials_percentage_change_365: null,
        },
      });
    });

    it.each([
      // Windows ending Oct 31. Days back: leads p1 58, p2 26, p3 19, p6 508 (p4, p5 come later);
      // trials p1 58, p2 25. So leads p2, p3 against p1 (+100 %), trial p2 against p1 (0 %), and
      // over 365 days p1, p2, p3 against p6 (+200 %).
      ['date=20260101-20261031', 'usd', [2, 100, 1, 0, 3, 200]],
      // p4 against nothing, for leads and trials; over 365 days p1, p4 against p6.
      ['region=us', 'usd', [1, null, 1, null, 2, 100]],
      // p3, 42 days back, is in the 30 days before the last 30: -100 %.
      ['customer=p3', 'usd', [0, -100, 0, null, 1, null]],
      // p2 and p3, and p2's trial, all 30 to 59 days back.
      ['baseCurrency=eur&currency=eur', 'eur', [0, -100, 0, -100, 2, null]],
    ])('with %s', async (query, currency, expected) => {
      const body = await get(`/reports/leads-summary?${query}`);
      expect(body.currency).toBe(currency);
      expect(
        columns(
          [body.summary],
          'leads_30',
          'leads_percentage_change_30',
          'trials_30',
          'trials_percentage_change_30',
          'leads_365',
          'leads_percentage_change_365',
        ),
      ).toEqual([expected]);
    });
  });

  describe('/reports/leads-days', () => {
    const bucket = (
      name: string,
      min: number,
      max: number | null,
      customers: number,
      percent: number | null,
    ) => ({
      bucket: name,
      min_days: min,
      max_days: max,
      customers,
      percent,
    });

    it('shares out the converted leads of the last 365 days by days from lead to paid', async () => {
      // Leads p1 to p5; paying p1 (14 days), p3 (8), p4 (14): 3 / 3 in 8-14; (14 + 8 + 14) / 3 = 12.
      expect(await get('/reports/leads-days')).toEqual({
        currency: 'usd',
        result: [
          bucket('0', 0, 0, 0, 0),
          bucket('1-7', 1, 7, 0, 0),
          bucket('8-14', 8, 14, 3, 100),
          bucket('15-30', 15, 30, 0, 0),
          bucket('31-60', 31, 60, 0, 0),
          bucket('61-90', 61, 90, 0, 0),
          bucket('91-180', 91, 180, 0, 0),
          bucket('181-365', 181, 365, 0, 0),
          bucket('366+', 366, null, 0, 0),
        ],
        summary: { leads: 5, converted: 3, average_days: 12 },
      });
    });

    it('lists the leads of the range newest first, at the stage each reached by today', async () => {
      // The funnel table above: p5 a lead, p4 converted in 14 days, p3 in 8, p2 on trial, p1 in 14.
      const body = await get('/reports/leads-table');
      expect(body.currency).toBe('usd');
      expect(
        columns(
          body.result.list,
          'id',
          'created_date',
          'status',
          'trial_start_date',
          'paid_start_date',
          'days_to_paid',
        ),
      ).toEqual([
        ['p5', '2026-11-20', 'lead', null, null, null],
        ['p4', '2026-11-02', 'converted', '2026-11-09', '2026-11-16', 14],
        ['p3', '2026-10-12', 'converted', null, '2026-10-20', 8],
        ['p2', '2026-10-05', 'trial', '2026-10-06', null, null],
        ['p1', '2026-09-03', 'converted', '2026-09-03', '2026-09-17', 14],
      ]);
      expect(body.result.count).toBe(5);
      const page = await get('/reports/leads-table?limit=2&offset=1&region=us');
      // US leads: p4, p1 (p6 is older than the range); the page skips p4.
      expect(columns(page.result.list, 'id')).toEqual([['p1']]);
    });

    it.each([
      // With p6 (21 days): 3 / 4 = 75 % in 8-14, 1 / 4 in 15-30; (36 + 21) / 4 = 14.25.
      ['date=20250101-20261123', { '8-14': 75, '15-30': 25 }, { leads: 6, converted: 4, average_days: 14 }],
      ['region=eu', { '8-14': 100 }, { leads: 2, converted: 1, average_days: 8 }],
      ['date=20261101-20261130&customer=p5', {}, { leads: 1, converted: 0, average_days: null }],
    ])('with %s', async (query, shares, summary) => {
      const body = await get(`/reports/leads-days?${query}`);
      expect(body.summary).toEqual(summary);
      const nonZero = body.result.filter((row: { percent: number | null }) => row.percent);
      expect(Object.fromEntries(columns(nonZero, 'bucket', 'percent'))).toEqual(shares);
    });
  });

  it.each([
    [
      '/reports/leads?date=2026',
      'Invalid query parameter "date": expected a range YYYYMMDD-YYYYMMDD of real dates',
    ],
    [
      '/reports/leads?date=20261131-20261201',
      'Invalid query parameter "date": expected a range YYYYMMDD-YYYYMMDD of real dates',
    ],
    [
      '/reports/leads?date=20261201-20261101',
      'Invalid query parameter "date": the range ends before it starts',
    ],
    [
      '/reports/leads?interval=hour',
      'Invalid query parameter "interval": expected one of day, week, month, quarter, year',
    ],
    [
      '/reports/leads?baseCurrency=zzz',
      'Invalid query parameter "baseCurrency": unknown currency "zzz": no exchange rates for it',
    ],
    [
      '/reports/leads?region=atlantis',
      'Invalid query parameter "region": "atlantis" is neither a country code nor a named region',
    ],
    ['/reports/leads?currency=zzz', 'Invalid query parameter "currency": unknown currency "zzz"'],
    ['/reports/leads?plan=nope', 'Invalid query parameter "plan": unknown plan group "nope"'],
    [
      '/reports/leads?billing_freq=hourly',
      'Invalid query parameter "billing_freq": expected values among day, week, month, quarter, year',
    ],
    [
      '/reports/leads?age=young',
      'Invalid query parameter "age": "young" is not a month range like 0-6 or 12-',
    ],
    [
      '/reports/leads?status=paused',
      'Invalid query parameter "status": expected values among active, cancelled',
    ],
    [
      '/reports/leads-summary?date=20261301-20261302',
      'Invalid query parameter "date": expected a range YYYYMMDD-YYYYMMDD of real dates',
    ],
    [
      '/reports/leads-summary?region=atlantis',
      'Invalid query parameter "region": "atlantis" is neither a country code nor a named region',
    ],
    [
      '/reports/leads-summary?baseCurrency=zzz',
      'Invalid query parameter "baseCurrency": unknown currency "zzz": no exchange rates for it',
    ],
    [
      '/reports/leads-days?date=1-2',
      'Invalid query parameter "date": expected a range YYYYMMDD-YYYYMMDD of real dates',
    ],
    ['/reports/leads-days?plan=nope', 'Invalid query parameter "plan": unknown plan group "nope"'],
    ['/reports/leads-days?currency=zzz', 'Invalid query parameter "currency": unknown currency "zzz"'],
  ])('rejects %s with 400', (url, message) => t.expectBadRequest(account.viewerKey, url, message));

  it('documents the routes with their parameters in /openapi.json', async () => {
    expect(await t.documentedParameters('/reports/leads')).toEqual(
      expect.arrayContaining(['date', 'interval', 'region', 'currency', 'industry', 'channel', 'size']),
    );
    expect(await t.documentedParameters('/reports/leads-summary')).toEqual(
      expect.arrayContaining(['date', 'region', 'plan']),
    );
    expect(await t.documentedParameters('/reports/leads-days')).toEqual(
      expect.arrayContaining(['date', 'region', 'plan']),
    );
  });

  it.each(['/reports/leads', '/reports/leads-summary', '/reports/leads-days'])(
    '%s needs a key and shows each account only its own customers',
    async (url) => {
      const unauthorised = await t.call(undefined, { method: 'GET', url });
      expect(unauthorised.statusCode).toBe(401);
      expect(unauthorised.json()).toEqual({ error: 'Unauthorized' });
      const wrong = await t.call('not-a-key', { method: 'GET', url });
      expect(wrong.statusCode).toBe(401);
      const other = await t.newAccount('Other');
      const body = await t.read(other.viewerKey, url);
      expect(JSON.stringify(body)).not.toMatch(
        /"(leads|trials|customers|converted|leads_30|leads_365)":[1-9]/,
      );
    },
  );
});
