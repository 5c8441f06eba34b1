import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorRegistry } from '../../src/connectors/connector.js';
import { chargebeeConnector } from '../../src/connectors/processor-b/index.js';
import { type FakeChargebee, startFakeChargebee, type WireObject } from '../fakes/chargebee-server.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { chargebeeData } from '../helpers/chargebee-account.js';
import { generateAccount } from '../helpers/stripe-account.js';
import { STORE_KINDS } from '../helpers/stores.js';

const SITE = 'live-sync-test';
const API_KEY = 'test_live_sync';
const WEBHOOK_PASSWORD = 'a long webhook password';
const MRR_URL = '/reports/mrr?date=20251101-20261122&interval=month';

/** A Chargebee event as its webhooks post it. */
function event(id: string, type: string, content: object, occurredAt = 1_790_000_000): string {
  return JSON.stringify({
    id,
    occurred_at: occurredAt,
    source: 'admin_console',
    object: 'event',
    api_version: 'v2',
    event_type: type,
    webhook_status: 'scheduled',
    content,
  });
}

const basic = (password: string, user = 'mrrlytics') =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe.each(STORE_KINDS)('processor-b live sync and resync on %s', (kind) => {
  let fake: FakeChargebee;
  let t: TestApp;
  const customers = generateAccount(6, '2026-11-23', 21).slice(0, 5);
  const settings = () => ({ host: '127.0.0.1', port: Number(fake.url.port), protocol: 'http' as const });

  beforeAll(async () => {
    fake = await startFakeChargebee(chargebeeData(customers), SITE, API_KEY);
    t = await createTestApp(
      kind,
      {},
      { connectors: connectorRegistry([chargebeeConnector(settings())]), secretsKey: randomBytes(32) },
    );
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  async function connected(name: string): Promise<{ account: TestAccount; id: string; hook: string }> {
    const account = await t.newAccount(name);
    const id = (
      await t.seed(account.adminKey, '/data/data-sources', { name: 'Chargebee', type: 'processor-b' })
    ).json().id;
    const response = await t.call(account.adminKey, {
      method: 'POST',
      url: `/data/data-sources/${id}/connect`,
      payload: { api_key: API_KEY, site: SITE, webhook_secret: WEBHOOK_PASSWORD },
    });
    expect(response.statusCode, response.body).toBe(200);
    await t.services.imports.settled(account.id, id);
    return { account, id, hook: `/webhooks/processor-b/${account.id}/${id}` };
  }

  const deliver = (url: string, payload: string, authorization: string | null = basic(WEBHOOK_PASSWORD)) =>
    t.call(undefined, {
      method: 'POST',
      url,
      payload,
      headers: {
        'content-type': 'application/json',
        ...(authorization === null ? {} : { authorization }),
      },
    });

  it('rejects a wrong or missing password with 400 and applies nothing, then applies a good event once', async () => {
    const { account, hook } = await connected('Authenticated');
    const customer = fake.data.customers[0]!;
    customer.first_name = 'Renamed';
    customer.last_name = 'at Chargebee';
    const payload = event('ev_rename', 'customer_changed', { customer: { id: customer.id } });

    const before = fake.requests.length;
    for (const authorization of [basic('wrong password'), basic(''), 'Bearer x', null]) {
      const refused = await deliver(hook, payload, authorization);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ error: 'Invalid webhook signature' });
    }
    expect(fake.requests.length).toBe(before);
    expect((await t.read(account.adminKey, `/data/customers/${customer.id}`)).name).toBe(customers[0]!.name);

    const applied = await deliver(hook, payload);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toEqual({ received: true, outcome: 'applied' });
    expect((await t.read(account.adminKey, `/data/customers/${customer.id}`)).name).toBe(
      'Renamed at Chargebee',
    );

    customer.last_name = 'again';
    const replayed = await deliver(hook, payload);
    expect(replayed.json()).toEqual({ received: true, outcome: 'duplicate' });
    expect((await t.read(account.adminKey, `/data/customers/${customer.id}`)).name).toBe(
      'Renamed at Chargebee',
    );

    const about = await deliver(
      hook,
      event('ev_plan', 'item_price_updated', { item_price: { id: 'price_basic' } }),
    );
    expect(about.json()).toEqual({ received: true, outcome: 'ignored' });
  });

  it('gives the same records whatever order the events arrive in', async () => {
    const inOrder = await connected('In order');
    const reversed = await connected('Reversed');
    const customer = customers[1]!;
    // At Chargebee: a new invoice, then the subscription is cancelled.
    const invoice = structuredClone<WireObject>(
      fake.data.invoices.find((item) => item.customer_id === customer.id)!,
    );
    invoice.id = 'inv_late';
    invoice.linked_payments = [];
    invoice.issued_credit_notes = [];
    (invoice.line_items as WireObject[]).forEach((line, index) => (line.id = `li_late_${index}`));
    fake.data.invoices.push(invoice);
    const subscription = fake.data.subscriptions.find((item) => item.customer_id === customer.id)!;
    Object.assign(subscription, { status: 'cancelled', cancelled_at: 1_790_000_000 });
    const events = [
      event('ev_invoice', 'invoice_generated', { invoice: { id: 'inv_late', customer_id: customer.id } }),
      event('ev_cancelled', 'subscription_cancelled', {
        subscription: { id: subscription.id, customer_id: customer.id },
        customer: { id: customer.id },
      }),
    ];
    for (const payload of events) expect((await deliver(inOrder.hook, payload)).statusCode).toBe(200);
    for (const payload of [...events].reverse())
      expect((await deliver(reversed.hook, payload)).statusCode).toBe(200);

    const view = async (side: { account: TestAccount; id: string }) => {
      type Row = { id: string; customer_id: string; data_source?: string } & Record<string, unknown>;
      const strip = (list: Row[]): Row[] => list.map(({ data_source, ...rest }) => rest);
      return {
        subscriptions: strip(
          (await t.read(side.account.adminKey, '/data/subscriptions?limit=100')).result.list,
        ),
        invoices: strip((await t.read(side.account.adminKey, '/data/invoices?limit=1000')).result.list),
        mrr: await t.read(side.account.adminKey, MRR_URL),
      };
    };
    const a = await view(inOrder);
    expect(a.invoices.map((item) => item.id)).toContain('inv_late');
    expect(a.subscriptions.find((item) => item.customer_id === customer.id)).toMatchObject({
      status: 'canceled',
      ended_at: new Date(1_790_000_000_000).toISOString(),
    });
    expect(await view(reversed)).toEqual(a);
  });

  it('re-imports a customer from Chargebee on POST /customers/{id}/resync', async () => {
    const { account } = await connected('Resync');
    const customer = fake.data.customers[2]!;
    customer.email = 'new-address@example.com';
    const response = await t.call(account.adminKey, {
      method: 'POST',
      url: `/customers/${customer.id}/resync`,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: 'Resync initiated' });
    expect((await t.read(account.adminKey, `/data/customers/${customer.id}`)).email).toBe(
      'new-address@example.com',
    );
  });

  it('reads the customers of the events after a cursor from the events list', async () => {
    const session = chargebeeConnector(settings()).open({ apiKey: API_KEY, site: SITE });
    fake.data.events.push(
      { id: 'ev_1', occurred_at: 1_790_000_100, content: { customer: { id: customers[0]!.id } } },
      {
        id: 'ev_2',
        occurred_at: 1_790_000_200,
        content: { subscription: { customer_id: customers[1]!.id } },
      },
    );
    const end = await session.changes!(null);
    expect(end).toEqual({ customerIds: [], cursor: '1790000200', more: false });
    fake.data.events.push(
      { id: 'ev_3', occurred_at: 1_790_000_300, content: { invoice: { customer_id: customers[3]!.id } } },
      { id: 'ev_4', occurred_at: 1_790_000_400, content: { coupon: { id: 'SPRING' } } },
    );
    const after = await session.changes!(end.cursor);
    // The cursor's own second is read again (its events are re-synced, harmlessly).
    expect(after).toEqual({
      customerIds: [customers[1]!.id, customers[3]!.id],
      cursor: '1790000400',
      more: false,
    });
    expect(fake.requests.at(-1)).toContain('occurred_at[after]=1790000199');
  });
});
