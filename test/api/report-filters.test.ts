import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columns, createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

// Today is 2026-11-23. Three USD customers billed monthly from Oct 1:
// - c_visa: plan seats (licensed), 4 seats for 4000, paid by Visa, 10% discount on the latest invoice;
// - c_sepa: plan seats, 2 seats for 2000, paid by SEPA, no discount;
// - c_usage: plan usage (metered), 1 unit for 1500, paid by Visa then PayPal, discounted only in October.
const payment = (id: string, date: string, method: string) => ({
  id,
  date,
  type: 'payment',
  result: 'successful',
  amount: 1,
  payment_method: method,
});
const invoice = (
  id: string,
  customer: string,
  plan: string,
  month: '10' | '11',
  amount: number,
  quantity: number,
  discount: number,
  method: string,
) => ({
  id,
  customer_id: customer,
  currency: 'usd',
  date: `2026-${month}-01`,
  lines: [
    {
      plan_id: plan,
      subscription_id: `sub_${customer}`,
      amount,
      quantity,
      discount,
      period_start: `2026-${month}-01`,
      period_end: month === '10' ? '2026-11-01' : '2026-12-01',
    },
  ],
  transactions: [payment(`${id}_p`, `2026-${month}-01T10:00:00Z`, method)],
});

describe.each(STORE_KINDS)('report filters on payment, pricing, discount and segments, on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  const mrr = async (query: string) =>
    (await t.read(account.adminKey, `/reports/mrr?date=20261101-20261130&${query}`)) as {
      result: Record<string, unknown>[];
    };

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
    const post = (url: string, payload: unknown) => t.seed(account.adminKey, url, payload);
    await post('/data/plans', [
      { id: 'seats', name: 'Seats', billing_freq: 'month', currency: 'usd' },
      { id: 'usage', name: 'Usage', billing_freq: 'month', currency: 'usd', pricing_model: 'metered' },
    ]);
    await post('/data/customers', [
      { id: 'c_visa', name: 'Visa', country: 'DE', currency: 'usd' },
      { id: 'c_sepa', name: 'Sepa', country: 'US', currency: 'usd' },
      { id: 'c_usage', name: 'Usage', country: 'FR', currency: 'usd' },
      // Billed for October only: churned by November, though its record still says active.
      { id: 'c_gone', name: 'Gone', country: 'DE', currency: 'usd' },
    ]);
    await post('/data/invoices', [
      invoice('v10', 'c_visa', 'seats', '10', 4000, 4, 0, 'Visa'),
      invoice('g10', 'c_gone', 'seats', '10', 3000, 3, 0, 'visa'),
      invoice('v11', 'c_visa', 'seats', '11', 4000, 4, 400, 'visa'),
      invoice('s10', 'c_sepa', 'seats', '10', 2000, 2, 0, 'sepa'),
      invoice('s11', 'c_sepa', 'seats', '11', 2000, 2, 0, 'sepa'),
      invoice('u10', 'c_usage', 'usage', '10', 1500, 1, 100, 'visa'),
      invoice('u11', 'c_usage', 'usage', '11', 1500, 1, 0, 'paypal'),
    ]);
  });
  afterAll(() => t.close());

  it('reports the subscription quantity at the period end', async () => {
    // Nov 30: 4 + 2 + 1 seats and units = 7; MRR 4000 + 2000 + 1500 = 7500.
    const { result } = await mrr('');
    expect(columns(result, 'total_mrr', 'quantity')).toEqual([[7500, 7]]);
  });

  it.each([
    // Visa was used by c_visa (any case) and c_usage: 4000 + 1500 = 5500, 4 + 1 = 5 units.
    ['payment_method=VISA', 5500, 5],
    ['payment_method=~paypal', 6000, 6],
    ['payment_method=sepa paypal', 3500, 3],
    ['pricing_model=metered', 1500, 1],
    ['pricing_model=licensed', 6000, 6],
    // Only c_visa's latest invoice is discounted; c_usage's discount was in October.
    ['has_discount=true', 4000, 4],
    ['has_discount=false', 3500, 3],
    ['payment_method=visa&has_discount=false', 1500, 1],
  ])('filters with %s', async (query, totalMrr, quantity) => {
    const { result } = await mrr(query);
    expect(columns(result, 'total_mrr', 'quantity')).toEqual([[totalMrr, quantity]]);
  });

  it('refuses a plan with an unknown pricing model, item by item', async () => {
    const response = await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/plans',
      payload: [{ id: 'flat', name: 'Flat', billing_freq: 'month', currency: 'usd', pricing_model: 'flat' }],
    });
    expect(response.json()).toMatchObject({
      result: [{ import_status: 'error', import_error: expect.stringContaining('pricing_model') as unknown }],
    });
  });

  it('filters /customers the same way', async () => {
    const body = (await t.read(
      account.adminKey,
      '/customers?payment_method=visa&pricing_model=licensed',
    )) as {
      result: { list: { id: string }[] };
    };
    expect(body.result.list.map((customer) => customer.id)).toEqual(['c_visa']);
  });

  it.each([
    [
      'pricing_model=flat',
      'Invalid query parameter "pricing_model": expected values among licensed, metered',
    ],
    ['has_discount=yes', 'Invalid query parameter "has_discount": expected true or false'],
    ['segment=nope', 'Invalid query parameter "segment": unknown segment "nope"'],
    [
      'segment=00000000-0000-4000-8000-000000000000',
      'Invalid query parameter "segment": unknown segment "00000000-0000-4000-8000-000000000000"',
    ],
  ])('refuses %s', async (query, error) => {
    const response = await t.call(account.adminKey, { url: `/reports/mrr?${query}` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error });
  });

  it('saves segments, lists, reads, changes and deletes them, and reports expand them', async () => {
    const created = await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/segments',
      payload: { name: 'EU card payers', filters: { region: 'eu', payment_method: ['visa', 'mastercard'] } },
    });
    expect(created.statusCode).toBe(200);
    const { id } = created.json<{ id: string }>();
    expect(created.json()).toEqual({ success: true, id });

    expect(await t.read(account.viewerKey, `/data/segments/${id}`)).toEqual({
      id,
      name: 'EU card payers',
      description: null,
      filters: { region: 'eu', payment_method: 'visa mastercard' },
      mode: 'filter',
    });
    expect(await t.read(account.viewerKey, '/data/segments')).toEqual({
      result: { count: 1, list: [expect.objectContaining({ id, name: 'EU card payers' })] },
    });

    // EU and a card: c_visa (DE, visa) and c_usage (FR, visa before): 4000 + 1500.
    expect(columns((await mrr(`segment=${id}`)).result, 'total_mrr')).toEqual([[5500]]);
    // The request's own filters apply too.
    expect(columns((await mrr(`segment=${id}&pricing_model=metered`)).result, 'total_mrr')).toEqual([[1500]]);

    const changed = await t.call(account.adminKey, {
      method: 'PUT',
      url: `/data/segments/${id}`,
      payload: { filters: { has_discount: true }, mode: 'breakdown' },
    });
    expect(changed.json()).toEqual({ success: true, id });
    expect(await t.read(account.adminKey, `/data/segments/${id}`)).toMatchObject({
      name: 'EU card payers',
      filters: { has_discount: 'true' },
      mode: 'breakdown',
    });
    expect(columns((await mrr(`segment=${id}`)).result, 'total_mrr')).toEqual([[4000]]);

    const deleted = await t.call(account.adminKey, { method: 'DELETE', url: `/data/segments/${id}` });
    expect(deleted.json()).toEqual({ success: true, id });
    expect((await t.call(account.adminKey, { url: `/data/segments/${id}` })).statusCode).toBe(404);
    expect((await t.call(account.adminKey, { url: `/reports/mrr?segment=${id}` })).statusCode).toBe(400);
  });

  it.each([
    [{ filters: { region: 'eu' } }, 'name'],
    [{ name: 'x', filters: { colour: 'red' } }, 'Invalid filters.colour: not a report filter parameter'],
    [
      { name: 'x', filters: { region: 'atlantis' } },
      'Invalid filters: Invalid query parameter "region": "atlantis" is neither a country code nor a named region',
    ],
    [{ name: 'x', filters: { region: 'eu' }, mode: 'split' }, 'mode'],
  ])('refuses the segment %j', async (payload, error) => {
    const response = await t.call(account.adminKey, { method: 'POST', url: '/data/segments', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toContain(error);
  });

  it('answers 404 for unknown segments, 403 to viewers writing, 401 without a key', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await t.call(account.adminKey, { method, url: `/data/segments/${unknown}` });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: `Segment ${unknown} not found` });
    }
    const put = await t.call(account.adminKey, {
      method: 'PUT',
      url: `/data/segments/${unknown}`,
      payload: { name: 'y' },
    });
    expect(put.statusCode).toBe(404);
    const viewer = await t.call(account.viewerKey, {
      method: 'POST',
      url: '/data/segments',
      payload: { name: 'x', filters: {} },
    });
    expect(viewer.statusCode).toBe(403);
    expect((await t.call(undefined, { url: '/data/segments' })).statusCode).toBe(401);
  });

  it("reads a segment's status as each customer's status today, also on /customers", async () => {
    const created = await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/segments',
      payload: { name: 'Churned', filters: { status: 'cancelled' } },
    });
    const { id } = created.json<{ id: string }>();
    const body = (await t.read(account.adminKey, `/customers?status=all&segment=${id}`)) as {
      result: { list: { id: string }[] };
    };
    expect(body.result.list.map((customer) => customer.id)).toEqual(['c_gone']);
  });

  it('refuses a list of customers in a segment: the filter takes one id', async () => {
    const response = await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/segments',
      payload: { name: 'Two', filters: { customer: ['c_visa', 'c_sepa'] } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'Invalid filters.customer: one customer id, not a list' });
  });

  it('keeps each account to its own segments', async () => {
    const other = await t.newAccount();
    const created = await t.call(other.adminKey, {
      method: 'POST',
      url: '/data/segments',
      payload: { name: 'Theirs', filters: { region: 'us' } },
    });
    const { id } = created.json<{ id: string }>();
    expect((await t.call(account.adminKey, { url: `/data/segments/${id}` })).statusCode).toBe(404);
    expect((await t.call(account.adminKey, { url: `/reports/mrr?segment=${id}` })).statusCode).toBe(400);
  });
});
