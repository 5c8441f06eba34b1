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
import { generateAccount, stripeData, withSchedulesAndCreditNotes } from '../helpers/stripe-account.js';
import { STORE_KINDS } from '../helpers/stores.js';

const API_KEY = 'rk_test_fake_books';
const STRIPE = { name: 'Stripe', type: 'processor-a' };
const S = { name: 'S', type: 'processor-a' };

function settingsFor(fake: FakeStripe, extra: StripeApiSettings = {}): StripeApiSettings {
  return localApi(fake, { retry: NO_WAIT, ...extra });
}

describe.each(STORE_KINDS)('processor-a (Stripe) import from a fake Stripe on %s', (kind) => {
  // With subscription schedules and credit notes, which only Stripe's fake serves.
  const customers = withSchedulesAndCreditNotes(generateAccount(1000, TODAY));
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

  it('imports 1,000 customers whose MRR month by month and committed MRR equal the same account posted through /data', async () => {
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
    await expectSameCommitted(imported, posted);
  }, 600_000);

  /** The schedules' changes and the credit notes the posted twin holds come in: the same committed MRR. */
  async function expectSameCommitted(imported: TestAccount, posted: TestAccount) {
    const schedules = customers.filter((customer) => customer.subscription.schedule);
    const credited = customers
      .flatMap((customer) => customer.invoices)
      .filter((invoice) => invoice.creditNotes);
    // Enough of each: schedules that change items and schedules that cancel; credited invoices.
    expect(schedules.length).toBeGreaterThan(50);
    expect(new Set(schedules.map((customer) => customer.subscription.schedule!.endBehavior)).size).toBe(2);
    expect(credited.length).toBeGreaterThan(10);

    const committed = '/reports/mrr?date=20261101-20270331&interval=month&committed=true';
    expect(await t.read(imported.adminKey, committed)).toEqual(await t.read(posted.adminKey, committed));
    const cmrr = await t.read(imported.adminKey, '/reports/cmrr-summary');
    expect(cmrr).toEqual(await t.read(posted.adminKey, '/reports/cmrr-summary'));
    // The schedules count: committed MRR is not today's MRR.
    const mrr = (await t.read(imported.adminKey, '/reports/summary')).summary.mrr_current;
    expect(cmrr.summary.cmrr_current).not.toBe(mrr);

    // Record by record, for one customer of each kind of schedule and one credited invoice.
    const record = async (account: TestAccount, path: string) => {
      const { data_source: _, ...fields } = await t.read(account.adminKey, path);
      return fields;
    };
    const shapes = new Map(
      schedules.map((customer) => {
        const { changes, endBehavior } = customer.subscription.schedule!;
        const shape = Object.values(changes).map((change) =>
          change.quantity === 0 ? 'drop' : change.plan_id,
        );
        return [`${endBehavior} ${shape.join()}`, customer] as const;
      }),
    );
    // An add-on dropped, Basic switched to Pro yearly, and a cancellation are among them.
    expect([...shapes.keys()]).toEqual(
      expect.arrayContaining(['release drop', 'release price_pro_year', 'cancel ']),
    );
    for (const customer of shapes.values()) {
      for (const item of customer.subscription.items) {
        const path = `/data/subscriptions/${item.id}`;
        const change = customer.subscription.schedule!.changes[item.id];
        expect(await record(imported, path)).toMatchObject({ scheduled_changes: change ? [change] : [] });
        expect(await record(imported, path)).toEqual(await record(posted, path));
      }
    }
    // An invoice with a voided credit note beside one of two lines (half a line, a goodwill credit).
    const both = credited.find(
      ({ creditNotes }) => creditNotes!.length === 2 && creditNotes![0]!.lines.length === 2,
    );
    const invoice = `/data/invoices/${both!.id}`;
    const credits = (await t.read(imported.adminKey, invoice)).lines.filter((line: { id: string }) =>
      line.id.startsWith('cn_'),
    );
    expect(credits.map((line: { id: string }) => line.id)).toEqual(
      both!.creditNotes![0]!.lines.map((line) => `${both!.creditNotes![0]!.id}:${line.id}`),
    );
    expect(await record(imported, invoice)).toEqual(await record(posted, invoice));
  }

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
