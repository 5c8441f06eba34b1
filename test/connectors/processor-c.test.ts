import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorRegistry } from '../../src/connectors/connector.js';
import { recurlyConnector, type RecurlyApiSettings } from '../../src/connectors/processor-c/index.js';
import type { RetryPolicy } from '../../src/connectors/retry.js';
import { createServices } from '../../src/services/index.js';
import { type FakeRecurly, startFakeRecurly } from '../fakes/recurly-server.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { recurlyData } from '../helpers/recurly-account.js';
import { dataRecords, generateAccount } from '../helpers/stripe-account.js';
import { STORE_KINDS } from '../helpers/stores.js';

const API_KEY = 'recurly_private_fake_books';
const SECRETS_KEY = randomBytes(32);
const TODAY = '2026-11-23';
const MRR_URL = '/reports/mrr?date=20251101-20261122&interval=month';

/** Retries without waiting, noting the delays asked for; the delays are unit-tested in retry.test.ts. */
function noWait(waits: number[] = []): RetryPolicy {
  return {
    attempts: 4,
    baseDelayMs: 0,
    maxDelayMs: 60_000,
    random: () => 0,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  };
}

function settingsFor(fake: FakeRecurly, extra: RecurlyApiSettings = {}): RecurlyApiSettings {
  return { host: '127.0.0.1', port: Number(fake.url.port), protocol: 'http', retry: noWait(), ...extra };
}

describe.each(STORE_KINDS)('processor-c (Recurly) import from a fake Recurly on %s', (kind) => {
  const customers = generateAccount(Number(process.env.RC_CUSTOMERS ?? 1000), TODAY);
  const wire = recurlyData(customers);
  let fake: FakeRecurly;
  let t: TestApp;
  let imported: TestAccount;
  let posted: TestAccount;

  beforeAll(async () => {
    fake = await startFakeRecurly(wire, API_KEY);
    t = await createTestApp(
      kind,
      {},
      { connectors: connectorRegistry([recurlyConnector(settingsFor(fake))]), secretsKey: SECRETS_KEY },
    );
    imported = await t.newAccount('Imported');
    posted = await t.newAccount('Posted');
    const records = dataRecords(customers);
    for (const [path, items] of Object.entries(records))
      await t.seed(posted.adminKey, `/data/${path}`, items);
  }, 600_000);
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  async function connectedSource(account: TestAccount): Promise<string> {
    const source = await t.seed(account.adminKey, '/data/data-sources', {
      name: 'Recurly',
      type: 'processor-c',
    });
    const id = source.json<{ id: string }>().id;
    const connected = await t.call(account.adminKey, {
      method: 'POST',
      url: `/data/data-sources/${id}/connect`,
      payload: { api_key: API_KEY },
    });
    expect(connected.statusCode, connected.body).toBe(200);
    return id;
  }

  it('imports 1,000 customers whose MRR month by month equals the same account posted through /data', async () => {
    const id = await connectedSource(imported);
    await t.services.imports.settled(imported.id, id);

    const progress = await t.read(imported.adminKey, `/data/data-sources/${id}/progress`);
    expect(progress).toMatchObject({ phase: 'done', percent: 100, failedCount: 0, lastError: null });
    // No /settings/processor-c route exists yet: the connection as the store keeps it.
    expect(await t.services.store.dataSources.connection(imported.id, 'processor-c')).toMatchObject({
      external_account_id: 'site-fake',
      external_account_name: 'fake-books',
      livemode: false,
      sync_status: 'complete',
      // The customer the generator deletes is not at Recurly.
      customers_imported: customers.length - 1,
      invoices_imported: wire.invoices.length,
    });

    const fromRecurly = await t.read(imported.adminKey, MRR_URL);
    const fromApi = await t.read(posted.adminKey, MRR_URL);
    expect(fromRecurly).toEqual(fromApi);
    expect(fromApi.result.at(-1).total_mrr).toBeGreaterThan(1_000_000);
    expect(fromApi.result.length).toBe(13);
  }, 600_000);

  it('retries 429 after X-RateLimit-Reset or Retry-After, 5xx and timeouts, and reads every page', async () => {
    const small = generateAccount(12, TODAY, 7);
    const flaky = await startFakeRecurly(recurlyData(small), API_KEY);
    const waits: number[] = [];
    const services = createServices(t.services.store, t.clock, {
      connectors: connectorRegistry([
        recurlyConnector(settingsFor(flaky, { pageSize: 5, timeoutMs: 300, retry: noWait(waits) })),
      ]),
      secretsKey: SECRETS_KEY,
    });
    try {
      const account = await t.newAccount('Flaky');
      const source = await t.seed(account.adminKey, '/data/data-sources', {
        name: 'Recurly',
        type: 'processor-c',
      });
      const id = source.json<{ id: string }>().id;
      const resetIn30s = String(Math.floor(Date.now() / 1000) + 30);
      flaky.fail(
        { status: 429, headers: { 'x-ratelimit-reset': resetIn30s }, path: '/accounts' },
        { status: 500, path: '/accounts' },
        { status: 503, path: '/invoices' },
        // A proxy's 429, with Retry-After rather than Recurly's headers.
        { status: 429, headers: { 'retry-after': '20' }, path: '/subscriptions' },
        { status: 200, delayMs: 1000, path: '/plans' },
      );
      await services.imports.connectByKey(account.id, id, { apiKey: API_KEY });
      await services.imports.settled(account.id, id);
      expect(await services.imports.progress(account.id, id)).toMatchObject({
        phase: 'done',
        failedCount: 0,
      });
      // The 429s asked to wait until the reset, about 30 s, and 20 s; the others backed off.
      expect(waits.length).toBe(5);
      expect(waits.filter((ms) => ms > 25_000 && ms <= 30_000)).toHaveLength(1);
      expect(waits.filter((ms) => ms > 18_000 && ms <= 21_000)).toHaveLength(1);
      const accountCalls = flaky.requests.filter((request) => request.startsWith('GET /accounts'));
      // 3 pages of 5 (11 accounts), the first asked three times (429, 500, then answered).
      expect(accountCalls).toHaveLength(5);
      expect(accountCalls.slice(3).every((request) => request.includes('cursor='))).toBe(true);
      // One page of plans: the first attempt timed out, the second was answered.
      expect(flaky.requests.filter((request) => request.startsWith('GET /plans?'))).toHaveLength(2);
      const list = await t.read(account.adminKey, `/data/invoices?data_source=${id}&limit=1000`);
      expect(list.result.count).toBe(flaky.data.invoices.length);
    } finally {
      await services.imports.close();
      await flaky.close();
    }
  });

  it('gives up after the bounded retries and says why', async () => {
    const failing = await startFakeRecurly(recurlyData(generateAccount(3, TODAY, 3)), API_KEY);
    const services = createServices(t.services.store, t.clock, {
      connectors: connectorRegistry([recurlyConnector(settingsFor(failing))]),
      secretsKey: SECRETS_KEY,
    });
    try {
      const account = await t.newAccount('Failing');
      const id = (
        await t.seed(account.adminKey, '/data/data-sources', { name: 'R', type: 'processor-c' })
      ).json().id;
      const down = { status: 500, path: '/plans' };
      failing.fail(down, down, down, down);
      await services.imports.connectByKey(account.id, id, { apiKey: API_KEY });
      await services.imports.settled(account.id, id);
      expect(await services.imports.progress(account.id, id)).toMatchObject({
        phase: 'error',
        percent: 25,
        lastError: 'Recurly: An internal server error has occurred (HTTP 500)',
      });
    } finally {
      await services.imports.close();
      await failing.close();
    }
  });

  it('refuses a key Recurly refuses, storing nothing', async () => {
    const account = await t.newAccount('Wrong key');
    const id = (
      await t.seed(account.adminKey, '/data/data-sources', { name: 'R', type: 'processor-c' })
    ).json().id;
    const response = await t.call(account.adminKey, {
      method: 'POST',
      url: `/data/data-sources/${id}/connect`,
      payload: { api_key: 'wrong_key' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'Recurly refused the key: Recurly: Invalid API key (HTTP 401)',
    });
    expect(await t.services.store.connectorImports.secret(account.id, id)).toBeUndefined();
    expect((await t.read(account.adminKey, '/data/customers?limit=10')).result.count).toBe(0);
  });

  it('refuses a site, which a Recurly v3 key does not need, before calling Recurly', async () => {
    const account = await t.newAccount('Site');
    const id = (
      await t.seed(account.adminKey, '/data/data-sources', { name: 'R', type: 'processor-c' })
    ).json().id;
    const before = fake.requests.length;
    const response = await t.call(account.adminKey, {
      method: 'POST',
      url: `/data/data-sources/${id}/connect`,
      payload: { api_key: API_KEY, site: 'acme' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'site is not used by Recurly' });
    expect(fake.requests.length).toBe(before);
  });
});
