import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargebeeConnector, type ChargebeeApiSettings } from '../../src/connectors/processor-b/index.js';
import { type FakeChargebee, startFakeChargebee } from '../fakes/chargebee-server.js';
import type { TestAccount, TestApp } from '../helpers/app.js';
import { chargebeeData } from '../helpers/chargebee-account.js';
import {
  connect,
  expectConnected,
  expectConnectRefused,
  expectGivesUp,
  expectSameCommittedMrr,
  expectSameMrr,
  importAndPosted,
  importedBy,
  localApi,
  newSource as createSource,
  NO_WAIT,
  TODAY,
  withServices,
} from '../helpers/connector-tests.js';
import { withTermEndChanges } from '../helpers/plan-changes.js';
import { generateAccount, planMrr } from '../helpers/stripe-account.js';
import { STORE_KINDS } from '../helpers/stores.js';

const SITE = 'fake-books-test';
const API_KEY = 'test_fakebooks_readonly';
const CHARGEBEE = { name: 'Chargebee', type: 'processor-b' };

function settingsFor(fake: FakeChargebee, extra: ChargebeeApiSettings = {}): ChargebeeApiSettings {
  return localApi(fake, { retry: NO_WAIT, ...extra });
}

describe.each(STORE_KINDS)('processor-b (Chargebee) import from a fake Chargebee on %s', (kind) => {
  // Some subscriptions have changes scheduled for their term's end.
  const customers = withTermEndChanges(generateAccount(1000, TODAY));
  let fake: FakeChargebee;
  let t: TestApp;
  let imported: TestAccount;
  let posted: TestAccount;

  beforeAll(async () => {
    fake = await startFakeChargebee(chargebeeData(customers), SITE, API_KEY);
    ({ t, imported, posted } = await importAndPosted(kind, chargebeeConnector(settingsFor(fake)), customers));
  }, 600_000);
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const newSource = (account: TestAccount) => createSource(t, account, CHARGEBEE);

  it('imports 1,000 customers whose MRR month by month, committed too, equals the same account posted through /data', async () => {
    const id = await newSource(imported);
    await expectConnected(t, imported, id, { api_key: API_KEY, site: SITE });
    await t.services.imports.settled(imported.id, id);

    const deleted = customers.at(-1)!;
    const progress = await t.read(imported.adminKey, `/data/data-sources/${id}/progress`);
    expect(progress).toMatchObject({
      phase: 'done',
      percent: 100,
      // The deleted customer's subscription items and invoices name a customer Chargebee no longer lists.
      failedCount: deleted.subscription.items.length + deleted.invoices.length,
    });
    const invoiceCount = customers.reduce((sum, customer) => sum + customer.invoices.length, 0);
    // There is no /settings/processor-b route (only processor-a's): the connection is read from the store.
    expect(await t.services.store.dataSources.connection(imported.id, 'processor-b')).toMatchObject({
      external_account_id: SITE,
      external_account_name: SITE,
      livemode: false,
      sync_status: 'complete',
      customers_imported: 999,
      invoices_imported: invoiceCount - deleted.invoices.length,
    });

    await expectSameMrr(t, imported, posted);
    const changed = customers.filter((customer) => customer.subscription.termEndChange !== undefined);
    await expectSameCommittedMrr(
      t,
      imported,
      posted,
      changed.map((customer) => customer.id),
    );
  }, 600_000);

  it('retries 429 after its Retry-After, 5xx and timeouts, and reads every page', async () => {
    const small = generateAccount(12, TODAY, 7);
    const flaky = await startFakeChargebee(chargebeeData(small), SITE, API_KEY, { embeddedLines: 1 });
    const connector = chargebeeConnector(settingsFor(flaky, { pageSize: 5, timeoutMs: 300 }));
    await withServices(t, flaky, connector, async (services) => {
      const account = await t.newAccount('Flaky');
      const id = await newSource(account);
      flaky.fail(
        { status: 429, headers: { 'retry-after': '0' }, path: '/customers' },
        { status: 500, path: '/customers' },
        { status: 503, path: '/invoices' },
        { status: 200, delayMs: 1000, path: '/item_prices' },
      );
      await services.imports.connectByKey(account.id, id, { apiKey: API_KEY, site: SITE });
      await services.imports.settled(account.id, id);
      expect(await services.imports.progress(account.id, id)).toMatchObject({
        phase: 'done',
        lastError: expect.any(String),
      });
      const customerCalls = flaky.requests.filter((request) => request.startsWith('GET /api/v2/customers'));
      // The key check (1 call, refused with 429, then 500, then answered), then 3 pages of 5.
      expect(customerCalls).toHaveLength(6);
      expect(flaky.requests.filter((request) => request.startsWith('GET /api/v2/item_prices?'))).toHaveLength(
        3,
      );
      // Invoices of more than one line are read to their end with line_items_offset.
      expect(flaky.requests.some((request) => request.includes('line_items_offset'))).toBe(true);
      const list = await t.read(account.adminKey, `/data/invoices?data_source=${id}&limit=1000`);
      expect(list.result.count).toBe(
        small.reduce((sum, customer) => sum + customer.invoices.length, 0) - small.at(-1)!.invoices.length,
      );
      const lines = (list.result.list as { lines: unknown[] }[]).reduce(
        (sum, invoice) => sum + invoice.lines.length,
        0,
      );
      expect(lines).toBe(
        small
          .slice(0, -1)
          .reduce(
            (sum, customer) => sum + customer.invoices.reduce((n, invoice) => n + invoice.lines.length, 0),
            0,
          ),
      );
    });
  });

  it('reads the scheduled changes again when a customer is re-imported', async () => {
    const small = withTermEndChanges(generateAccount(12, TODAY, 7));
    const changed = small.find((customer) => customer.subscription.termEndChange !== undefined)!;
    const site = await startFakeChargebee(chargebeeData(small), SITE, API_KEY);
    await withServices(t, site, chargebeeConnector(settingsFor(site)), async (services) => {
      const { account } = await importedBy(t, services, 'Scheduled changes', CHARGEBEE, {
        apiKey: API_KEY,
        site: SITE,
      });
      const sub = changed.subscription;
      const record = `/data/subscriptions/${sub.id}`;
      const change = sub.termEndChange!;
      const date = new Date(change.at * 1000).toISOString().slice(0, 10);
      expect((await t.read(account.adminKey, record)).scheduled_changes).toEqual([
        {
          date,
          ...(change.planId === sub.items[0]!.planId ? {} : { plan_id: change.planId }),
          quantity: change.quantity,
          amount: planMrr(change.planId, change.quantity),
        },
      ]);
      const resync = () => services.imports.resyncCustomer(account.id, changed.id);

      // At Chargebee the change is removed: the record has none left.
      const wire = site.data.subscriptions.find((item) => item.id === sub.id)!;
      const next = site.data.scheduledChanges.get(sub.id)!;
      wire.has_scheduled_changes = false;
      site.data.scheduledChanges.delete(sub.id);
      await resync();
      expect((await t.read(account.adminKey, record)).scheduled_changes).toEqual([]);

      // Then 5 units of the current plan are scheduled instead (the addons dropped).
      const planItem = (wire.subscription_items as { item_type: string; unit_price: number }[]).find(
        (item) => item.item_type === 'plan',
      )!;
      wire.has_scheduled_changes = true;
      site.data.scheduledChanges.set(sub.id, {
        ...next,
        subscription_items: [{ ...planItem, quantity: 5, amount: 5 * planItem.unit_price }],
      });
      await resync();
      expect((await t.read(account.adminKey, record)).scheduled_changes).toEqual([
        { date, quantity: 5, amount: planMrr(sub.items[0]!.planId, 5) },
      ]);
    });
  });

  it('gives up after the bounded retries and says why', async () => {
    const failing = await startFakeChargebee(chargebeeData(generateAccount(3, TODAY, 3)), SITE, API_KEY);
    await expectGivesUp(t, {
      fake: failing,
      connector: chargebeeConnector(settingsFor(failing)),
      source: CHARGEBEE,
      credentials: { apiKey: API_KEY, site: SITE },
      path: '/item_prices',
      lastError: 'Chargebee: Sorry, Something went wrong when trying to process the request. (HTTP 500)',
    });
  });

  it('refuses a key Chargebee refuses, and an unknown site, storing nothing', async () => {
    const account = await t.newAccount('Wrong key');
    const id = await newSource(account);
    await expectConnectRefused(
      t,
      account,
      id,
      { api_key: 'test_wrong', site: SITE },
      'Chargebee refused the key: Chargebee: Sorry, authentication failed. Invalid api key (HTTP 401)',
    );
    const wrongSite = await connect(t, account, id, { api_key: API_KEY, site: 'someone-else' });
    expect(wrongSite.statusCode).toBe(400);
    expect(wrongSite.json().error).toMatch(/^Chargebee refused the key: Chargebee: .*site.* \(HTTP 404\)$/);
    const badSite = await connect(t, account, id, { api_key: API_KEY, site: 'acme.evil.example/x' });
    expect(badSite.statusCode).toBe(400);
    expect(await t.services.store.connectorImports.secret(account.id, id)).toBeUndefined();
    expect((await t.read(account.adminKey, `/data/customers?data_source=${id}`)).result.count).toBe(0);
  });

  it('refuses to connect without a site, before calling Chargebee', async () => {
    const account = await t.newAccount('No site');
    const id = await newSource(account);
    const before = fake.requests.length;
    await expectConnectRefused(t, account, id, { api_key: API_KEY }, 'site is required to connect Chargebee');
    expect(fake.requests.length).toBe(before);
    expect(await t.services.store.connectorImports.secret(account.id, id)).toBeUndefined();
  });
});

describe('processor-b session read from the middle (a resumed import)', () => {
  it('reads the item prices that invoice lines name, to tell prorated lines from whole ones', async () => {
    const customers = generateAccount(80, TODAY, 15);
    const upgraded = customers.find((customer) =>
      customer.invoices.some((invoice) => invoice.lines.some((line) => line.proration)),
    )!;
    const fake = await startFakeChargebee(chargebeeData([upgraded]), SITE, API_KEY);
    try {
      const session = chargebeeConnector(settingsFor(fake)).open({ apiKey: API_KEY, site: SITE });
      const page = await session.page('invoices', null);
      expect(fake.requests.some((request) => /^GET \/api\/v2\/item_prices\?.*id\[in\]=/.test(request))).toBe(
        true,
      );
      type Line = { id: string; prorated: boolean; amount: number };
      const lines = (page.records.invoices as { lines: Line[] }[]).flatMap((invoice) => invoice.lines);
      const expected = upgraded.invoices.flatMap((invoice) => invoice.lines);
      // The credit is a credit note's line, the charge the invoice's own.
      expect(
        lines
          .filter((line) => line.prorated)
          .map((line) => line.amount)
          .sort((a, b) => a - b),
      ).toEqual(
        expected
          .filter((line) => line.proration)
          .map((line) => line.gross - line.discount - (line.inclusive ? line.tax : 0))
          .sort((a, b) => a - b),
      );
      expect(lines).toHaveLength(expected.length);
    } finally {
      await fake.close();
    }
  });
});
