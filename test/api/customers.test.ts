import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

describe.each(STORE_KINDS)('/data/customers on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  let apiSource: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
  });
  afterAll(() => t.close());

  const post = (payload: unknown, key = account.adminKey) =>
    t.call(key, { method: 'POST', url: '/data/customers', payload: payload as object });

  it('creates one customer, defaulting to the account API data source', async () => {
    const res = await post({
      id: 'c1',
      name: 'Acme',
      email: 'billing@acme.com',
      created_date: '2025-01-15',
      country: 'us',
      currency: 'USD',
      trial_started: '2025-01-15T10:30:00+02:00',
      custom_variables: { industry: 'saas' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ result: { count: 1, list: [{ id: 'c1' }] } });
    const sources = await t.call(account.adminKey, { method: 'GET', url: '/data/data-sources' });
    const [source] = sources.json().result;
    expect(source).toMatchObject({ name: 'API', type: 'api' });
    apiSource = source.id;

    const one = await t.call(account.viewerKey, { method: 'GET', url: '/data/customers/c1' });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({
      id: 'c1',
      name: 'Acme',
      email: 'billing@acme.com',
      created_date: '2025-01-15T00:00:00.000Z',
      country: 'US',
      state: null,
      currency: 'usd',
      status: 'active',
      trial_started: '2025-01-15T08:30:00.000Z',
      trial_end_date: null,
      paid_started: null,
      cancel_date: null,
      overdue_date: null,
      cancel_reason: null,
      custom_variables: { industry: 'saas' },
      data_source: apiSource,
      current_mrr: {},
    });
  });

  it('creates an array and lists exactly the documented list fields', async () => {
    const res = await post([
      { id: 'c2', email: 'b@example.com', created_date: '2025-02-01T00:00:00Z' },
      { id: 'c3', name: 'Gamma', created_date: '2025-03-01', status: 'cancelled', cancel_date: '2025-04-01' },
    ]);
    expect(res.json()).toEqual({ result: { count: 2, list: [{ id: 'c2' }, { id: 'c3' }] } });
    const list = await t.call(account.viewerKey, { method: 'GET', url: '/data/customers?limit=2&offset=1' });
    expect(list.json()).toEqual({
      result: {
        count: 2,
        list: [
          {
            id: 'c2',
            name: null,
            email: 'b@example.com',
            created_date: '2025-02-01T00:00:00.000Z',
            country: null,
            trial_started: null,
            paid_started: null,
            cancel_date: null,
            status: 'active',
            currency: null,
            data_source: apiSource,
          },
          {
            id: 'c3',
            name: 'Gamma',
            email: null,
            created_date: '2025-03-01T00:00:00.000Z',
            country: null,
            trial_started: null,
            paid_started: null,
            cancel_date: '2025-04-01T00:00:00.000Z',
            status: 'cancelled',
            currency: null,
            data_source: apiSource,
          },
        ],
      },
    });
  });

  it('defaults created_date to the time of the first write', async () => {
    await post({ id: 'c-now', name: 'Now' });
    const one = await t.call(account.adminKey, { method: 'GET', url: '/data/customers/c-now' });
    expect(one.json().created_date).toBe('2026-11-23T12:00:00.000Z');
  });

  it('upserts on POST with an existing id: given fields replace, custom variables merge', async () => {
    await post({ id: 'c1', name: 'Acme Inc', custom_variables: { channel: 'ads' } });
    const one = await t.call(account.adminKey, { method: 'GET', url: '/data/customers/c1' });
    expect(one.json()).toMatchObject({
      name: 'Acme Inc',
      email: 'billing@acme.com',
      country: 'US',
      custom_variables: { industry: 'saas', channel: 'ads' },
    });
  });

  it('updates only the given fields on PUT and returns the full customer', async () => {
    const res = await t.call(account.adminKey, {
      method: 'PUT',
      url: '/data/customers/c1',
      payload: {
        email: 'new@acme.com',
        cancel_reason: 'price',
        overdue_date: '2025-06-01',
        custom_variables: { industry: 'fintech', channel: null },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      result: {
        id: 'c1',
        name: 'Acme Inc',
        email: 'new@acme.com',
        created_date: '2025-01-15T00:00:00.000Z',
        country: 'US',
        state: null,
        currency: 'usd',
        status: 'active',
        trial_started: '2025-01-15T08:30:00.000Z',
        trial_end_date: null,
        paid_started: null,
        cancel_date: null,
        overdue_date: '2025-06-01T00:00:00.000Z',
        cancel_reason: 'price',
        custom_variables: { industry: 'fintech' },
        data_source: apiSource,
        current_mrr: {},
      },
    });
  });

  it('rejects invalid fields, naming them, and stores nothing from that request', async () => {
    const cases: [unknown, string][] = [
      [
        { id: 'x1', name: 'X', country: 'XX' },
        'Invalid field "country": "XX" is not an ISO 3166-1 alpha-2 country code',
      ],
      [
        { id: 'x1', name: 'X', currency: 'abc' },
        'Invalid field "currency": "abc" is not an ISO 4217 currency code',
      ],
      [
        { id: 'x1', name: 'X', created_date: '2025-02-30' },
        'Invalid field "created_date": must be an ISO 8601 date or timestamp',
      ],
      [{ id: 'x1', email: 'not-mail' }, 'Invalid field "email": must be an email address'],
      [{ name: 'No id' }, 'Missing required fields: id'],
      [{ id: 'x1' }, 'Missing required fields: name or email'],
      [{ id: 'x1', name: 'X', colour: 'red' }, 'Unknown field: colour'],
      [
        { id: 'x1', name: 'X', data_source: '00000000-0000-4000-8000-000000000000' },
        'Invalid field "data_source": no data source 00000000-0000-4000-8000-000000000000 in this account',
      ],
      [
        [
          { id: 'x1', name: 'ok' },
          { id: 'x2', name: 'X', status: 'gone' },
        ],
        'Item 1 (id "x2"): Invalid field "status": must be one of active, cancelled',
      ],
    ];
    for (const [payload, error] of cases) {
      const res = await post(payload);
      expect(res.statusCode, error).toBe(400);
      expect(res.json()).toEqual({ error });
    }
    const missing = await t.call(account.adminKey, { method: 'GET', url: '/data/customers/x1' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Customer x1 not found' });
  });

  it('answers 404 for unknown customers on read, update and delete', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.call(account.adminKey, {
        method,
        url: '/data/customers/nobody',
        ...(method === 'PUT' ? { payload: { name: 'x' } } : {}),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Customer nobody not found' });
    }
  });

  it('asks for data_source when two sources hold the id (409), and accepts it', async () => {
    const csv = await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/data-sources',
      payload: { name: 'Books', type: 'csv' },
    });
    const csvSource = csv.json().id;
    await post({ id: 'c2', name: 'Other c2', data_source: csvSource });
    const ambiguous = await t.call(account.adminKey, { method: 'GET', url: '/data/customers/c2' });
    expect(ambiguous.statusCode).toBe(409);
    expect(ambiguous.json().error).toMatch(
      /^Customer c2 exists in 2 data sources .*name one with data_source$/,
    );
    const chosen = await t.call(account.adminKey, {
      method: 'GET',
      url: `/data/customers/c2?data_source=${csvSource}`,
    });
    expect(chosen.json()).toMatchObject({ id: 'c2', name: 'Other c2', data_source: csvSource });
    const put = await t.call(account.adminKey, {
      method: 'PUT',
      url: '/data/customers/c2',
      payload: { data_source: apiSource, name: 'Api c2' },
    });
    expect(put.json().result).toMatchObject({ name: 'Api c2', data_source: apiSource });
    const filtered = await t.call(account.adminKey, {
      method: 'GET',
      url: `/data/customers?source=${csvSource}`,
    });
    expect(filtered.json().result.list.map((c: { name: string }) => c.name)).toEqual(['Other c2']);
    // Deleting the data source deletes its records.
    await t.call(account.adminKey, { method: 'DELETE', url: `/data/data-sources/${csvSource}` });
    const after = await t.call(account.adminKey, { method: 'GET', url: '/data/customers/c2' });
    expect(after.json()).toMatchObject({ name: 'Api c2' });
  });

  it('deletes a customer', async () => {
    const res = await t.call(account.adminKey, { method: 'DELETE', url: '/data/customers/c3' });
    expect(res.json()).toEqual({ success: true, id: 'c3' });
    const gone = await t.call(account.adminKey, { method: 'GET', url: '/data/customers/c3' });
    expect(gone.statusCode).toBe(404);
  });

  it('enforces list limits', async () => {
    const over = await t.call(account.adminKey, { method: 'GET', url: '/data/customers?limit=10001' });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ error: 'Invalid query parameter "limit": must be at most 10000' });
    const bad = await t.call(account.adminKey, { method: 'GET', url: '/data/customers?source=nope' });
    expect(bad.json()).toEqual({
      error: 'Invalid query parameter "source": must be a data source id (UUID)',
    });
  });

  it('takes a CSV body with custom_ columns through the same validation', async () => {
    const csv = [
      'id,name,email,country,currency,custom_industry,custom_size',
      'v1,Vee,v@example.com,de,EUR,retail,',
      '"v2","Wee, Inc",,fr,eur,,large',
    ].join('\n');
    const res = await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/customers',
      headers: { 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ result: { count: 2, list: [{ id: 'v1' }, { id: 'v2' }] } });
    const v2 = await t.call(account.adminKey, { method: 'GET', url: '/data/customers/v2' });
    expect(v2.json()).toMatchObject({
      name: 'Wee, Inc',
      email: null,
      country: 'FR',
      custom_variables: { size: 'large' },
    });
    const v1 = await t.call(account.adminKey, { method: 'GET', url: '/data/customers/v1' });
    expect(v1.json()).toMatchObject({ currency: 'eur', custom_variables: { industry: 'retail' } });

    const bad = await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/customers',
      headers: { 'content-type': 'text/csv' },
      payload: 'id,name\nz1,Zed\nz2,"broken\n',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^Malformed CSV at row 3: /);
    const invalid = await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/customers',
      headers: { 'content-type': 'text/csv' },
      payload: 'id,name,country\nz1,Zed,zz\n',
    });
    expect(invalid.json()).toEqual({
      error: 'Invalid field "country": "zz" is not an ISO 3166-1 alpha-2 country code',
    });
  });

  it('is served under /v1 too', async () => {
    const res = await t.call(account.viewerKey, { method: 'GET', url: '/v1/data/customers/c1' });
    expect(res.json()).toMatchObject({ id: 'c1', name: 'Acme Inc' });
  });
});
