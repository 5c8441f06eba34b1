import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorRegistry } from '../../src/connectors/connector.js';
import { stripeConnector, type StripeApiSettings } from '../../src/connectors/processor-a/index.js';
import type { RetryPolicy } from '../../src/connectors/retry.js';
import { createServices } from '../../src/services/index.js';
import { type FakeStripe, startFakeStripe } from '../fakes/stripe-server.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { dataRecords, generateAccount, stripeData } from '../helpers/stripe-account.js';
import { STORE_KINDS } from '../helpers/stores.js';

const API_KEY = 'rk_test_fake_books';
const SECRETS_KEY = randomBytes(32);
const TODAY = '2026-11-23';
const MRR_URL = '/reports/mrr?date=20251101-20261122&interval=month';

/** Retries without waiting, so fault tests stay fast; the delays are unit-tested in retry.test.ts. */
const NO_WAIT: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 0,
  maxDelayMs: 0,
  random: () => 0,
  sleep: () => Promise.resolve(),
};

function settingsFor(fake: FakeStripe, extra: StripeApiSettings = {}): StripeApiSettings {
  return { host: '127.0.0.1', port: Number(fake.url.port), protocol: 'http', retry: NO_WAIT, ...extra };
}

describe.each(STORE_KINDS)('processor-a (Stripe) import from a fake Stripe on %s', (kind) => {
  const customers = generateAccount(1000, TODAY);
  let fake: FakeStripe;
  let t: TestApp;
  let imported: TestAccount;
  let posted: TestAccount;

  beforeAll(async () => {
    fake = await startFakeStripe(stripeData(customers), API_KEY);
    t = await createTestApp(
      kind,
      {},
      { connectors: connectorRegistry([stripeConnector(settingsFor(fake))]), secretsKey: SECRETS_KEY },
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
      name: 'Stripe',
      type: 'processor-a',
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

    const deleted = customers.at(-1)!;
    const progress = await t.read(imported.adminKey, `/data/data-sources/${id}/progress`);
    expect(progress).toMatchObject({
      phase: 'done',
      percent: 100,
      // The deleted customer's subscription items and invoices name a customer Stripe no longer lists.
      failedCount: deleted.subscription.items.length + deleted.invoices.length,
    });
    const invoiceCount = customers.reduce((sum, customer) => sum + customer.invoices.length, 0);
    expect(await t.read(imported.adminKey, '/settings/processor-a')).toMatchObject({
      connected: true,
      account_id: 'acct_fake',
      account_name: 'Fake Books Ltd',
      livemode: false,
      sync_status: 'complete',
      customers_imported: 999,
      invoices_imported: invoiceCount - deleted.invoices.length,
    });

    const fromStripe = await t.read(imported.adminKey, MRR_URL);
    const fromApi = await t.read(posted.adminKey, MRR_URL);
    expect(fromStripe).toEqual(fromApi);
    expect(fromApi.result.at(-1).total_mrr).toBeGreaterThan(1_000_000);
    expect(fromApi.result.length).toBe(13);
  }, 600_000);

  it('retries 429 after its Retry-After, 5xx and timeouts, and reads every page', async () => {
    const small = generateAccount(12, TODAY, 7);
    const flaky = await startFakeStripe(stripeData(small), API_KEY);
    const services = createServices(t.services.store, t.clock, {
      connectors: connectorRegistry([stripeConnector(settingsFor(flaky, { pageSize: 5, timeoutMs: 300 }))]),
      secretsKey: SECRETS_KEY,
    });
    try {
      const account = await t.newAccount('Flaky');
      const source = await t.seed(account.adminKey, '/data/data-sources', {
        name: 'Stripe',
        type: 'processor-a',
      });
      const id = source.json<{ id: string }>().id;
      flaky.fail(
        { status: 429, headers: { 'retry-after': '0' }, path: '/v1/customers' },
        { status: 500, path: '/v1/customers' },
        { status: 503, path: '/v1/invoices' },
        { status: 200, delayMs: 1000, path: '/v1/prices' },
      );
      await services.imports.connectByKey(account.id, id, { apiKey: API_KEY });
      await services.imports.settled(account.id, id);
      expect(await services.imports.progress(account.id, id)).toMatchObject({
        phase: 'done',
        lastError: expect.any(String),
      });
      const customerCalls = flaky.requests.filter((request) => request.startsWith('GET /v1/customers'));
      // 3 pages of 5, the first asked three times (429, 500, then answered).
      expect(customerCalls).toHaveLength(5);
      expect(flaky.requests.filter((request) => request.startsWith('GET /v1/prices'))).toHaveLength(3);
      const list = await t.read(account.adminKey, `/data/invoices?data_source=${id}&limit=1000`);
      expect(list.result.count).toBe(
        small.reduce((sum, customer) => sum + customer.invoices.length, 0) - small.at(-1)!.invoices.length,
      );
    } finally {
      await services.imports.close();
      await flaky.close();
    }
  });

  it('gives up after the bounded retries and says why', async () => {
    const failing = await startFakeStripe(stripeData(generateAccount(3, TODAY, 3)), API_KEY);
    const services = createServices(t.services.store, t.clock, {
      connectors: connectorRegistry([stripeConnector(settingsFor(failing))]),
      secretsKey: SECRETS_KEY,
    });
    try {
      const account = await t.newAccount('Failing');
      const id = (
        await t.seed(account.adminKey, '/data/data-sources', { name: 'S', type: 'processor-a' })
      ).json().id;
      const down = { status: 500, path: '/v1/prices' };
      failing.fail(down, down, down, down);
      await services.imports.connectByKey(account.id, id, { apiKey: API_KEY });
      await services.imports.settled(account.id, id);
      expect(await services.imports.progress(account.id, id)).toMatchObject({
        phase: 'error',
        percent: 25,
        lastError: 'Stripe: An unexpected error occurred (HTTP 500)',
      });
    } finally {
      await services.imports.close();
      await failing.close();
    }
  });

  it('refuses a key Stripe refuses, storing nothing', async () => {
    const account = await t.newAccount('Wrong key');
    const id = (
      await t.seed(account.adminKey, '/data/data-sources', { name: 'S', type: 'processor-a' })
    ).json().id;
    const response = await t.call(account.adminKey, {
      method: 'POST',
      url: `/data/data-sources/${id}/connect`,
      payload: { api_key: 'rk_test_wrong' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'Stripe refused the key: Stripe: Invalid API Key provided (HTTP 401)',
    });
    expect(await t.services.store.connectorImports.secret(account.id, id)).toBeUndefined();
  });

  it('refuses a site, which Stripe does not use, before calling Stripe', async () => {
    const account = await t.newAccount('Site');
    const id = (
      await t.seed(account.adminKey, '/data/data-sources', { name: 'S', type: 'processor-a' })
    ).json().id;
    const response = await t.call(account.adminKey, {
      method: 'POST',
      url: `/data/data-sources/${id}/connect`,
      payload: { api_key: API_KEY, site: 'acme' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'site is not used by Stripe' });
    expect(await t.services.store.connectorImports.secret(account.id, id)).toBeUndefined();
  });
});
