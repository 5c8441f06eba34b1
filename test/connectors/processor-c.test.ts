import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recurlyConnector, type RecurlyApiSettings } from '../../src/connectors/processor-c/index.js';
import { type FakeRecurly, type RecurlyObject, startFakeRecurly } from '../fakes/recurly-server.js';
import type { TestAccount, TestApp } from '../helpers/app.js';
import {
  expectConnected,
  expectConnectRefused,
  expectGivesUp,
  expectSameCommittedMrr,
  expectSameMrr,
  importAndPosted,
  importedBy,
  localApi,
  MRR_URL,
  newSource,
  noWait,
  seedPosted,
  TODAY,
  withServices,
} from '../helpers/connector-tests.js';
import { recurlyData } from '../helpers/recurly-account.js';
import { withRemovedSeats, withTermEndChanges } from '../helpers/plan-changes.js';
import { generateAccount, planMrr } from '../helpers/stripe-account.js';
import { STORE_KINDS } from '../helpers/stores.js';

const API_KEY = 'recurly_private_fake_books';
const RECURLY = { name: 'Recurly', type: 'processor-c' };
const R = { name: 'R', type: 'processor-c' };
/** Long enough for the waits a 429 asks for (up to the rate limit's reset) to be noted whole. */
const MAX_DELAY_MS = 60_000;

function settingsFor(fake: FakeRecurly, extra: RecurlyApiSettings = {}): RecurlyApiSettings {
  return localApi(fake, { retry: noWait({ maxDelayMs: MAX_DELAY_MS }), ...extra });
}

describe.each(STORE_KINDS)('processor-c (Recurly) import from a fake Recurly on %s', (kind) => {
  // Some subscriptions have a change pending for their term's end, some had their seats removed.
  const customers = withRemovedSeats(
    withTermEndChanges(generateAccount(Number(process.env.RC_CUSTOMERS ?? 1000), TODAY)),
  );
  const wire = recurlyData(customers);
  let fake: FakeRecurly;
  let t: TestApp;
  let imported: TestAccount;
  let posted: TestAccount;

  beforeAll(async () => {
    fake = await startFakeRecurly(wire, API_KEY);
    ({ t, imported, posted } = await importAndPosted(kind, recurlyConnector(settingsFor(fake)), customers));
  }, 600_000);
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  async function connectedSource(account: TestAccount): Promise<string> {
    const id = await newSource(t, account, RECURLY);
    await expectConnected(t, account, id, { api_key: API_KEY });
    return id;
  }

  it('imports 1,000 customers whose MRR month by month, committed too, equals the same account posted through /data', async () => {
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

    await expectSameMrr(t, imported, posted);
    const changed = customers.filter((customer) => customer.subscription.termEndChange !== undefined);
    await expectSameCommittedMrr(
      t,
      imported,
      posted,
      changed.map((customer) => customer.id),
    );
    // The seats removed earlier (listed as expired add-ons) ended then.
    const seatsRemoved = customers.flatMap((customer) =>
      customer.subscription.items.flatMap((item) =>
        item.endedAt === undefined
          ? []
          : [{ id: `${customer.subscription.id}:price_seat`, end: item.endedAt }],
      ),
    );
    expect(seatsRemoved.length).toBeGreaterThan(0);
    for (const seats of seatsRemoved)
      expect(await t.read(imported.adminKey, `/data/subscriptions/${seats.id}`)).toMatchObject({
        status: 'canceled',
        ended_at: new Date(seats.end * 1000).toISOString(),
      });
  }, 600_000);

  it('retries 429 after X-RateLimit-Reset or Retry-After, 5xx and timeouts, and reads every page', async () => {
    const small = generateAccount(12, TODAY, 7);
    const flaky = await startFakeRecurly(recurlyData(small), API_KEY);
    const waits: number[] = [];
    const connector = recurlyConnector(
      settingsFor(flaky, { pageSize: 5, timeoutMs: 300, retry: noWait({ maxDelayMs: MAX_DELAY_MS, waits }) }),
    );
    await withServices(t, flaky, connector, async (services) => {
      const account = await t.newAccount('Flaky');
      const id = await newSource(t, account, RECURLY);
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
    });
  });

  it('ends the record of an add-on removed from its subscription when the customer is re-imported', async () => {
    // A live subscription with seats, billed for three periods or more.
    const [seated] = generateAccount(80, TODAY, 15).filter(
      (customer) =>
        !customer.deleted &&
        customer.subscription.status === 'active' &&
        !customer.subscription.cancelAtPeriodEnd &&
        !customer.subscription.paused &&
        customer.invoices.length >= 3 &&
        customer.subscription.items.some((item) => item.planId === 'price_seat'),
    );
    // The same customer with the seats removed at its second-to-last renewal, posted through /data.
    const [removed] = withRemovedSeats([seated!]);
    const removedAt = removed!.subscription.items.find((item) => item.endedAt !== undefined)!.endedAt!;
    const small = await startFakeRecurly(recurlyData([seated!]), API_KEY);
    await withServices(t, small, recurlyConnector(settingsFor(small)), async (services) => {
      const { account } = await importedBy(t, services, 'Seats removed', RECURLY, { apiKey: API_KEY });
      const sub = small.data.subscriptions[0]!;
      const seatRecord = `/data/subscriptions/${sub.id}:price_seat`;
      expect(await t.read(account.adminKey, seatRecord)).toMatchObject({ status: 'active', ended_at: null });

      // At Recurly, a change removed the seats: gone from the subscription (not expired, just
      // gone) and from the invoices since.
      sub.add_ons = (sub.add_ons as RecurlyObject[]).filter(
        (addOn) => (addOn.add_on as { code: string }).code !== 'price_seat',
      );
      for (const invoice of removed!.invoices.slice(-2)) {
        const wire = small.data.invoices.find((item) => item.id === invoice.id)!;
        wire.line_items = (wire.line_items as RecurlyObject[]).filter(
          (line) => line.add_on_code !== 'price_seat',
        );
      }
      await services.imports.resyncCustomer(account.id, seated!.id);

      // Ended where its last billed period ended, as the posted twin says.
      expect(await t.read(account.adminKey, seatRecord)).toMatchObject({
        status: 'canceled',
        ended_at: new Date(removedAt * 1000).toISOString(),
      });
      const twin = await t.newAccount('Seats removed, posted');
      await seedPosted(t, twin, [removed!]);
      expect(await t.read(account.adminKey, MRR_URL)).toEqual(await t.read(twin.adminKey, MRR_URL));
    });
  });

  it('reads a pending change again when a customer is re-imported', async () => {
    const small = withTermEndChanges(generateAccount(12, TODAY, 7));
    const changed = small.find((customer) => customer.subscription.termEndChange !== undefined)!;
    const site = await startFakeRecurly(recurlyData(small), API_KEY);
    await withServices(t, site, recurlyConnector(settingsFor(site)), async (services) => {
      const { account } = await importedBy(t, services, 'Pending change', RECURLY, { apiKey: API_KEY });
      const sub = changed.subscription;
      const change = sub.termEndChange!;
      const record = `/data/subscriptions/${sub.id}`;
      const resync = () => services.imports.resyncCustomer(account.id, changed.id);
      const wire = site.data.subscriptions.find((item) => item.id === sub.id)!;
      const pending = wire.pending_change as RecurlyObject;

      // The pending change dropped at Recurly: nothing is scheduled any more.
      delete wire.pending_change;
      await resync();
      expect((await t.read(account.adminKey, record)).scheduled_changes).toEqual([]);

      // Back again: read from the account's subscriptions, its plan read for its interval.
      wire.pending_change = pending;
      await resync();
      expect((await t.read(account.adminKey, record)).scheduled_changes).toEqual([
        {
          date: new Date(change.at * 1000).toISOString().slice(0, 10),
          ...(change.planId === sub.items[0]!.planId ? {} : { plan_id: change.planId }),
          quantity: change.quantity,
          amount: planMrr(change.planId, change.quantity),
        },
      ]);
    });
  });

  it('gives up after the bounded retries and says why', async () => {
    const failing = await startFakeRecurly(recurlyData(generateAccount(3, TODAY, 3)), API_KEY);
    await expectGivesUp(t, {
      fake: failing,
      connector: recurlyConnector(settingsFor(failing)),
      source: R,
      credentials: { apiKey: API_KEY },
      path: '/plans',
      lastError: 'Recurly: An internal server error has occurred (HTTP 500)',
    });
  });

  it('refuses a key Recurly refuses, storing nothing', async () => {
    const account = await t.newAccount('Wrong key');
    const id = await newSource(t, account, R);
    await expectConnectRefused(
      t,
      account,
      id,
      { api_key: 'wrong_key' },
      'Recurly refused the key: Recurly: Invalid API key (HTTP 401)',
    );
    expect(await t.services.store.connectorImports.secret(account.id, id)).toBeUndefined();
    expect((await t.read(account.adminKey, '/data/customers?limit=10')).result.count).toBe(0);
  });

  it('refuses a site, which a Recurly v3 key does not need, before calling Recurly', async () => {
    const account = await t.newAccount('Site');
    const id = await newSource(t, account, R);
    const before = fake.requests.length;
    await expectConnectRefused(
      t,
      account,
      id,
      { api_key: API_KEY, site: 'acme' },
      'site is not used by Recurly',
    );
    expect(fake.requests.length).toBe(before);
  });
});
