import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeConnector } from '../../src/connectors/processor-a/index.js';
import { type FakeStripe, startFakeStripe, type WireObject } from '../fakes/stripe-server.js';
import type { TestApp } from '../helpers/app.js';
import {
  connectedWithWebhooks,
  connectorApp,
  expectNoWebhooks,
  expectOrderIndependent,
  expectRefusedThenAppliedOnce,
  expectApplied,
  expectRemovedItemEnds,
  expectResync,
  localApi,
  TODAY,
  webhookDelivery,
} from '../helpers/connector-tests.js';
import { generateAccount, stripeData } from '../helpers/stripe-account.js';
import { STORE_KINDS } from '../helpers/stores.js';

const API_KEY = 'rk_test_live_sync';
const WEBHOOK_SECRET = 'whsec_test_secret';

function event(id: string, type: string, object: object): string {
  return JSON.stringify({ id, object: 'event', type, created: 1_790_000_000, data: { object } });
}

const sign = (payload: string, secret = WEBHOOK_SECRET) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret });

describe.each(STORE_KINDS)('processor-a live sync and resync on %s', (kind) => {
  let fake: FakeStripe;
  let t: TestApp;
  const customers = generateAccount(6, TODAY, 21).slice(0, 5);

  beforeAll(async () => {
    fake = await startFakeStripe(stripeData(customers), API_KEY);
    t = await connectorApp(kind, stripeConnector(localApi(fake)));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const connected = (name: string, baseCurrency?: string) =>
    connectedWithWebhooks(
      t,
      name,
      { name: 'Stripe', type: 'processor-a' },
      { apiKey: API_KEY },
      WEBHOOK_SECRET,
      baseCurrency,
    );

  const deliver = webhookDelivery(() => t, 'stripe-signature', sign);

  it('rejects a bad signature with 400 and applies nothing, then applies a good event once', async () => {
    const { account, hook } = await connected('Signed');
    const customer = fake.data.customers[0]!;
    customer.name = 'Renamed at Stripe';
    const payload = event('evt_rename', 'customer.updated', { id: customer.id, object: 'customer' });

    await expectRefusedThenAppliedOnce(t, {
      deliver,
      fake,
      // Forged: signed with another secret.
      refused: [sign(payload, 'whsec_wrong')],
      account,
      hook,
      payload,
      customerId: customer.id,
      nameBefore: customers[0]!.name,
      renamed: 'Renamed at Stripe',
      renameAgain: () => (customer.name = 'Renamed again'),
    });

    const unsigned = await deliver(hook, payload, null);
    expect(unsigned.statusCode).toBe(400);
  });

  it('gives the same records whatever order the events arrive in', async () => {
    const inOrder = await connected('In order');
    const reversed = await connected('Reversed');
    const customer = customers[1]!;
    // At Stripe: a new invoice, then the subscription ends.
    const invoice = structuredClone<WireObject>(
      fake.data.invoices.find((item) => item.customer === customer.id)!,
    );
    invoice.id = 'in_late';
    (invoice.lines as WireObject[]).forEach((line, index) => (line.id = `il_late_${index}`));
    fake.data.invoices.push(invoice);
    const subscription = fake.data.subscriptions.find((item) => item.customer === customer.id)!;
    Object.assign(subscription, { status: 'canceled', ended_at: 1_790_000_000, canceled_at: 1_789_000_000 });
    const events = [
      event('evt_invoice', 'invoice.created', { id: 'in_late', object: 'invoice', customer: customer.id }),
      event('evt_ended', 'customer.subscription.deleted', {
        id: subscription.id,
        object: 'subscription',
        customer: customer.id,
      }),
    ];
    await expectOrderIndependent(t, deliver, { inOrder, reversed }, events, (a) => {
      expect(a.invoices.map((item) => item.id)).toContain('in_late');
      expect(a.subscriptions.find((item) => item.customer_id === customer.id)).toMatchObject({
        status: 'canceled',
      });
    });
  });

  it('re-imports a customer from Stripe on POST /customers/{id}/resync', async () => {
    const { account } = await connected('Resync');
    const customer = fake.data.customers[2]!;
    customer.email = 'new-address@example.com';
    await expectResync(t, account, customer.id, 'new-address@example.com');
  });

  it('applies subscription_schedule and credit_note events by reading the customer again', async () => {
    const { account, hook } = await connected('Schedules and credits');
    const customer = customers[2]!;
    // At Stripe: 2 of Quarterly (12000 a quarter) become 4 when the period ends on 2027-02-19.
    const subscription = fake.data.subscriptions.find((item) => item.customer === customer.id)!;
    const item = (subscription.items as { data: WireObject[] }).data[0]!;
    expect([(item.price as WireObject).id, item.quantity]).toEqual(['price_quarter', 2]);
    const phase = (start: unknown, end: unknown, quantity: number) => ({
      start_date: start,
      end_date: end,
      items: [{ price: 'price_quarter', plan: 'price_quarter', quantity, discounts: [], metadata: {} }],
    });
    const periodEnd = item.current_period_end as number;
    fake.data.subscriptionSchedules!.push({
      id: 'sub_sched_live',
      object: 'subscription_schedule',
      created: 1_790_000_000,
      customer: customer.id,
      subscription: subscription.id,
      status: 'active',
      end_behavior: 'release',
      current_phase: { start_date: item.current_period_start, end_date: periodEnd },
      phases: [phase(item.current_period_start, periodEnd, 2), phase(periodEnd, periodEnd + 90 * 86_400, 4)],
    });
    subscription.schedule = 'sub_sched_live';
    const scheduled = await deliver(
      hook,
      event('evt_schedule', 'subscription_schedule.created', {
        id: 'sub_sched_live',
        object: 'subscription_schedule',
        customer: customer.id,
      }),
    );
    expect(scheduled.statusCode).toBe(200);
    expect((await t.read(account.adminKey, `/data/subscriptions/${item.id}`)).scheduled_changes).toEqual([
      // 4 x 12000 a quarter / 3 = 16000 a month.
      { date: '2027-02-19', plan_id: 'price_quarter', quantity: 4, amount: 16_000 },
    ]);

    // At Stripe: 1000 of the last paid invoice's line credited back.
    const invoice = fake.data.invoices.filter((item) => item.customer === customer.id).at(-1)!;
    const line = (invoice.lines as WireObject[])[0]!;
    invoice.post_payment_credit_notes_amount = 1000;
    fake.data.creditNotes!.push({
      id: 'cn_live',
      object: 'credit_note',
      created: 1_790_000_000,
      customer: customer.id,
      invoice: invoice.id,
      status: 'issued',
      effective_at: 1_790_000_000,
      lines: [
        {
          id: 'cnli_live',
          object: 'credit_note_line_item',
          type: 'invoice_line_item',
          invoice_line_item: line.id,
          amount: 1000,
          quantity: 1,
          description: 'Goodwill',
          discount_amounts: [],
          taxes: [],
        },
      ],
    });
    const credited = await deliver(
      hook,
      event('evt_credit', 'credit_note.created', {
        id: 'cn_live',
        object: 'credit_note',
        customer: customer.id,
      }),
    );
    expect(credited.statusCode).toBe(200);
    const { lines } = await t.read(account.adminKey, `/data/invoices/${invoice.id}`);
    // The credit is for the period of the line it credits.
    expect(lines.at(-1)).toMatchObject({
      id: 'cn_live:cnli_live',
      type: 'subscription',
      subscription_id: item.id,
      amount: -1000,
      period_start: lines[0].period_start,
      period_end: lines[0].period_end,
    });
  });

  /**
   * Gives a customer paying Team monthly (4900 EUR cents with 445 of inclusive tax: 4455 a
   * month) 2 seats at 1000 each (2000 a month), billed on its two invoices before the last: the
   * last (the renewal) is taken out until `renew`, as if the import ran before it was issued.
   */
  function withSeats(customer: (typeof customers)[number], itemId: string) {
    const subscription = fake.data.subscriptions.find((item) => item.customer === customer.id)!;
    const seatPrice: WireObject = {
      ...fake.data.prices.find((price) => price.id === 'price_team')!,
      id: 'price_team_seat',
      nickname: 'Team seat',
      unit_amount: 1000,
    };
    if (!fake.data.prices.some((price) => price.id === seatPrice.id)) fake.data.prices.push(seatPrice);
    const items = (subscription.items as { data: WireObject[] }).data;
    items.push({ ...items[0]!, id: itemId, price: seatPrice, quantity: 2 });
    const invoices = fake.data.invoices.filter((item) => item.customer === customer.id);
    const renewal = invoices.at(-1)!;
    for (const invoice of invoices.slice(-3, -1)) {
      const lines = invoice.lines as WireObject[];
      const team = lines[0]!;
      lines.push({
        ...team,
        id: `${team.id}_seat`,
        amount: 2000,
        quantity: 2,
        taxes: [],
        discount_amounts: [],
        description: '2 x Team seat',
        parent: {
          type: 'subscription_item_details',
          subscription_item_details: {
            subscription_item: itemId,
            proration: false,
            subscription: subscription.id,
            invoice_item: null,
          },
          invoice_item_details: null,
        },
        pricing: {
          type: 'price_details',
          price_details: { price: 'price_team_seat', product: 'prod_price_team' },
        },
      });
    }
    fake.data.invoices.splice(fake.data.invoices.indexOf(renewal), 1);
    const lastSeatEnd = (invoices.at(-2)!.lines as WireObject[]).at(-1)!.period as { end: number };
    return {
      subscription,
      lastSeatEnd: new Date(lastSeatEnd.end * 1000).toISOString(),
      /** At Stripe: the seats are deleted before the renewal, which bills Team alone. */
      deleteSeats: async () => {
        const stripe = new Stripe(API_KEY, localApi(fake));
        expect(await stripe.subscriptionItems.del(itemId)).toMatchObject({ deleted: true });
        fake.data.invoices.push(renewal);
      },
    };
  }

  it('ends the record of an item deleted from a subscription at the end of its last billed period', async () => {
    // Customer 0 is billed from the 14th to the 14th: the seats last Oct 14 to Nov 14.
    const customer = customers[0]!;
    const seats = withSeats(customer, 'si_team_seat');
    const { account, hook } = await connected('Item deleted', 'eur');
    await expectRemovedItemEnds(t, {
      account,
      remove: seats.deleteSeats,
      reread: () =>
        expectApplied(
          deliver,
          hook,
          event('evt_seats_gone', 'customer.subscription.updated', {
            id: seats.subscription.id,
            object: 'subscription',
            customer: customer.id,
          }),
        ),
      recordId: 'si_team_seat',
      // Last billed Oct 14 to Nov 14: MRR 2000 lower from Nov 14.
      endedAt: '2026-11-14T00:00:00.000Z',
      itemMrr: 2000,
    });
    expect(seats.lastSeatEnd).toBe('2026-11-14T00:00:00.000Z');
  });

  it('ends, on a new full import, the record an earlier import stored of an item deleted since', async () => {
    // Customer 4 is billed from the 16th to the 16th: the seats last Oct 16 to Nov 16.
    const customer = customers[4]!;
    const seats = withSeats(customer, 'si_team_seat_4');
    const { account, id } = await connected('Item deleted before a full import', 'eur');
    await expectRemovedItemEnds(t, {
      account,
      remove: seats.deleteSeats,
      reread: async () => {
        await t.services.imports.fullImport(account.id, id);
        await t.services.imports.settled(account.id, id);
      },
      recordId: 'si_team_seat_4',
      // Last billed Oct 16 to Nov 16: MRR 2000 lower from Nov 16.
      endedAt: '2026-11-16T00:00:00.000Z',
      itemMrr: 2000,
    });
  });

  it('answers 404 for a source that takes no webhooks', async () => {
    const payload = event('evt_x', 'customer.updated', { id: 'cus_x', object: 'customer' });
    await expectNoWebhooks(t, deliver, { name: 'S', type: 'processor-a' }, payload);
  });

  it('answers 404 when the path names another system than the source, 400 for an unknown one', async () => {
    const { account, id } = await connected('Other system');
    const payload = event('evt_y', 'customer.updated', { id: 'cus_y', object: 'customer' });
    const other = await deliver(`/webhooks/processor-b/${account.id}/${id}`, payload);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ error: `Data source ${id} is not of type processor-b` });
    const unknown = await deliver(`/webhooks/paypal/${account.id}/${id}`, payload);
    expect(unknown.statusCode).toBe(400);
  });
});
