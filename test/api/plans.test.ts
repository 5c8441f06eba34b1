import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

const pro = {
  id: 'pro',
  name: 'Pro',
  billing_freq: 'month',
  billing_freq_count: 1,
  pricing_model: 'licensed',
  product_name: 'App',
  currency: 'usd',
};

/** A plan as the plan lists show it: its id again as external_id, and its data source. */
const listed = <Plan extends { id: string }>(plan: Plan) => ({
  ...plan,
  external_id: plan.id,
  data_source: expect.stringMatching(/^[0-9a-f-]{36}$/),
});

describe.each(STORE_KINDS)('/data/plans and /data/plan-groups on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.call(account.adminKey, {
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it('bulk-upserts plans with one result per item, storing the valid ones', async () => {
    const res = await call('POST', '/data/plans', [
      { ...pro, currency: 'USD' },
      { id: 'team', name: 'Team', billing_freq: 'year', currency: 'eur' },
      { id: 'bad', name: 'Bad' },
      { id: 'weekly', name: 'Weekly', billing_freq: 'fortnight', currency: 'usd' },
      {
        external_id: 'q',
        name: 'Quarterly',
        billing_freq: 'quarter',
        billing_freq_count: 2,
        pricing_model: 'licensed',
        currency: 'gbp',
      },
      'not an object',
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      result: [
        { id: 'pro', import_status: 'inserted' },
        { id: 'team', import_status: 'inserted' },
        {
          id: 'bad',
          import_status: 'error',
          import_error: 'Missing required fields: billing_freq, currency',
        },
        {
          id: 'weekly',
          import_status: 'error',
          import_error: 'Invalid field "billing_freq": must be one of day, week, month, quarter, year',
        },
        { id: 'q', import_status: 'inserted' },
        { id: null, import_status: 'error', import_error: 'Item must be a JSON object' },
      ],
    });
    const list = await t.call(account.viewerKey, { method: 'GET', url: '/data/plans' });
    expect(list.json()).toEqual({
      result: {
        count: 3,
        list: [
          listed(pro),
          listed({
            id: 'q',
            name: 'Quarterly',
            billing_freq: 'quarter',
            billing_freq_count: 2,
            pricing_model: 'licensed',
            product_name: null,
            currency: 'gbp',
          }),
          listed({
            id: 'team',
            name: 'Team',
            billing_freq: 'year',
            billing_freq_count: 1,
            pricing_model: 'licensed',
            product_name: null,
            currency: 'eur',
          }),
        ],
      },
    });
  });

  it('filters the list by source and pages it', async () => {
    const sources = await call('GET', '/data/data-sources');
    const apiSource = sources.json().result[0].id;
    const other = (await call('POST', '/data/data-sources', { name: 'Other', type: 'csv' })).json().id;
    const page = await call('GET', `/data/plans?source=${apiSource}&limit=1&offset=1`);
    expect(page.json().result.list.map((plan: { id: string }) => plan.id)).toEqual(['q']);
    expect((await call('GET', `/data/plans?source=${other}`)).json()).toEqual({
      result: { count: 0, list: [] },
    });
    await call('DELETE', `/data/data-sources/${other}`);
  });

  it('updates a plan named in the body, and answers Missing external_id without id', async () => {
    const res = await call('PUT', '/data/plans', { id: 'team', name: 'Team plus', billing_freq_count: 2 });
    expect(res.json()).toEqual({ result: 'ok', updated: 'team' });
    const byPath = await call('PUT', '/data/plans/q', { product_name: 'Suite' });
    expect(byPath.json()).toEqual({ result: 'ok', updated: 'q' });
    const list = await call('GET', '/data/plans');
    expect(list.json().result.list.slice(1)).toEqual([
      listed({
        id: 'q',
        name: 'Quarterly',
        billing_freq: 'quarter',
        billing_freq_count: 2,
        pricing_model: 'licensed',
        product_name: 'Suite',
        currency: 'gbp',
      }),
      listed({
        id: 'team',
        name: 'Team plus',
        billing_freq: 'year',
        billing_freq_count: 2,
        pricing_model: 'licensed',
        product_name: null,
        currency: 'eur',
      }),
    ]);
    for (const method of ['PUT', 'DELETE'] as const) {
      const missing = await call(method, '/data/plans', { name: 'x' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({ error: 'Missing external_id' });
    }
    const invalid = await call('PUT', '/data/plans', { id: 'team', billing_freq: 'decade' });
    expect(invalid.json()).toEqual({
      error: 'Invalid field "billing_freq": must be one of day, week, month, quarter, year',
    });
    const unknown = await call('PUT', '/data/plans', { id: 'nope', name: 'x' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Plan nope not found' });
    const mismatch = await call('PUT', '/data/plans/q', { id: 'team' });
    expect(mismatch.json()).toEqual({ error: 'id in the body must equal the id in the path' });
  });

  it('creates, lists, reads, updates and deletes plan groups with full plan objects', async () => {
    const created = await call('POST', '/data/plan-groups', {
      name: 'Paid',
      plans: [{ id: 'pro' }, { id: 'team' }],
    });
    expect(created.statusCode).toBe(200);
    const { success, id } = created.json();
    expect(success).toBe(true);
    const list = await t.call(account.viewerKey, { method: 'GET', url: '/data/plan-groups' });
    expect(list.json()).toEqual({
      result: {
        count: 1,
        list: [
          {
            id,
            name: 'Paid',
            plans: [
              pro,
              {
                id: 'team',
                name: 'Team plus',
                billing_freq: 'year',
                billing_freq_count: 2,
                pricing_model: 'licensed',
                product_name: null,
                currency: 'eur',
              },
            ],
          },
        ],
      },
    });
    const updated = await call('PUT', `/data/plan-groups/${id}`, {
      name: 'Pro only',
      plans: [{ id: 'pro' }],
    });
    expect(updated.json()).toEqual({ success: true, id });
    expect((await call('GET', `/data/plan-groups/${id}`)).json()).toEqual({
      id,
      name: 'Pro only',
      plans: [pro],
    });
    const renamed = await call('PUT', `/data/plan-groups/${id}`, { name: 'Pro' });
    expect(renamed.statusCode).toBe(200);
    expect((await call('GET', `/data/plan-groups/${id}`)).json()).toEqual({ id, name: 'Pro', plans: [pro] });

    const unknownPlans = await call('POST', '/data/plan-groups', {
      name: 'X',
      plans: [{ id: 'pro' }, { id: 'n1' }, 'n2'],
    });
    expect(unknownPlans.statusCode).toBe(400);
    expect(unknownPlans.json()).toEqual({ error: 'Unknown plans: n1, n2' });
    const noName = await call('POST', '/data/plan-groups', { plans: [] });
    expect(noName.json()).toEqual({
      error: 'Invalid body field "name": Invalid input: expected string, received undefined',
    });
    for (const bad of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const res = await call('PUT', `/data/plan-groups/${bad}`, { name: 'x' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: `Plan group ${bad} not found` });
    }

    const deleted = await call('DELETE', `/data/plan-groups/${id}`);
    expect(deleted.json()).toEqual({ success: true, id });
    expect((await call('GET', '/data/plan-groups')).json()).toEqual({ result: { count: 0, list: [] } });
    expect((await call('GET', '/data/plans')).json().result.count).toBe(3);
  });

  it('reads one plan, and lists the catalogue with the groups holding each plan', async () => {
    expect((await call('GET', '/data/plans/pro')).json()).toEqual(listed(pro));
    expect((await call('GET', '/data/plans/nothing')).statusCode).toBe(404);
    const core = (await call('POST', '/data/plan-groups', { name: 'Core', plans: ['pro', 'team'] })).json()
      .id;
    const annual = (await call('POST', '/data/plan-groups', { name: 'Annual', plans: ['team'] })).json().id;
    const catalogue = (await t.read(account.viewerKey, '/plans')).result;
    const groupsOf = (id: string) => catalogue.list.find((plan: { id: string }) => plan.id === id)?.groups;
    expect(groupsOf('pro')).toEqual([{ id: core, name: 'Core' }]);
    // Groups in name order.
    expect(groupsOf('team')).toEqual([
      { id: annual, name: 'Annual' },
      { id: core, name: 'Core' },
    ]);
    expect(groupsOf('q')).toEqual([]);
    expect(catalogue.count).toBe(catalogue.list.length);
    await call('DELETE', `/data/plan-groups/${core}`);
    await call('DELETE', `/data/plan-groups/${annual}`);
  });

  it('deletes a group through DELETE /data/plans with its UUID, keeping the plans', async () => {
    const { id } = (await call('POST', '/data/plan-groups', { name: 'G', plans: ['pro'] })).json();
    const res = await call('DELETE', '/data/plans', { id });
    expect(res.json()).toEqual({ success: true, id });
    expect((await call('GET', `/data/plan-groups/${id}`)).statusCode).toBe(404);
    expect((await call('GET', '/data/plans')).json().result.count).toBe(3);
  });

  it('deletes plans by body id and by path, and they leave their groups', async () => {
    const { id } = (await call('POST', '/data/plan-groups', { name: 'G', plans: ['pro', 'q'] })).json();
    expect((await call('DELETE', '/data/plans', { id: 'q' })).json()).toEqual({ result: 'ok', deleted: 'q' });
    expect((await call('DELETE', '/data/plans/team')).json()).toEqual({ result: 'ok', deleted: 'team' });
    expect((await call('GET', '/data/plans')).json().result.list).toEqual([listed(pro)]);
    expect((await call('GET', `/data/plan-groups/${id}`)).json().plans).toEqual([pro]);
    const again = await call('DELETE', '/data/plans/team');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'Plan team not found' });
  });

  it('asks which data source is meant when a group names a plan id held by two (409)', async () => {
    const other = (await call('POST', '/data/data-sources', { name: 'Second', type: 'csv' })).json().id;
    await call('POST', '/data/plans', { ...pro, data_source: other });
    const ambiguous = await call('POST', '/data/plan-groups', { name: 'Twice', plans: [{ id: 'pro' }] });
    expect(ambiguous.statusCode).toBe(409);
    expect(ambiguous.json()).toEqual({
      error: 'Plan pro exists in 2 data sources; name one with data_source',
    });
    const chosen = await call('POST', '/data/plan-groups', {
      name: 'Once',
      plans: [{ id: 'pro', data_source: other }],
    });
    expect(chosen.json().success).toBe(true);
    await call('DELETE', `/data/plan-groups/${chosen.json().id}`);
    await call('DELETE', `/data/data-sources/${other}`);
  });

  it('takes plans as CSV', async () => {
    const res = await t.call(account.adminKey, {
      method: 'POST',
      url: '/data/plans',
      headers: { 'content-type': 'text/csv; charset=utf-8' },
      payload:
        'id,name,billing_freq,billing_freq_count,currency,product_name\nc1,CSV one,week,2,usd,\nc2,CSV two,month,x,usd,\n',
    });
    expect(res.json()).toEqual({
      result: [
        { id: 'c1', import_status: 'inserted' },
        {
          id: 'c2',
          import_status: 'error',
          import_error: 'Invalid field "billing_freq_count": Invalid input: expected number, received string',
        },
      ],
    });
    expect((await call('GET', '/data/plans')).json().result.list[0]).toEqual(
      listed({
        id: 'c1',
        name: 'CSV one',
        billing_freq: 'week',
        billing_freq_count: 2,
        pricing_model: 'licensed',
        product_name: null,
        currency: 'usd',
      }),
    );
  });
});
