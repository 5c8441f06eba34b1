import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BULK_ITEMS } from '../../src/services/limits.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

describe.each(STORE_KINDS)('/data access on %s', (kind) => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let groupOfA: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await t.newAccount('A');
    b = await t.newAccount('B');
    const post = (url: string, payload: object) => t.call(a.adminKey, { method: 'POST', url, payload });
    await post('/data/customers', { id: 'c1', name: 'A customer' });
    await post('/data/plans', { id: 'p1', name: 'A plan', billing_freq: 'month', currency: 'usd' });
    await post('/data/invoices', {
      id: 'i1',
      customer_id: 'c1',
      date: '2025-01-01',
      amount: 100,
      currency: 'usd',
    });
    await post('/data/subscriptions', { id: 's1', customer_id: 'c1', started_at: '2025-01-01' });
    groupOfA = (await post('/data/plan-groups', { name: 'G', plans: [{ id: 'p1' }] })).json().id;
  });
  afterAll(() => t.close());

  it('lets viewer keys read but not write (403)', async () => {
    const writes: [string, string, object?][] = [
      ['POST', '/data/customers', { id: 'v', name: 'v' }],
      ['PUT', '/data/customers/c1', { name: 'v' }],
      ['DELETE', '/data/customers/c1'],
      ['POST', '/data/plans', { id: 'v' }],
      ['PUT', '/data/plans', { id: 'p1' }],
      ['DELETE', '/data/plans', { id: 'p1' }],
      ['POST', '/data/plan-groups', { name: 'v', plans: [] }],
      ['DELETE', `/data/plan-groups/${groupOfA}`],
      ['POST', '/data/invoices', {}],
      ['DELETE', '/data/invoices/i1'],
      ['PUT', '/data/subscriptions/s1', {}],
    ];
    for (const [method, url, payload] of writes) {
      const res = await t.call(a.viewerKey, {
        method: method,
        url,
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ error: 'This endpoint needs an admin API key' });
    }
    const read = await t.call(a.viewerKey, { method: 'GET', url: '/data/invoices/i1' });
    expect(read.json()).toMatchObject({ id: 'i1', amount: 100 });
  });

  it('keeps accounts apart: B neither sees nor changes what A holds', async () => {
    for (const url of [
      '/data/customers',
      '/data/plans',
      '/data/plan-groups',
      '/data/invoices',
      '/data/subscriptions',
    ]) {
      const res = await t.call(b.adminKey, { method: 'GET', url });
      expect(res.json(), url).toEqual({ result: { count: 0, list: [] } });
    }
    const attempts: [string, string, object?][] = [
      ['GET', '/data/customers/c1'],
      ['PUT', '/data/customers/c1', { name: 'B was here' }],
      ['DELETE', '/data/customers/c1'],
      ['PUT', '/data/plans/p1', { name: 'B was here' }],
      ['DELETE', '/data/plans', { id: 'p1' }],
      ['GET', `/data/plan-groups/${groupOfA}`],
      ['PUT', `/data/plan-groups/${groupOfA}`, { name: 'B was here' }],
      ['DELETE', `/data/plan-groups/${groupOfA}`],
      ['GET', '/data/invoices/i1'],
      ['PUT', '/data/invoices/i1', { amount: 1 }],
      ['DELETE', '/data/invoices/i1'],
      ['GET', '/data/subscriptions/s1'],
      ['PUT', '/data/subscriptions/s1', { quantity: 9 }],
      ['DELETE', '/data/subscriptions/s1'],
    ];
    for (const [method, url, payload] of attempts) {
      const res = await t.call(b.adminKey, { method: method, url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const sourceOfA = (await t.call(a.adminKey, { method: 'GET', url: '/data/data-sources' })).json()
      .result[0].id;
    const intoA = await t.call(b.adminKey, {
      method: 'POST',
      url: '/data/plans',
      payload: { id: 'p1', name: 'B', billing_freq: 'month', currency: 'usd', data_source: sourceOfA },
    });
    expect(intoA.json().result[0]).toMatchObject({ import_status: 'error' });
    const refToA = await t.call(b.adminKey, {
      method: 'POST',
      url: '/data/plan-groups',
      payload: { name: 'x', plans: ['p1'] },
    });
    expect(refToA.json()).toEqual({ error: 'Unknown plans: p1' });

    expect((await t.call(a.adminKey, { method: 'GET', url: '/data/customers/c1' })).json().name).toBe(
      'A customer',
    );
    expect((await t.call(a.adminKey, { method: 'GET', url: '/data/plans' })).json().result.list[0].name).toBe(
      'A plan',
    );
    expect(
      (await t.call(a.adminKey, { method: 'GET', url: `/data/plan-groups/${groupOfA}` })).json().name,
    ).toBe('G');
    expect((await t.call(a.adminKey, { method: 'GET', url: '/data/invoices/i1' })).json().amount).toBe(100);
    expect((await t.call(a.adminKey, { method: 'GET', url: '/data/subscriptions/s1' })).json().quantity).toBe(
      1,
    );
  });

  it(`refuses more than ${MAX_BULK_ITEMS} items with 413, storing nothing`, async () => {
    const items = Array.from({ length: MAX_BULK_ITEMS + 1 }, (_, i) => ({ id: `big${i}`, name: 'x' }));
    for (const url of ['/data/customers', '/data/plans']) {
      const res = await t.call(a.adminKey, { method: 'POST', url, payload: items });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ error: `A request may carry at most 10000 items; this one has 10001` });
    }
    expect((await t.call(a.adminKey, { method: 'GET', url: '/data/customers' })).json().result.count).toBe(1);
  });

  it('accepts exactly the limit', async () => {
    const items = Array.from({ length: MAX_BULK_ITEMS }, (_, i) => ({ id: `ok${i}`, name: 'x' }));
    const res = await t.call(a.adminKey, { method: 'POST', url: '/data/customers', payload: items });
    expect(res.json().result.count).toBe(MAX_BULK_ITEMS);
    const list = await t.call(a.adminKey, { method: 'GET', url: '/data/customers?limit=10000&offset=9999' });
    expect(list.json().result.list.map((c: { id: string }) => c.id)).toEqual(['ok9998', 'ok9999']);
  });

  it('refuses bodies that are neither JSON nor CSV (415)', async () => {
    const res = await t.call(a.adminKey, {
      method: 'POST',
      url: '/data/plans',
      headers: { 'content-type': 'text/plain' },
      payload: 'id=p9',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      error: 'Unsupported content type: send application/json (or text/csv where documented)',
    });
  });

  it('documents every /data route in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const paths = Object.keys(doc.paths).filter((path) => path.startsWith('/data/'));
    expect(paths.sort()).toEqual([
      '/data/customers',
      '/data/customers/{id}',
      '/data/data-sources',
      '/data/data-sources/{id}',
      '/data/data-sources/{id}/abort',
      '/data/data-sources/{id}/connect',
      '/data/data-sources/{id}/full-import',
      '/data/data-sources/{id}/progress',
      '/data/data-sources/{id}/reset',
      '/data/data-sources/{id}/sheets',
      '/data/data-sources/{id}/sync',
      '/data/invoices',
      '/data/invoices/{id}',
      '/data/plan-groups',
      '/data/plan-groups/{id}',
      '/data/plans',
      '/data/plans/{id}',
      '/data/segments',
      '/data/segments/{id}',
      '/data/subscriptions',
      '/data/subscriptions/{id}',
      '/data/uploads',
      '/data/uploads/{id}',
      '/data/uploads/{id}/import',
      '/data/uploads/{id}/mapping',
    ]);
    const planBody = doc.paths['/data/plans'].post.requestBody.content['application/json'].schema;
    expect(planBody.anyOf[0].required).toEqual(['id', 'name', 'billing_freq', 'currency']);
  });
});
