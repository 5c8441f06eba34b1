import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeysService } from '../../src/services/api-keys-service.js';
import { createTestApp, TEST_NOW, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

const UNAUTHORIZED = { error: 'Unauthorized' };
const FORBIDDEN = { error: 'This endpoint needs an admin API key' };
const ADMIN_ROUTES = [
  '/account/api-keys',
  '/account/team',
  '/account/profile',
  '/account',
  '/account/billing',
  '/settings/notifications',
  '/settings/processor-a',
  '/settings/stripe',
  '/settings/crm',
  '/settings/hubspot',
  '/settings/slack',
  '/settings/teams',
];

describe.each(STORE_KINDS)('authentication and access on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
  });
  afterAll(() => t.close());

  it.each([
    ['no header', {}],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['an unknown key', { authorization: 'Bearer mrr_notakeyatall' }],
    ['a key without the scheme', { authorization: 'mrr_notakeyatall' }],
  ])('answers 401 to %s', async (_case, headers) => {
    for (const url of ['/data/data-sources', '/account/profile', '/no/such/route']) {
      const response = await t.app.inject({ method: 'GET', url, headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(UNAUTHORIZED);
    }
  });

  it('accepts the scheme in any case', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/data/data-sources',
      headers: { authorization: `bearer ${account.adminKey}` },
    });
    expect(response.statusCode).toBe(200);
  });

  it('answers 403 to a viewer key on every account and settings route', async () => {
    for (const url of ADMIN_ROUTES) {
      const response = await t.call(account.viewerKey, { method: 'GET', url });
      expect({ url, status: response.statusCode, body: response.json() }).toEqual({
        url,
        status: 403,
        body: FORBIDDEN,
      });
    }
    const put = await t.call(account.viewerKey, {
      method: 'PUT',
      url: '/settings/notifications',
      payload: { email: { enabled: true } },
    });
    expect(put.statusCode).toBe(403);
    expect(
      (await t.call(account.adminKey, { method: 'GET', url: '/settings/notifications' })).json().email
        .enabled,
    ).toBe(false);
  });

  it('lets a viewer key read data but not change it', async () => {
    expect((await t.call(account.viewerKey, { method: 'GET', url: '/data/data-sources' })).statusCode).toBe(
      200,
    );
    const post = await t.call(account.viewerKey, {
      method: 'POST',
      url: '/data/data-sources',
      payload: { name: 'x', type: 'csv' },
    });
    expect(post.statusCode).toBe(403);
    expect((await t.call(account.viewerKey, { method: 'GET', url: '/data/data-sources' })).json()).toEqual({
      result: [],
    });
  });

  it('lets an admin key through every admin route', async () => {
    for (const url of ADMIN_ROUTES) {
      expect((await t.call(account.adminKey, { method: 'GET', url })).statusCode).toBe(200);
    }
  });

  it('serves health and the OpenAPI document without a key', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', store: { kind, reachable: true } });
    const openapi = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(openapi.statusCode).toBe(200);
    expect(Object.keys(openapi.json().paths)).toEqual(
      expect.arrayContaining(['/data/data-sources', '/data/data-sources/{id}', ...ADMIN_ROUTES]),
    );
  });

  it('stops accepting a key once it is deleted or regenerated', async () => {
    const other = await t.newAccount('Rotation');
    const keys = await t.services.apiKeys.list(other.id);
    const viewer = keys.find((key) => key.access_level === 'viewer')!;
    const regenerated = await t.services.apiKeys.regenerate(other.id, viewer.id);
    expect((await t.call(other.viewerKey, { method: 'GET', url: '/data/data-sources' })).statusCode).toBe(
      401,
    );
    expect((await t.call(regenerated.key, { method: 'GET', url: '/data/data-sources' })).statusCode).toBe(
      200,
    );
    await t.services.apiKeys.delete(other.id, viewer.id);
    expect((await t.call(regenerated.key, { method: 'GET', url: '/data/data-sources' })).statusCode).toBe(
      401,
    );
  });

  it('records last_used, writing it at most once a minute per key across processes', async () => {
    const fresh = await t.newAccount('Usage');
    const lastUsed = async () =>
      (await t.services.apiKeys.list(fresh.id)).find((key) => key.access_level === 'admin')!.last_used;
    const at = (seconds: number) => new Date(Date.parse(TEST_NOW) + seconds * 1000).toISOString();
    // A second process shares the store but has its own in-memory throttle.
    const otherProcess = createApiKeysService(t.services.store, t.clock);
    expect(await lastUsed()).toBeNull();

    await t.call(fresh.adminKey, { method: 'GET', url: '/data/data-sources' });
    expect(await lastUsed()).toBe(at(0));

    t.clock.set(at(30));
    await t.call(fresh.adminKey, { method: 'GET', url: '/data/data-sources' });
    await otherProcess.authenticate(fresh.adminKey);
    expect(await lastUsed()).toBe(at(0));

    t.clock.set(at(61));
    await t.call(fresh.adminKey, { method: 'GET', url: '/data/data-sources' });
    expect(await lastUsed()).toBe(at(61));
    t.clock.set(TEST_NOW);
  });

  it('serves every path under /v1 as well', async () => {
    const plain = await t.call(account.adminKey, { method: 'GET', url: '/account/profile' });
    const versioned = await t.call(account.adminKey, { method: 'GET', url: '/v1/account/profile' });
    expect(versioned.statusCode).toBe(200);
    expect(versioned.json()).toEqual(plain.json());
    expect(
      (await t.call(account.adminKey, { method: 'GET', url: '/v1/data/data-sources?type=csv' })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/v1/health' })).statusCode).toBe(200);
    expect((await t.call(account.viewerKey, { method: 'GET', url: '/v1/settings/crm' })).statusCode).toBe(
      403,
    );
    expect((await t.call(undefined, { method: 'GET', url: '/v1/account/profile' })).statusCode).toBe(401);
  });
});
