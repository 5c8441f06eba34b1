import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columns, createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

// Today is 2026-11-23. 1 EUR = 1.20 USD until Sep 30 (and before Sep 1), 1.25 from Oct 1.
const RATES = 'Date,USD\n2026-09-01,1.20\n2026-10-01,1.25\n';
const payment = (id: string, date: string, result: 'successful' | 'failed') => ({
  id,
  date: `${date}T10:00:00Z`,
  type: 'payment',
  result,
  amount: 1000,
  payment_method: 'visa',
});
const invoice = (
  id: string,
  customer_id: string,
  currency: string,
  plan_id: string,
  amount: number,
  period_start: string,
  period_end: string,
  transactions: object[] = [],
) => ({
  id,
  customer_id,
  currency,
  date: period_start,
  lines: [{ plan_id, amount, period_start, period_end }],
  transactions,
});

/*
 * What the fixture derives, MRR in the customer's currency:
 *   c_us      US, created Jul 20: 5000 from Aug 1, 8000 from Oct 1 (expansion 3000).
 *             Invoice u3 failed on Oct 1 and was paid Oct 3; u4 paid Nov 1.
 *   c_de      DE, EUR, created and trial Sep 1: 10000 from Sep 15; last period ends Nov 15, so it
 *             churns Nov 18 (after the grace days). d1 paid Sep 15.
 *   c_fr      FR, EUR, created and trial Oct 20, never pays; in a second data source.
 *   c_nowhere no country, created Jun 1: 24000 a year from Jun 1 = 2000 a month.
 */
describe.each(STORE_KINDS)('/reports/map and /reports/retention on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  let euroGroup: string;
  let booksSource: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
    await t.loadRates(RATES);
    const post = (url: string, payload: unknown) => t.seed(account.adminKey, url, payload);
    booksSource = (await post('/data/data-sources', { name: 'Books', type: 'csv' })).json().id;
    await post('/data/plans', [
      { id: 'basic', name: 'Basic', billing_freq: 'month', currency: 'usd' },
      { id: 'euro', name: 'Euro', billing_freq: 'month', currency: 'eur' },
      { id: 'yearly', name: 'Yearly', billing_freq: 'year', currency: 'usd' },
    ]);
    euroGroup = (await post('/data/plan-groups', { name: 'Euro plans', plans: [{ id: 'euro' }] })).json().id;
    await post('/data/customers', [
      {
        id: 'c_us',
        name: 'US',
        country: 'US',
        state: 'CA',
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
        trial_started: '2026-09-01',
        cancel_reason: 'too_expensive',
        custom_variables: { channel: 'partner' },
      },
      {
        id: 'c_fr',
        name: 'FR',
        country: 'FR',
        currency: 'eur',
        created_date: '2026-10-20',
        trial_started: '2026-10-20',
        custom_variables: { size: 'small' },
        data_source: booksSource,
      },
      {
        id: 'c_nowhere',
        name: 'Nowhere',
        currency: 'usd',
        created_date: '2026-06-01',
        custom_variables: { segment: 'smb' },
      },
    ]);
    await post('/data/invoices', [
      invoice('u1', 'c_us', 'usd', 'basic', 5000, '2026-08-01', '2026-09-01'),
      invoice('u2', 'c_us', 'usd', 'basic', 5000, '2026-09-01', '2026-10-01'),
      invoice('u3', 'c_us', 'usd', 'basic', 8000, '2026-10-01', '2026-11-01', [
        payment('t1', '2026-10-01', 'failed'),
        payment('t2', '2026-10-03', 'successful'),
      ]),
      invoice('u4', 'c_us', 'usd', 'basic', 8000, '2026-11-01', '2026-12-01', [
        payment('t1', '2026-11-01', 'successful'),
      ]),
      invoice('d1', 'c_de', 'eur', 'euro', 10000, '2026-09-15', '2026-10-15', [
        payment('t1', '2026-09-15', 'successful'),
      ]),
      invoice('d2', 'c_de', 'eur', 'euro', 10000, '2026-10-15', '2026-11-15'),
      invoice('n1', 'c_nowhere', 'usd', 'yearly', 24000, '2026-06-01', '2027-06-01'),
    ]);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.read(account.viewerKey, url);
  const countries = async (query: string) => Object.keys((await get(`/reports/map${query}`)).result.list);

  describe('/reports/map', () => {
    it('reports every country over the last 365 days, keyed by lower-case code, as of today', async () => {
      const body = await get('/reports/map');
      // Today: c_us 8000 + c_nowhere 2000 = 10000 and 2 subscribers; the range's leads are all four
      // customers, its trials c_de and c_fr.
      expect(body).toEqual({
        currency: 'usd',
        result: {
          list: {
            de: {
              current_mrr: 0,
              subscribers: 0,
              arpa: 0, // 0 / 0 subscribers
              asp: 12000, // 10000 EUR x 1.20 on Sep 15
              // October: the Sep 30 cohort (12000) is 12500 on Oct 31: churn 0, net -500 / 12000 = -4.17 %.
              // To Nov 23 from Oct 23: 12500 -> 0: churn 100 %, net 100 %. September had no cohort.
              customer_churn_rate: 50, // (0 + 100) / 2
              net_mrr_churn: 47.92, // (-4.1667 + 100) / 2
              ltv: 0, // ARPA 0 / 0.5 churn
              leads: 1,
              leads_converted: 1,
              lead_conversion_rate: 100,
              new_trials: 1,
              trials_converted: 1,
              trial_conversion_rate: 100,
              payment_failure_rate: 0, // d1 paid at once
              mrr_percent: 0,
              subscribers_percent: 0,
              leads_percent: 25,
              trials_percent: 50,
            },
            fr: {
              current_mrr: 0,
              subscribers: 0,
              // Never paid: every ratio and mean here is over nothing, so 0.
              arpa: 0,
              asp: 0,
              customer_churn_rate: 0,
              net_mrr_churn: 0,
              ltv: 0,
              leads: 1,
              leads_converted: 0,
              lead_conversion_rate: 0,
              new_trials: 1,
              trials_converted: 0,
              trial_conversion_rate: 0,
              payment_failure_rate: 0, // 0 / 0 invoices attempted
              mrr_percent: 0,
              subscribers_percent: 0,
              leads_percent: 25,
              trials_percent: 50,
            },
            us: {
              current_mrr: 8000,
              subscribers: 1,
              arpa: 8000,
              asp: 5000,
              // Sep 5000 -> 5000, Oct 5000 -> 8000 (net -60 %), Nov 8000 -> 8000; no churn.
              customer_churn_rate: 0,
              net_mrr_churn: -20, // (0 - 60 + 0) / 3
              ltv: 0, // 8000 / 0 churn
              leads: 1,
              leads_converted: 1,
              lead_conversion_rate: 100,
              new_trials: 0,
              trials_converted: 0,
              trial_conversion_rate: 0, // 0 / 0 trials
              payment_failure_rate: 50, // u3 failed first; u3 and u4 attempted
              mrr_percent: 80,
              subscribers_percent: 50,
              leads_percent: 25,
              trials_percent: 0,
            },
          },
          unknown: {
            current_mrr: 2000,
            subscribers: 1,
            arpa: 2000,
            asp: 2000,
            customer_churn_rate: 0,
            net_mrr_churn: 0,
            ltv: 0, // 2000 / 0 churn
            leads: 1,
            leads_converted: 1,
            lead_conversion_rate: 100,
            new_trials: 0,
            trials_converted: 0,
            trial_conversion_rate: 0, // 0 / 0 trials
            payment_failure_rate: 0, // 0 / 0 invoices attempted
            mrr_percent: 20,
            subscribers_percent: 50,
            leads_percent: 25,
            trials_percent: 0,
          },
        },
      });
    });

    it('reads the range end for MRR and the range for the rest, each amount at its own day rate', async () => {
      const body = await get('/reports/map?date=20261001-20261031');
      // Oct 31: c_us 8000, c_de 10000 x 1.25 = 12500, c_nowhere 2000 = 22500.
      expect(body.result.list.us).toMatchObject({
        current_mrr: 8000,
        asp: 0, // no new customer in October: 0 / 0
        net_mrr_churn: -60,
        leads: 0,
        lead_conversion_rate: 0, // 0 / 0 leads
        payment_failure_rate: 100, // u3 only: u4's attempt is in November
        mrr_percent: 35.56, // 8000 / 22500
      });
      expect(body.result.list.de).toMatchObject({
        current_mrr: 12500,
        arpa: 12500,
        customer_churn_rate: 0,
        net_mrr_churn: -4.17, // Sep 30 at 1.20 (12000) to Oct 31 at 1.25 (12500)
        payment_failure_rate: 0, // 0 / 0 invoices attempted in October
        mrr_percent: 55.56,
      });
      expect(body.result.unknown).toMatchObject({ current_mrr: 2000, mrr_percent: 8.89 });
      // With fix_fx the Sep 30 cohort is 12500 too: no change.
      const fixed = await get('/reports/map?date=20261001-20261031&fix_fx=true');
      expect(fixed.result.list.de).toMatchObject({ current_mrr: 12500, net_mrr_churn: 0 });
    });

    it('converts to another base currency', async () => {
      const body = await get('/reports/map?date=20261001-20261031&baseCurrency=EUR');
      expect(body.currency).toBe('eur');
      // 8000 USD / 1.25 = 6400 EUR; 2000 / 1.25 = 1600.
      expect(body.result.list.us.current_mrr).toBe(6400);
      expect(body.result.list.de.current_mrr).toBe(10000);
      expect(body.result.unknown.current_mrr).toBe(1600);
    });

    it.each([
      ['?region=eu', ['de', 'fr']],
      ['?region=~us', ['de', 'fr']],
      ['?currency=usd', ['us']],
      ['?industry=Software', ['us']],
      ['?channel=partner', ['de']],
      ['?size=small', ['fr']],
      ['?custom_segment=smb', []],
      ['?billing_freq=month', ['de', 'us']],
      // On Nov 23: c_de first paid 69 days before (2 months), c_us 114 days (3 months).
      ['?age=0-3', ['de']],
      ['?customer=c_us', ['us']],
      ['?state=ca', ['us']],
      ['?cancel_reason=too_expensive', ['de']],
      // c_fr never pays, so it has cancelled nothing: active.
      ['?status=cancelled', ['de']],
      ['?status=active', ['fr', 'us']],
    ])('filters with %s', async (query, expected) => {
      expect(await countries(query)).toEqual(expected);
    });

    it('filters by plan group and data source', async () => {
      expect(await countries(`?plan=${euroGroup}`)).toEqual(['de']);
      expect(await countries(`?data_source=${booksSource}`)).toEqual(['fr']);
      // The shares are of what the filters keep: FR alone holds every lead.
      expect((await get(`/reports/map?data_source=${booksSource}`)).result.list.fr.leads_percent).toBe(100);
      expect((await get('/reports/map?region=eu')).result.unknown).toBeNull();
    });
  });

  describe('/reports/retention', () => {
    it('follows each month the customers paying a month before, with trailing-year averages', async () => {
      const body = await get('/reports/retention?date=20260901-20261122');
      expect(body).toMatchObject({
        currency: 'usd',
        trailing_months: 1,
        baseline_period: '2026-08-01',
        target_period: '2026-11-01',
      });
      expect(body.breakdown).toBeUndefined();
      expect(
        columns(
          body.result,
          'date',
          'baseline_date',
          'baseline_mrr',
          'target_mrr',
          'grr_mrr',
          'fx_adjustment',
        ),
      ).toEqual([
        // Aug 31: c_us 5000 + c_nowhere 2000, unchanged on Sep 30 (c_de joined after the baseline).
        ['2026-09-30', '2026-08-31', 7000, 7000, 7000, 0],
        // Sep 30: 5000 + 10000 EUR x 1.20 + 2000 = 19000; Oct 31: 8000 + 12500 + 2000 = 22500;
        // expansion 3000, so fx 500. Capped: 5000 + 12000 + 2000.
        ['2026-10-31', '2026-09-30', 19000, 22500, 19000, 500],
        // Oct 22: 8000 + 12500 + 2000 = 22500; Nov 22: c_de churned (-12500 on Nov 18).
        ['2026-11-22', '2026-10-22', 22500, 10000, 10000, 0],
      ]);
      expect(body.result[1]).toMatchObject({
        expansion: 3000,
        expansion_customers: 1,
        nrr: 118.42, // 22500 / 19000
        grr: 100,
        // Non-empty rows of the trailing year: Jul and Aug (c_nowhere alone, 100 %), Sep and Oct.
        nrr_avg: 104.61, // (3 + 1.184211) / 4
        customer_churn_avg: 0,
        arpa: 7500, // 22500 / 3
        // No churn to divide by: 7500 / 0 and 1 / 0 -> 0 (customer_churn_avg 0 tells).
        ltv: 0,
        customer_lifetime: 0,
      });
      expect(body.result[2]).toEqual({
        date: '2026-11-22',
        baseline_date: '2026-10-22',
        baseline_mrr: 22500,
        target_mrr: 10000,
        grr_mrr: 10000,
        cohort_customers: 3,
        retained_customers: 2,
        churned_customers: 1,
        expansion: 0,
        expansion_customers: 0,
        contraction: 0,
        contraction_customers: 0,
        churn: -12500,
        churn_customers: 1,
        reactivation: 0,
        reactivation_customers: 0,
        fx_adjustment: 0,
        nrr: 44.44, // 10000 / 22500
        grr: 44.44,
        customer_retention_rate: 66.67,
        customer_churn_rate: 33.33,
        mrr_churn_rate: 55.56,
        net_mrr_churn_rate: 55.56,
        // Rows Jul to Nov: nrr (3 + 1.184211 + 0.444444) / 5, grr (4 + 0.444444) / 5,
        // customer churn (1/3) / 5 = 1/15, MRR churn 0.555556 / 5, net (-0.184211 + 0.555556) / 5.
        nrr_avg: 92.57,
        grr_avg: 88.89,
        customer_retention_avg: 93.33,
        customer_churn_avg: 6.67,
        mrr_churn_avg: 11.11,
        net_mrr_churn_avg: 7.43,
        arpa: 5000, // 10000 / 2 retained
        ltv: 75000, // 5000 / (1/15)
        customer_lifetime: 15,
      });
    });

    it('anchors the baseline trailing_months back', async () => {
      const body = await get('/reports/retention?date=20261001-20261122&trailing_months=2');
      expect(body.trailing_months).toBe(2);
      // Oct 31 from Aug 31: 5000 + 2000 -> 8000 + 2000. Nov 22 from Sep 22: 5000 + 12000 + 2000 = 19000
      // -> 10000, with expansion 3000 and churn -12500, so fx = 10000 - 19000 + 9500 = 500.
      expect(
        columns(
          body.result,
          'date',
          'baseline_date',
          'baseline_mrr',
          'target_mrr',
          'grr_mrr',
          'churn',
          'fx_adjustment',
        ),
      ).toEqual([
        ['2026-10-31', '2026-08-31', 7000, 10000, 7000, 0, 0],
        ['2026-11-22', '2026-09-22', 19000, 10000, 7000, -12500, 500],
      ]);
      expect(body.result[1].grr).toBe(36.84); // 7000 / 19000
    });

    it('defaults trailing_months to the length of the interval', async () => {
      expect((await get('/reports/retention?interval=quarter')).trailing_months).toBe(3);
      const yearly = await get('/reports/retention?interval=year&date=20260101-20261122');
      expect(yearly.trailing_months).toBe(12);
      expect(columns(yearly.result, 'date', 'baseline_date')).toEqual([['2026-11-22', '2025-11-22']]);
      expect((await get('/reports/retention?interval=week')).trailing_months).toBe(1);
      // Daily rows, each the month up to its day: c_de churned on Nov 18.
      const daily = await get('/reports/retention?interval=day&date=20261117-20261118');
      expect(columns(daily.result, 'date', 'baseline_date', 'churned_customers')).toEqual([
        ['2026-11-17', '2026-10-17', 0],
        ['2026-11-18', '2026-10-18', 1],
      ]);
    });

    it('converts at the range end with fix_fx and in another base currency', async () => {
      const body = await get('/reports/retention?date=20261001-20261022&fix_fx=true&baseCurrency=eur');
      expect(body.currency).toBe('eur');
      // At 1.25, in EUR. Sep 22: 5000 / 1.25 + 10000 + 2000 / 1.25 = 15600; Oct 22: 6400 + 10000 + 1600 = 18000.
      expect(columns(body.result, 'baseline_mrr', 'target_mrr', 'expansion', 'fx_adjustment', 'nrr')).toEqual(
        [[15600, 18000, 2400, 0, 115.38]],
      );
    });

    it('breaks down by a dimension, one series per value, and filters like every report', async () => {
      const body = await get('/reports/retention?date=20261001-20261031&breakdown=country');
      expect(body.breakdown).toBe('country');
      expect(columns(body.result, 'breakdown_value', 'baseline_mrr', 'target_mrr', 'nrr')).toEqual([
        ['DE', 12000, 12500, 104.17],
        ['FR', 0, 0, 0], // no baseline MRR: 0 / 0
        ['US', 5000, 8000, 160],
        [null, 2000, 2000, 100],
      ]);
      const eu = await get('/reports/retention?date=20261001-20261031&region=eu');
      expect(columns(eu.result, 'baseline_mrr', 'target_mrr')).toEqual([[12000, 12500]]);
    });
  });

  it.each([
    [
      '/reports/map?date=2026',
      'Invalid query parameter "date": expected a range YYYYMMDD-YYYYMMDD of real dates',
    ],
    [
      '/reports/map?date=20261031-20261001',
      'Invalid query parameter "date": the range ends before it starts',
    ],
    [
      '/reports/map?baseCurrency=xyz',
      'Invalid query parameter "baseCurrency": unknown currency "xyz": no exchange rates for it',
    ],
    ['/reports/map?fix_fx=yes', 'Invalid query parameter "fix_fx": expected true or false'],
    [
      '/reports/map?region=zz',
      'Invalid query parameter "region": "zz" is neither a country code nor a named region',
    ],
    ['/reports/map?plan=nope', 'Invalid query parameter "plan": unknown plan group "nope"'],
    ['/reports/map?age=old', 'Invalid query parameter "age": "old" is not a month range like 0-6 or 12-'],
    [
      '/reports/retention?interval=hour',
      'Invalid query parameter "interval": expected one of day, week, month, quarter, year',
    ],
    [
      '/reports/retention?breakdown=planet',
      'Invalid query parameter "breakdown": unknown dimension "planet"',
    ],
    ['/reports/retention?currency=zzz', 'Invalid query parameter "currency": unknown currency "zzz"'],
    [
      '/reports/retention?status=paused',
      'Invalid query parameter "status": expected values among active, cancelled',
    ],
    ...['0', '121', '1.5', 'twelve'].map((months) => [
      `/reports/retention?trailing_months=${months}`,
      'Invalid query parameter "trailing_months": expected a whole number of months from 1 to 120',
    ]),
  ])('rejects %s with 400', (url, message) => t.expectBadRequest(account.viewerKey, url, message));

  it('documents both routes and their parameters in /openapi.json', async () => {
    expect(await t.documentedParameters('/reports/map')).toEqual(
      expect.arrayContaining(['date', 'fix_fx', 'baseCurrency', 'region']),
    );
    expect(await t.documentedParameters('/reports/map')).not.toContain('interval');
    expect(await t.documentedParameters('/reports/retention')).toEqual(
      expect.arrayContaining(['date', 'interval', 'fix_fx', 'breakdown', 'trailing_months', 'plan']),
    );
  });

  it('needs a key and shows each account only its own figures', async () => {
    for (const url of ['/reports/map', '/reports/retention']) {
      const missing = await t.call(undefined, { method: 'GET', url });
      expect(missing.statusCode).toBe(401);
      expect(missing.json()).toEqual({ error: 'Unauthorized' });
      expect((await t.call('not-a-key', { method: 'GET', url })).statusCode).toBe(401);
    }
    const other = await t.newAccount('Other');
    const map = await t.call(other.viewerKey, { method: 'GET', url: '/v1/reports/map' });
    expect(map.json()).toEqual({ currency: 'usd', result: { list: {}, unknown: null } });
    const retention = await t.call(other.viewerKey, { method: 'GET', url: '/reports/retention' });
    expect(
      retention.json().result.every((row: { cohort_customers: number }) => row.cohort_customers === 0),
    ).toBe(true);
  });
});
