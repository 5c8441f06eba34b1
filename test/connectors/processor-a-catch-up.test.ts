import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stripeConnector } from '../../src/connectors/processor-a/index.js';
import { secretBox } from '../../src/services/secret-box.js';
import { type FakeStripe, startFakeStripe, type WireObject } from '../fakes/stripe-server.js';
import type { TestAccount, TestApp } from '../helpers/app.js';
import {
  connectedWithWebhooks,
  connectorApp,
  localApi,
  noWait,
  SECRETS_KEY,
  TODAY,
} from '../helpers/connector-tests.js';
import { generateAccount, stripeData } from '../helpers/stripe-account.js';
import { STORE_KINDS } from '../helpers/stores.js';

const API_KEY = 'rk_test_catch_up';
const WEBHOOK_SECRET = 'whsec_catch_up';

describe.each(STORE_KINDS)(
  'processor-a catch-up from the events list, and deleted customers, on %s',
  (kind) => {
    let fake: FakeStripe;
    let t: TestApp;
    const customers = generateAccount(8, TODAY, 33);

    beforeAll(async () => {
      // Without the generated deleted customer's subscription and invoices, an import refuses
      // nothing, so an import's last error is only what the catch-up says.
      const data = stripeData(customers);
      const live = new Set(data.customers.map((item) => item.id));
      data.subscriptions = data.subscriptions.filter((item) => live.has(item.customer as string));
      data.invoices = data.invoices.filter((item) => live.has(item.customer as string));
      fake = await startFakeStripe(data, API_KEY);
      // An event older than every import: the cursor each import takes is a real event id.
      fake.emit('customer.created', { id: 'cus_before', object: 'customer' });
      // Pages of two events: a catch-up reads on while `more`.
      t = await connectorApp(
        kind,
        stripeConnector(localApi(fake, { pageSize: 2, retry: noWait({ attempts: 2 }) })),
      );
    });
    afterAll(async () => {
      await t.close();
      await fake.close();
    });

    const connected = (name: string) =>
      connectedWithWebhooks(
        t,
        name,
        { name: 'Stripe', type: 'processor-a' },
        { apiKey: API_KEY },
        WEBHOOK_SECRET,
      );

    const row = (source: { account: TestAccount; id: string }) =>
      t.services.store.connectorImports.get(source.account.id, source.id);
    const customer = (source: { account: TestAccount }, id: string) =>
      t.call(source.account.adminKey, { method: 'GET', url: `/data/customers/${id}` });
    const invoiceIds = async (source: { account: TestAccount }) =>
      (
        (await t.read(source.account.adminKey, '/data/invoices?limit=1000')).result.list as { id: string }[]
      ).map((invoice) => invoice.id);

    function deliver(source: { account: TestAccount; id: string }, event: WireObject) {
      const payload = JSON.stringify(event);
      return t.call(undefined, {
        method: 'POST',
        url: `/webhooks/processor-a/${source.account.id}/${source.id}`,
        payload,
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
        },
      });
    }

    it('takes the newest event as its cursor when the import starts', async () => {
      const source = await connected('Cursor');
      expect((await row(source))!.change_cursor).toBe(fake.data.events![0]!.id);
      expect((await row(source))!.caught_up_at).toBeNull();
    });

    it('applies the changes of events that were never delivered, and reads nothing twice', async () => {
      const source = await connected('Missed');
      const [first, second] = fake.data.customers;
      first!.name = 'Renamed without a webhook';
      fake.emit('customer.updated', { id: first!.id, object: 'customer' });
      const invoice = structuredClone(fake.data.invoices.find((item) => item.customer === second!.id)!);
      invoice.id = 'in_caught_up';
      (invoice.lines as WireObject[]).forEach((line, index) => (line.id = `il_caught_up_${index}`));
      fake.data.invoices.push(invoice);
      fake.emit('invoice.created', { id: invoice.id, object: 'invoice', customer: second!.id });
      // Events without a customer change nothing.
      fake.emit('product.updated', { id: 'prod_price_basic', object: 'product' });

      expect((await customer(source, first!.id)).json().name).not.toBe('Renamed without a webhook');
      expect(await invoiceIds(source)).not.toContain('in_caught_up');

      const started = Date.now();
      const outcome = await t.services.imports.catchUp();
      const elapsed = Date.now() - started;
      expect(outcome.failed).toBe(0);
      expect(outcome.sources).toBeGreaterThanOrEqual(2);
      expect((await customer(source, first!.id)).json().name).toBe('Renamed without a webhook');
      expect(await invoiceIds(source)).toContain('in_caught_up');
      const after = (await row(source))!;
      expect(after.change_cursor).toBe(fake.data.events![0]!.id);
      expect(after.caught_up_at).not.toBeNull();
      expect(elapsed).toBeLessThan(30_000);

      // Nothing new: only the events list is read.
      const before = fake.requests.length;
      await t.services.imports.catchUp();
      expect(fake.requests.slice(before).every((request) => request.startsWith('GET /v1/events'))).toBe(true);
    });

    it('is harmless for an event a webhook already applied', async () => {
      const source = await connected('Both');
      const target = fake.data.customers[2]!;
      target.email = 'delivered@example.com';
      const event = fake.emit('customer.updated', { id: target.id, object: 'customer' });
      const delivered = await deliver(source, event);
      expect(delivered.json()).toEqual({ received: true, outcome: 'applied' });
      const view = (await customer(source, target.id)).json();
      const invoices = await invoiceIds(source);

      expect((await t.services.imports.catchUp()).failed).toBe(0);
      expect((await customer(source, target.id)).json()).toEqual(view);
      expect(await invoiceIds(source)).toEqual(invoices);
      expect((await row(source))!.change_cursor).toBe(event.id);
    });

    it('starts a full import when Stripe no longer has the cursor event, and says so', async () => {
      const source = await connected('Expired');
      const current = (await row(source))!;
      await t.services.store.connectorImports.saveChangeCursor(
        source.account.id,
        source.id,
        current.run_id,
        'evt_older_than_30_days',
        current.finished_at!,
      );
      expect((await t.services.imports.catchUp()).failed).toBe(0);
      const restarted = (await row(source))!;
      expect(restarted.run_id).not.toBe(current.run_id);
      expect(restarted.last_error).toMatch(
        /no longer has event evt_older_than_30_days.*a full import started/,
      );
      await t.services.imports.settled(source.account.id, source.id);
      const progress = await t.read(source.account.adminKey, `/data/data-sources/${source.id}/progress`);
      expect(progress.phase).toBe('done');
      expect((await row(source))!.change_cursor).toBe(fake.data.events![0]!.id);
    });

    it('deletes a customer deleted at Stripe, with its invoices: by catch-up, webhook and resync', async () => {
      const source = await connected('Deleted');
      const [byFeed, byHook, byResync] = fake.data.customers.slice(3, 6).map((item) => item.id);
      const invoicesOf = (id: string) =>
        fake.data.invoices.filter((invoice) => invoice.customer === id).map((invoice) => invoice.id);
      for (const id of [byFeed!, byHook!, byResync!]) {
        expect((await customer(source, id)).statusCode).toBe(200);
        expect(await invoiceIds(source)).toEqual(expect.arrayContaining(invoicesOf(id)));
      }
      const mrrBefore = await t.read(
        source.account.adminKey,
        '/reports/mrr?date=20261101-20261122&interval=month',
      );
      // Stripe answers a deleted customer's retrieve with `deleted: true`.
      fake.data.customers = fake.data.customers.filter(
        (item) => ![byFeed, byHook, byResync].includes(item.id),
      );

      fake.emit('customer.deleted', { id: byFeed, object: 'customer' });
      expect((await t.services.imports.catchUp()).failed).toBe(0);
      expect((await customer(source, byFeed!)).statusCode).toBe(404);
      const left = await invoiceIds(source);
      for (const id of invoicesOf(byFeed!)) expect(left).not.toContain(id);
      // The change is tracked: the reports see the customer gone.
      const mrrAfter = await t.read(
        source.account.adminKey,
        '/reports/mrr?date=20261101-20261122&interval=month',
      );
      expect(mrrAfter).not.toEqual(mrrBefore);

      const hooked = await deliver(source, fake.emit('customer.deleted', { id: byHook, object: 'customer' }));
      expect(hooked.json()).toEqual({ received: true, outcome: 'applied' });
      expect((await customer(source, byHook!)).statusCode).toBe(404);
      // Delivered again (another event about it): nothing left to delete.
      const again = await deliver(source, fake.emit('customer.updated', { id: byHook, object: 'customer' }));
      expect(again.json()).toEqual({ received: true, outcome: 'ignored' });

      const resync = await t.call(source.account.adminKey, {
        method: 'POST',
        url: `/customers/${byResync}/resync`,
      });
      expect(resync.statusCode, resync.body).toBe(200);
      expect((await customer(source, byResync!)).statusCode).toBe(404);
    });

    it("keeps a source's failure as its last error and still catches up the others", async () => {
      const good = await connected('Good');
      const bad = await connected('Bad');
      const badRun = (await row(bad))!;
      // The key was revoked at Stripe since: every call with it is refused.
      await t.services.store.connectorImports.saveSecret(
        bad.account.id,
        bad.id,
        secretBox(SECRETS_KEY).seal(JSON.stringify({ apiKey: 'rk_test_revoked' })),
      );
      const target = fake.data.customers[0]!;
      target.name = 'Caught up despite the other';
      fake.emit('customer.updated', { id: target.id, object: 'customer' });

      const outcome = await t.services.imports.catchUp();
      expect(outcome.failed).toBe(1);
      expect((await customer(good, target.id)).json().name).toBe('Caught up despite the other');
      const failed = (await row(bad))!;
      expect(failed.last_error).toMatch(/^Catch-up failed: Stripe: Invalid API Key provided/);
      expect(failed.change_cursor).toBe(badRun.change_cursor);
      const progress = await t.read(bad.account.adminKey, `/data/data-sources/${bad.id}/progress`);
      expect(progress.lastError).toBe(failed.last_error);
      // Disconnected sources are not caught up.
      await t.services.imports.disconnect(bad.account.id, bad.id, { revoke: false });
      expect((await t.services.imports.catchUp()).failed).toBe(0);
    });

    it('runs on its timer until closed', async () => {
      const source = await connected('Timer');
      const target = fake.data.customers[1]!;
      target.name = 'Renamed for the timer';
      fake.emit('customer.updated', { id: target.id, object: 'customer' });
      t.services.imports.startCatchUp(50);
      await vi.waitFor(
        async () => expect((await customer(source, target.id)).json().name).toBe('Renamed for the timer'),
        { timeout: 20_000, interval: 100 },
      );
    });
  },
);
