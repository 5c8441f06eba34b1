import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, LOCAL_RECEIVERS, TEST_NOW, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';
import { type Receiver, startReceiver, verifySignature } from '../helpers/webhook-receiver.js';

const NOW_SECONDS = Date.parse(TEST_NOW) / 1000;
const RECORD_TYPES = ['customer.created', 'customer.updated', 'plan.created', 'invoice.paid'] as const;

async function until(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(STORE_KINDS)('record events to webhooks on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(
      kind,
      {},
      { ...LOCAL_RECEIVERS, webhooks: { retry: { limit: 1, delaySeconds: 0 }, timeoutMs: 2000 } },
      { jobs: { pollingIntervalSeconds: 0.5, onError: () => {} } },
    );
  });
  afterAll(() => t.close());

  /** A new account with a receiver subscribed to each record event type; the secrets by type. */
  async function subscribed(): Promise<{
    account: TestAccount;
    receiver: Receiver;
    secrets: Map<string, string>;
  }> {
    const account = await t.newAccount();
    const receiver = await startReceiver();
    const secrets = new Map<string, string>();
    for (const type of RECORD_TYPES) {
      const created = await t.seed(account.adminKey, '/integrations/webhooks', {
        url: receiver.url,
        event_type: type,
      });
      secrets.set(type, created.json().secret);
    }
    return { account, receiver, secrets };
  }

  const write = async (key: string, method: 'POST' | 'PUT', url: string, payload: unknown) => {
    const response = await t.call(key, { method, url, payload: payload as object });
    expect(response.statusCode, response.body).toBeLessThan(300);
    // Plans and invoices answer 200 per item: each must have been stored.
    if (method === 'POST' && url !== '/data/customers')
      for (const item of response.json().result) expect(item.import_status, response.body).toBe('inserted');
  };

  it('sends each record event once, signed, with the record, when one record is written', async () => {
    const { account, receiver, secrets } = await subscribed();
    try {
      const key = account.adminKey;
      await write(key, 'POST', '/data/customers', { id: 'c1', name: 'Ann', email: 'ann@example.com' });
      await write(key, 'PUT', '/data/customers/c1', { name: 'Ann Smith' });
      // The same fields again change nothing, and are not news.
      await write(key, 'PUT', '/data/customers/c1', { name: 'Ann Smith' });
      await write(key, 'POST', '/data/plans', {
        id: 'basic',
        name: 'Basic',
        billing_freq: 'month',
        currency: 'usd',
      });
      // A changed plan has no event type.
      await write(key, 'PUT', '/data/plans/basic', { name: 'Basic 2' });
      // Posted already paid (the default status).
      await write(key, 'POST', '/data/invoices', {
        id: 'i1',
        customer_id: 'c1',
        date: '2026-11-20',
        currency: 'usd',
        amount: 4900,
      });
      await write(key, 'POST', '/data/invoices', {
        id: 'i2',
        customer_id: 'c1',
        date: '2026-11-21',
        currency: 'usd',
        amount: 2500,
        status: 'open',
      });
      await write(key, 'PUT', '/data/invoices/i2', { status: 'paid' });
      // Paid again is no new payment.
      await write(key, 'PUT', '/data/invoices/i2', { description: 'November' });

      await until(() => receiver.accepted().length >= 5);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const bodies = receiver.accepted();
      const byType = (type: string) => bodies.filter((body) => body.type === type).map((body) => body.data);
      expect(byType('customer.created')).toEqual([
        { customer: { id: 'c1', name: 'Ann', email: 'ann@example.com' } },
      ]);
      expect(byType('customer.updated')).toEqual([
        { customer: { id: 'c1', name: 'Ann Smith', email: 'ann@example.com' } },
      ]);
      expect(byType('plan.created')).toEqual([
        { plan: { id: 'basic', name: 'Basic', billing_freq: 'month', currency: 'usd' } },
      ]);
      expect(
        byType('invoice.paid').sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
      ).toEqual([
        { invoice: { id: 'i1', customer_id: 'c1', total: 4900, currency: 'usd', date: '2026-11-20' } },
        { invoice: { id: 'i2', customer_id: 'c1', total: 2500, currency: 'usd', date: '2026-11-21' } },
      ]);
      expect(bodies).toHaveLength(5);
      for (const body of bodies) expect(body.created_at).toBe(TEST_NOW);
      // Each signed with the secret of the webhook of its type.
      for (const request of receiver.received) {
        const { type } = JSON.parse(request.body) as { type: string };
        const header = request.headers['mrrlytics-signature'] as string;
        expect(verifySignature(header, request.body, secrets.get(type)!, NOW_SECONDS), type).toBe(true);
      }
      // And logged as delivered, one delivery per event.
      const webhooks = (await t.read(key, '/integrations/webhooks')).webhooks as {
        id: string;
        event_type: string;
      }[];
      const invoicePaid = webhooks.find((webhook) => webhook.event_type === 'invoice.paid')!;
      const { deliveries } = await t.read(key, `/integrations/webhooks/${invoicePaid.id}`);
      expect(deliveries.map((delivery: { status: string }) => delivery.status)).toEqual([
        'delivered',
        'delivered',
      ]);
      expect(deliveries.map((delivery: { event_key: string }) => delivery.event_key)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^invoice\.paid:[0-9a-f-]{36}:i1:v\d+$/)]),
      );
    } finally {
      await receiver.close();
    }
  });

  it('sends no per-record event for bulk bodies: arrays and CSV', async () => {
    const { account, receiver } = await subscribed();
    try {
      const key = account.adminKey;
      await write(key, 'POST', '/data/customers', [
        { id: 'c1', name: 'Ann' },
        { id: 'c2', name: 'Bo' },
      ]);
      // An array of one is a bulk body too: the client chose the import form.
      await write(key, 'POST', '/data/customers', [{ id: 'c1', name: 'Ann Smith' }]);
      const csv = await t.call(key, {
        method: 'POST',
        url: '/data/customers',
        headers: { 'content-type': 'text/csv' },
        payload: 'id,name\nc3,Cy\n',
      });
      expect(csv.statusCode, csv.body).toBe(201);
      await write(key, 'POST', '/data/plans', [
        { id: 'basic', name: 'Basic', billing_freq: 'month', currency: 'usd' },
      ]);
      await write(key, 'POST', '/data/invoices', [
        { id: 'i1', customer_id: 'c1', date: '2026-11-20', currency: 'usd', amount: 4900 },
        { id: 'i2', customer_id: 'c2', date: '2026-11-20', currency: 'usd', amount: 4900 },
      ]);
      // A single write after them: once its event is through, the bulk writes' would have been.
      await write(key, 'POST', '/data/customers', { id: 'c9', name: 'Sentinel' });
      await until(() => receiver.accepted().length >= 1);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(receiver.accepted().map((body) => [body.type, body.data])).toEqual([
        ['customer.created', { customer: { id: 'c9', name: 'Sentinel', email: null } }],
      ]);
    } finally {
      await receiver.close();
    }
  });
});

describe('a record event that cannot be queued', () => {
  it('leaves the write done and answered, and is reported', async () => {
    const reported: unknown[] = [];
    // No job runner: queueing a delivery fails.
    const t = await createTestApp('pglite', {}, { webhooks: { report: (error) => reported.push(error) } });
    try {
      const account = await t.newAccount();
      await t.seed(account.adminKey, '/integrations/webhooks', {
        url: 'https://hooks.example.com/customers',
        event_type: 'customer.created',
      });
      const response = await t.call(account.adminKey, {
        method: 'POST',
        url: '/data/customers',
        payload: { id: 'c1', name: 'Ann' },
      });
      expect(response.statusCode, response.body).toBe(201);
      expect((await t.read(account.adminKey, '/data/customers/c1')).name).toBe('Ann');
      expect(reported).toEqual([new Error('No job runner in this process: cannot send to webhook-delivery')]);
    } finally {
      await t.close();
    }
  });
});
