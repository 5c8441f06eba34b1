import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeConnector, type StripeApiSettings } from '../../src/connectors/processor-a/index.js';
import { type FakeStripe, startFakeStripe } from '../fakes/stripe-server.js';
import type { TestAccount, TestApp } from '../helpers/app.js';
import {
  expectConnected,
  expectConnectRefused,
  expectGivesUp,
  expectSameMrr,
  importAndPosted,
  localApi,
  newSource,
  NO_WAIT,
  TODAY,
  withServices,
} from '../helpers/connector-tests.js';
import { generateAccount, stripeData } from '../helpers/stripe-account.js';
import { STORE_KINDS } from '../helpers/stores.js';

const API_KEY = 'rk_test_fake_books';
const STRIPE = { name: 'Stripe', type: 'processor-a' };
const S = { name: 'S', type: 'processor-a' };

function settingsFor(fake: FakeStripe, extra: StripeApiSettings = {}): StripeApiSettings {
  return localApi(fake, { retry: NO_WAIT, ...extra });
}

describe.each(STORE_KINDS)('processor-a (Stripe) import from a fake Stripe on %s', (kind) => {
  const customers = generateAccount(1000, TODAY);
  let fake: FakeStripe;
  let t: TestApp;
  let imported: TestAccount;
  let posted: TestAccount;

  beforeAll(async () => {
    fake = await startFakeStripe(stripeData(customers), API_KEY);
    ({ t, imported, posted } = await importAndPosted(kind, stripeConnector(settingsFor(fake)), customers));
  }, 600_000);
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  async function connectedSource(account: TestAccount): Promise<string> {
    const id = await newSource(t, account, STRIPE);
    await expectConnected(t, account, id, { api_key: API_KEY });
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

    await expectSameMrr(t, imported, posted);
  }, 600_000);

  it('retries 429 after its Retry-After, 5xx and timeouts, and reads every page', async () => {
    const small = generateAccount(12, TODAY, 7);
    const flaky = await startFakeStripe(stripeData(small), API_KEY);
    const connector = stripeConnector(settingsFor(flaky, { pageSize: 5, timeoutMs: 300 }));
    await withServices(t, flaky, connector, async (services) => {
      const account = await t.newAccount('Flaky');
      const id = await newSource(t, account, STRIPE);
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
    });
  });

  it('gives up after the bounded retries and says why', async () => {
    const failing = await startFakeStripe(stripeData(generateAccount(3, TODAY, 3)), API_KEY);
    await expectGivesUp(t, {
      fake: failing,
      connector: stripeConnector(settingsFor(failing)),
      source: S,
      credentials: { apiKey: API_KEY },
      path: '/v1/prices',
      lastError: 'Stripe: An unexpected error occurred (HTTP 500)',
    });
  });

  it('refuses a key Stripe refuses, storing nothing', async () => {
    const account = await t.newAccount('Wrong key');
    const id = await newSource(t, account, S);
    await expectConnectRefused(
      t,
      account,
      id,
      { api_key: 'rk_test_wrong' },
      'Stripe refused the key: Stripe: Invalid API Key provided (HTTP 401)',
    );
    expect(await t.services.store.connectorImports.secret(account.id, id)).toBeUndefined();
  });

  it('refuses a site, which Stripe does not use, before calling Stripe', async () => {
    const account = await t.newAccount('Site');
    const id = await newSource(t, account, S);
    await expectConnectRefused(
      t,
      account,
      id,
      { api_key: API_KEY, site: 'acme' },
      'site is not used by Stripe',
    );
    expect(await t.services.store.connectorImports.secret(account.id, id)).toBeUndefined();
  });
});
