import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargebeeClient } from '../../src/connectors/processor-b/client.js';
import { chargebeeConnector } from '../../src/connectors/processor-b/index.js';
import { type FakeChargebee, startFakeChargebee, type WireObject } from '../fakes/chargebee-server.js';
import type { TestAccount, TestApp } from '../helpers/app.js';
import { chargebeeData } from '../helpers/chargebee-account.js';
import {
  connectorApp,
  expectApplied,
  expectConnected,
  expectOrderIndependent,
  expectRefusedThenAppliedOnce,
  expectRemovedItemEnds,
  expectResync,
  localApi,
  newSource,
  TODAY,
  webhookDelivery,
} from '../helpers/connector-tests.js';
import { generateAccount } from '../helpers/stripe-account.js';
import { STORE_KINDS } from '../helpers/stores.js';

const SITE = 'live-sync-test';
const API_KEY = 'test_live_sync';
const WEBHOOK_PASSWORD = 'a long webhook password';

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
  const customers = generateAccount(6, TODAY, 21).slice(0, 5);
  const settings = () => localApi(fake);

  beforeAll(async () => {
    fake = await startFakeChargebee(chargebeeData(customers), SITE, API_KEY);
    t = await connectorApp(kind, chargebeeConnector(settings()));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  /** Connected through the route, which takes the webhook password with the key. */
  async function connected(
    name: string,
    baseCurrency?: string,
  ): Promise<{ account: TestAccount; id: string; hook: string }> {
    const account = await t.newAccount(name, baseCurrency);
    const id = await newSource(t, account, { name: 'Chargebee', type: 'processor-b' });
    await expectConnected(t, account, id, { api_key: API_KEY, site: SITE, webhook_secret: WEBHOOK_PASSWORD });
    await t.services.imports.settled(account.id, id);
    return { account, id, hook: `/webhooks/processor-b/${account.id}/${id}` };
  }

  const deliver = webhookDelivery(
    () => t,
    'authorization',
    () => basic(WEBHOOK_PASSWORD),
  );

  it('rejects a wrong or missing password with 400 and applies nothing, then applies a good event once', async () => {
    const { account, hook } = await connected('Authenticated');
    const customer = fake.data.customers[0]!;
    customer.first_name = 'Renamed';
    customer.last_name = 'at Chargebee';
    const payload = event('ev_rename', 'customer_changed', { customer: { id: customer.id } });

    await expectRefusedThenAppliedOnce(t, {
      deliver,
      fake,
      refused: [basic('wrong password'), basic(''), 'Bearer x', null],
      account,
      hook,
      payload,
      customerId: customer.id,
      nameBefore: customers[0]!.name,
      renamed: 'Renamed at Chargebee',
      renameAgain: () => (customer.last_name = 'again'),
    });

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
    await expectOrderIndependent(t, deliver, { inOrder, reversed }, events, (a) => {
      expect(a.invoices.map((item) => item.id)).toContain('inv_late');
      expect(a.subscriptions.find((item) => item.customer_id === customer.id)).toMatchObject({
        status: 'canceled',
        ended_at: new Date(1_790_000_000_000).toISOString(),
      });
    });
  });

  it('re-imports a customer from Chargebee on POST /customers/{id}/resync', async () => {
    const { account } = await connected('Resync');
    const customer = fake.data.customers[2]!;
    customer.email = 'new-address@example.com';
    await expectResync(t, account, customer.id, 'new-address@example.com');
  });

  /**
   * Gives a customer paying Team monthly (4900 EUR cents with 445 of inclusive tax: 4455 a
   * month) a seat addon, 2 at 1000 (2000 a month), billed on its two invoices before the last:
   * the last (the renewal) is taken out until the seats are removed, as if the import ran
   * before it was issued.
   */
  function withSeats(customer: (typeof customers)[number]) {
    const subscription = fake.data.subscriptions.find((item) => item.customer_id === customer.id)!;
    if (!fake.data.itemPrices.some((price) => price.id === 'price_team_seat'))
      fake.data.itemPrices.push({
        ...fake.data.itemPrices.find((price) => price.id === 'price_team')!,
        id: 'price_team_seat',
        name: 'Team seat EUR',
        external_name: 'Team seat',
        item_type: 'addon',
        price: 1000,
      });
    const items = subscription.subscription_items as WireObject[];
    items.push({
      ...items[0]!,
      item_price_id: 'price_team_seat',
      item_type: 'addon',
      quantity: 2,
      unit_price: 1000,
      amount: 2000,
    });
    const invoices = fake.data.invoices.filter((item) => item.customer_id === customer.id);
    const renewal = invoices.at(-1)!;
    for (const invoice of invoices.slice(-3, -1)) {
      const lines = invoice.line_items as WireObject[];
      const team = lines[0]!;
      lines.push({
        ...team,
        id: `${team.id}_seat`,
        entity_type: 'addon_item_price',
        entity_id: 'price_team_seat',
        unit_amount: 1000,
        quantity: 2,
        amount: 2000,
        is_taxed: false,
        tax_amount: 0,
        discount_amount: 0,
        item_level_discount_amount: 0,
        description: 'Team seat',
        entity_description: 'Team seat',
      });
    }
    fake.data.invoices.splice(fake.data.invoices.indexOf(renewal), 1);
    const lastSeatEnd = (invoices.at(-2)!.line_items as WireObject[]).at(-1)!.date_to as number;
    return {
      subscription,
      recordId: `${subscription.id}:price_team_seat`,
      lastSeatEnd: new Date(lastSeatEnd * 1000).toISOString(),
      /** At Chargebee: the seats are removed before the renewal, which bills Team alone. */
      removeSeats: async () => {
        const updated = await chargebeeClient(API_KEY, SITE, settings()).subscription.updateForItems(
          subscription.id,
          { replace_items_list: true, subscription_items: [{ item_price_id: 'price_team', quantity: 1 }] },
        );
        expect(updated.subscription.subscription_items?.map((item) => item.item_price_id)).toEqual([
          'price_team',
        ]);
        fake.data.invoices.push(renewal);
      },
    };
  }

  it('ends the record of an addon removed from a subscription at the end of its last billed period', async () => {
    // Customer 0 is billed from the 14th to the 14th: the seats last Oct 14 to Nov 14.
    const customer = customers[0]!;
    const seats = withSeats(customer);
    const { account, hook } = await connected('Addon removed', 'eur');
    await expectRemovedItemEnds(t, {
      account,
      remove: seats.removeSeats,
      reread: () =>
        expectApplied(
          deliver,
          hook,
          event('ev_seats_gone', 'subscription_changed', {
            subscription: { id: seats.subscription.id, customer_id: customer.id },
            customer: { id: customer.id },
          }),
        ),
      recordId: seats.recordId,
      // Last billed Oct 14 to Nov 14: MRR 2000 lower from Nov 14.
      endedAt: '2026-11-14T00:00:00.000Z',
      itemMrr: 2000,
    });
    expect(seats.lastSeatEnd).toBe('2026-11-14T00:00:00.000Z');
  });

  it('ends, on a new full import, the record an earlier import stored of an addon removed since', async () => {
    // Customer 4 is billed from the 16th to the 16th: the seats last Oct 16 to Nov 16.
    const customer = customers[4]!;
    const seats = withSeats(customer);
    const { account, id } = await connected('Addon removed before a full import', 'eur');
    await expectRemovedItemEnds(t, {
      account,
      remove: seats.removeSeats,
      reread: async () => {
        await t.services.imports.fullImport(account.id, id);
        await t.services.imports.settled(account.id, id);
      },
      recordId: seats.recordId,
      // Last billed Oct 16 to Nov 16: MRR 2000 lower from Nov 16.
      endedAt: '2026-11-16T00:00:00.000Z',
      itemMrr: 2000,
    });
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
