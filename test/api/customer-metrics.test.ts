import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

// Today is Monday 2026-11-23 (TEST_NOW). Rates loaded for Friday 2026-11-20: 1 EUR = 1.25 USD.
const RATES = 'Date,USD,GBP\n2026-11-20,1.25,0.80\n';

const customers = [
  {
    id: 'c_de',
    name: 'Berlin GmbH',
    email: 'ops@berlin.example',
    country: 'DE',
    currency: 'eur',
    created_date: '2026-01-10T09:00:00Z',
    custom_variables: { industry: 'saas' },
  },
  {
    id: 'c_us',
    name: 'Acme Inc',
    email: 'billing@acme.example',
    country: 'US',
    currency: 'usd',
    created_date: '2026-02-01',
    trial_started: '2026-02-01',
    state: 'NY',
    custom_variables: { industry: 'retail' },
  },
  {
    id: 'c_gone',
    name: 'Gone Ltd',
    email: 'gone@example.com',
    country: 'GB',
    currency: 'usd',
    created_date: '2025-05-01',
    cancel_reason: 'too_expensive',
  },
  {
    id: 'c_lead',
    name: 'Lead SAS',
    email: 'lead@example.fr',
    country: 'FR',
    currency: 'eur',
    created_date: '2026-11-05',
  },
];
const plans = [
  { id: 'basic_eur', name: 'Basic EUR', billing_freq: 'month', currency: 'eur' },
  { id: 'basic', name: 'Basic', billing_freq: 'month', currency: 'usd' },
  { id: 'annual', name: 'Annual', billing_freq: 'year', currency: 'usd' },
];
const line = (plan_id: string, amount: number, period_start: string, period_end: string) => ({
  plan_id,
  amount,
  period_start,
  period_end,
});
const invoices = [
  // c_de: 10000 EUR a month since Oct 1; MRR 10000 EUR = 12500 USD.
  {
    id: 'de1',
    customer_id: 'c_de',
    date: '2026-10-01',
    currency: 'eur',
    lines: [line('basic_eur', 10000, '2026-10-01', '2026-11-01')],
  },
  {
    id: 'de2',
    customer_id: 'c_de',
    date: '2026-11-01',
    currency: 'eur',
    lines: [line('basic_eur', 10000, '2026-11-01', '2026-12-01')],
  },
  // c_us: 240000 a year since Jun 1: 20000 a month.
  {
    id: 'us1',
    customer_id: 'c_us',
    date: '2026-06-01',
    currency: 'usd',
    lines: [line('annual', 240000, '2026-06-01', '2027-06-01')],
  },
  // c_gone: one month in September; churns Oct 1 + 3 grace days = Oct 4.
  {
    id: 'gone1',
    customer_id: 'c_gone',
    date: '2026-09-01',
    currency: 'usd',
    lines: [line('basic', 5000, '2026-09-01', '2026-10-01')],
  },
];

describe.each(STORE_KINDS)('/customers on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  let annualGroup: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
    await t.loadRates(RATES);
    const post = (url: string, payload: unknown) =>
      t.call(account.adminKey, { method: 'POST', url, payload: payload as object });
    expect((await post('/data/plans', plans)).statusCode).toBe(200);
    expect((await post('/data/customers', customers)).statusCode).toBe(201);
    expect(
      (await post('/data/invoices', invoices))
        .json()
        .result.every((r: { import_status: string }) => r.import_status === 'inserted'),
    ).toBe(true);
    annualGroup = (await post('/data/plan-groups', { name: 'Yearly', plans: [{ id: 'annual' }] })).json().id;
  });
  afterAll(() => t.close());

  const list = async (query = '', key = account.adminKey) => {
    const response = await t.call(key, { method: 'GET', url: `/customers${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().result.list.map((c: { id: string; mrr: number }) => [c.id, c.mrr]);
  };

  it('lists active customers by descending MRR in the account currency by default', async () => {
    const response = await t.call(account.adminKey, { method: 'GET', url: '/customers' });
    expect(response.json()).toEqual({
      currency: 'usd',
      result: {
        // A lead that never paid has cancelled nothing: it is active, with no MRR.
        count: 3,
        list: [
          {
            id: 'c_us',
            name: 'Acme Inc',
            email: 'billing@acme.example',
            created_date: '2026-02-01',
            country: 'US',
            mrr: 20000,
            trial_started: '2026-02-01',
            paid_started: '2026-06-01',
            cancel_date: null,
            status: 'active',
            currency: 'usd',
          },
          // 10000 EUR x 1.25 = 12500 USD
          {
            id: 'c_de',
            name: 'Berlin GmbH',
            email: 'ops@berlin.example',
            created_date: '2026-01-10',
            country: 'DE',
            mrr: 12500,
            trial_started: null,
            paid_started: '2026-10-01',
            cancel_date: null,
            status: 'active',
            currency: 'eur',
          },
          {
            id: 'c_lead',
            name: 'Lead SAS',
            email: 'lead@example.fr',
            created_date: '2026-11-05',
            country: 'FR',
            mrr: 0,
            trial_started: null,
            paid_started: null,
            cancel_date: null,
            status: 'active',
            currency: 'eur',
          },
        ],
      },
    });
  });

  it('filters by status, with a derived cancellation date', async () => {
    expect(await list('?status=all')).toEqual([
      ['c_us', 20000],
      ['c_de', 12500],
      ['c_gone', 0],
      ['c_lead', 0],
    ]);
    const cancelled = await t.call(account.adminKey, { method: 'GET', url: '/customers?status=cancelled' });
    expect(
      cancelled
        .json()
        .result.list.map((c: { id: string; cancel_date: string | null }) => [c.id, c.cancel_date]),
    ).toEqual([['c_gone', '2026-10-04']]);
  });

  it.each([
    ['?q=BERLIN', [['c_de', 12500]]],
    ['?q=acme.example', [['c_us', 20000]]],
    ['?status=all&q=c_g', [['c_gone', 0]]],
    [
      '?status=all&region=eu',
      [
        ['c_de', 12500],
        ['c_lead', 0],
      ],
    ],
    [
      '?status=all&region=~DE%20~FR',
      [
        ['c_us', 20000],
        ['c_gone', 0],
      ],
    ],
    [
      '?status=all&region=us%20gb',
      [
        ['c_us', 20000],
        ['c_gone', 0],
      ],
    ],
    [
      '?status=all&currency=EUR',
      [
        ['c_de', 12500],
        ['c_lead', 0],
      ],
    ],
    ['?industry=saas', [['c_de', 12500]]],
    ['?custom_industry=retail', [['c_us', 20000]]],
    ['?billing_freq=year', [['c_us', 20000]]],
    // c_de first paid Oct 1: 53 days = 1 month; c_us Jun 1: 175 days = 5 months.
    ['?age=0-3', [['c_de', 12500]]],
    ['?customer=c_de', [['c_de', 12500]]],
    ['?state=ny', [['c_us', 20000]]],
    ['?status=all&cancel_reason=too_expensive', [['c_gone', 0]]],
    ['?status=all&selected-date=2026-11-10', [['c_lead', 0]]],
    ['?status=all&selected-date=2026-06-15&selected-type=converted', [['c_us', 20000]]],
    ['?status=all&selected-date=2026-02-01&selected-type=trials&interval=day', [['c_us', 20000]]],
    [
      '?status=all&sort=created_date&order=asc',
      [
        ['c_gone', 0],
        ['c_de', 12500],
        ['c_us', 20000],
        ['c_lead', 0],
      ],
    ],
    [
      '?status=all&sort=cancel_date',
      [
        ['c_gone', 0],
        ['c_de', 12500],
        ['c_lead', 0],
        ['c_us', 20000],
      ],
    ],
    [
      '?status=all&sort=country&order=asc',
      [
        ['c_de', 12500],
        ['c_lead', 0],
        ['c_gone', 0],
        ['c_us', 20000],
      ],
    ],
    ['?status=all&limit=1&offset=1', [['c_de', 12500]]],
    // 20000 USD / 1.25 = 16000 EUR
    [
      '?baseCurrency=eur',
      [
        ['c_us', 16000],
        ['c_de', 10000],
        ['c_lead', 0],
      ],
    ],
  ])('%s', async (query, expected) => {
    expect(await list(query)).toEqual(expected);
  });

  it('filters by plan group', async () => {
    expect(await list(`?plan=${annualGroup}`)).toEqual([['c_us', 20000]]);
    // The lead has no plan, so it is outside the group too.
    expect(await list(`?plan=~${annualGroup}`)).toEqual([
      ['c_de', 12500],
      ['c_lead', 0],
    ]);
  });

  it.each([
    ['?status=paused', 'Invalid query parameter "status"'],
    ['?sort=name', 'Invalid query parameter "sort"'],
    ['?order=up', 'Invalid query parameter "order"'],
    ['?limit=0', 'Invalid query parameter "limit": must be at least 1'],
    ['?limit=10001', 'Invalid query parameter "limit": must be at most 10000'],
    ['?offset=-1', 'Invalid query parameter "offset": must not be negative'],
    ['?selected-date=2026/11/01', 'Invalid query parameter "selected-date": must be a date YYYY-MM-DD'],
    ['?selected-type=churned', 'Invalid query parameter "selected-type"'],
    ['?interval=hour', 'Invalid query parameter "interval": expected one of day, week, month, quarter, year'],
    [
      '?baseCurrency=xyz',
      'Invalid query parameter "baseCurrency": unknown currency "xyz": no exchange rates for it',
    ],
    [
      '?region=atlantis',
      'Invalid query parameter "region": "atlantis" is neither a country code nor a named region',
    ],
    ['?plan=nope', 'Invalid query parameter "plan": unknown plan group "nope"'],
    ['?plan=00000000-0000-4000-8000-000000000000', 'Invalid query parameter "plan": unknown plan group'],
  ])('rejects %s with 400', async (query, message) => {
    const response = await t.call(account.adminKey, { method: 'GET', url: `/customers${query}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain(message);
  });

  it('returns one customer with its current subscriptions and converted MRR, and no mrr field', async () => {
    const response = await t.call(account.viewerKey, { method: 'GET', url: '/customers/c_de' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: 'c_de',
      name: 'Berlin GmbH',
      email: 'ops@berlin.example',
      created_date: '2026-01-10',
      country: 'DE',
      trial_started: null,
      paid_started: '2026-10-01',
      cancel_date: null,
      status: 'active',
      currency: 'eur',
      current_subscriptions: [
        {
          plan_id: 'basic_eur',
          name: 'Basic EUR',
          billing_freq: 'month',
          billing_freq_count: 1,
          currency: 'eur',
          mrr: 10000,
        },
      ],
      converted_mrr: 12500,
    });
    const inEuro = await t.call(account.adminKey, {
      method: 'GET',
      url: '/v1/customers/c_us?baseCurrency=EUR',
    });
    expect(inEuro.json()).toMatchObject({
      converted_mrr: 16000,
      current_subscriptions: [{ plan_id: 'annual', mrr: 20000 }],
    });
    expect(
      (await t.call(account.adminKey, { method: 'GET', url: '/customers/c_gone' })).json()
        .current_subscriptions,
    ).toEqual([]);
  });

  it('fills current_mrr of the raw customer record from the engine', async () => {
    const raw = await t.call(account.adminKey, { method: 'GET', url: '/data/customers/c_de' });
    expect(raw.json().current_mrr).toEqual({ eur: 10000 });
    const gone = await t.call(account.adminKey, {
      method: 'PUT',
      url: '/data/customers/c_gone',
      payload: { name: 'Gone' },
    });
    expect(gone.json().result.current_mrr).toEqual({});
  });

  it('refuses currencies without exchange rates, item by item', async () => {
    const response = await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/invoices',
      payload: [
        {
          id: 'x1',
          customer_id: 'c_de',
          date: '2026-11-01',
          currency: 'xof',
          lines: [line('basic_eur', 100, '2026-11-01', '2026-12-01')],
        },
        {
          id: 'x2',
          customer_id: 'c_de',
          date: '2026-11-01',
          currency: 'eur',
          lines: [{ type: 'one_time', amount: 500 }],
        },
      ],
    });
    expect(response.json().result).toEqual([
      {
        id: 'x1',
        import_status: 'error',
        import_error: 'Invalid field "currency": unknown currency "xof": no exchange rates for it',
      },
      { id: 'x2', import_status: 'inserted' },
    ]);
    const customer = await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/customers',
      payload: { id: 'c_xof', name: 'Dakar', currency: 'XOF' },
    });
    expect(customer.statusCode).toBe(400);
    expect(customer.json().error).toBe(
      'Invalid field "currency": unknown currency "xof": no exchange rates for it',
    );
  });

  it('answers 404 for an unknown customer and 401 without a key', async () => {
    const missing = await t.call(account.adminKey, { method: 'GET', url: '/customers/nobody' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Customer nobody not found' });
    expect((await t.call(undefined, { method: 'GET', url: '/customers' })).statusCode).toBe(401);
  });

  it('resyncs a customer with an admin key only', async () => {
    const ok = await t.call(account.adminKey, { method: 'POST', url: '/customers/c_de/resync' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: 'Resync initiated' });
    const viewer = await t.call(account.viewerKey, { method: 'POST', url: '/customers/c_de/resync' });
    expect(viewer.statusCode).toBe(403);
    expect(
      (await t.call(account.adminKey, { method: 'POST', url: '/customers/nobody/resync' })).statusCode,
    ).toBe(404);
  });

  it('reflects a write at once', async () => {
    await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/invoices',
      payload: [
        {
          id: 'lead1',
          customer_id: 'c_lead',
          date: '2026-11-20',
          currency: 'eur',
          lines: [line('basic_eur', 8000, '2026-11-20', '2026-12-20')],
        },
      ],
    });
    // 8000 EUR x 1.25 = 10000 USD
    expect(await list()).toEqual([
      ['c_us', 20000],
      ['c_de', 12500],
      ['c_lead', 10000],
    ]);
  });

  it("never shows another account's customers", async () => {
    const other = await t.newAccount('Other');
    expect(await list('?status=all', other.adminKey)).toEqual([]);
    expect((await t.call(other.adminKey, { method: 'GET', url: '/customers/c_de' })).statusCode).toBe(404);
    expect((await t.call(other.adminKey, { method: 'POST', url: '/customers/c_de/resync' })).statusCode).toBe(
      404,
    );
  });

  it('shows the day a paying customer will cancel, when its subscription record plans it', async () => {
    await t.seed(account.adminKey, '/data/subscriptions', {
      id: 'sub_de',
      customer_id: 'c_de',
      plan_id: 'basic_eur',
      status: 'active',
      started_at: '2026-10-01',
      cancel_at: '2027-01-15',
      cancel_requested_at: '2026-11-20',
    });
    // The record decides once the lines name it.
    await t.seed(account.adminKey, '/data/invoices', {
      ...invoices[1],
      lines: [{ ...line('basic_eur', 10000, '2026-11-01', '2026-12-01'), subscription_id: 'sub_de' }],
    });
    const listed = (await t.read(account.adminKey, '/customers?q=berlin')).result.list;
    expect(
      listed.map((c: { status: string; cancel_date: string | null }) => [c.status, c.cancel_date]),
    ).toEqual([['active', '2027-01-15']]);
    expect((await t.read(account.adminKey, '/customers/c_de')).cancel_date).toBe('2027-01-15');
  });
});
