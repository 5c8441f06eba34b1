import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RevenueEvent } from '../../src/engine/revenue-event.js';
import { createTestApp, LOCAL_RECEIVERS, TEST_NOW, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';
import { type Receiver, startReceiver, verifySignature } from '../helpers/webhook-receiver.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const NOW_SECONDS = Date.parse(TEST_NOW) / 1000;

describe.each(STORE_KINDS)('webhook routes on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp(kind, {}, LOCAL_RECEIVERS);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });
  beforeAll(async () => {
    account = await t.newAccount();
  });

  const post = (url: string, payload: object, key = account.adminKey) =>
    t.call(key, { method: 'POST', url, payload });
  const create = (payload: object, key = account.adminKey) => post('/integrations/webhooks', payload, key);

  it('creates, lists, shows and deletes a webhook', async () => {
    const created = await create({ url: 'https://hooks.example.com/a', event_type: 'movement.churn' });
    expect(created.statusCode, created.body).toBe(201);
    const webhook = created.json();
    expect(webhook).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'https://hooks.example.com/a',
      event_type: 'movement.churn',
      created_at: TEST_NOW,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    const { secret, ...listed } = webhook;
    expect(await t.read(account.viewerKey, '/integrations/webhooks')).toEqual({ webhooks: [listed] });
    expect(await t.read(account.viewerKey, '/settings/webhook')).toEqual({ webhooks: [listed] });
    // The secret is for admins; a viewer sees the rest.
    expect(await t.read(account.adminKey, `/integrations/webhooks/${webhook.id}`)).toEqual({
      ...listed,
      secret,
      deliveries: [],
    });
    expect(await t.read(account.viewerKey, `/integrations/webhooks/${webhook.id}`)).toEqual({
      ...listed,
      deliveries: [],
    });
    const deleted = await t.call(account.adminKey, {
      method: 'DELETE',
      url: `/integrations/webhooks/${webhook.id}`,
    });
    expect(deleted.json()).toEqual({ success: true, message: `Webhook ${webhook.id} deleted` });
    expect(await t.read(account.adminKey, '/integrations/webhooks')).toEqual({ webhooks: [] });
  });

  it('creates through /settings/webhook too, and answers 409 with the existing id for the same URL and type', async () => {
    const payload = { url: 'https://hooks.example.com/b', event_type: 'failed_payment' };
    const first = await post('/settings/webhook', payload);
    expect(first.statusCode, first.body).toBe(201);
    const again = await create(payload);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'A webhook for failed_payment to this URL exists already',
      existing_id: first.json().id,
    });
    // Another type to the same URL is another webhook.
    expect((await create({ ...payload, event_type: 'payment_recovered' })).statusCode).toBe(201);
  });

  it.each([
    [
      { url: 'ftp://hooks.example.com', event_type: 'movement.new' },
      'Invalid body field "url": must be an https URL (http only to localhost)',
    ],
    [
      { url: 'http://hooks.example.com', event_type: 'movement.new' },
      'Invalid body field "url": must be an https URL (http only to localhost)',
    ],
    [
      { url: 'not a url', event_type: 'movement.new' },
      'Invalid body field "url": must be an https URL (http only to localhost)',
    ],
    [
      { url: `https://example.com/${'x'.repeat(2048)}`, event_type: 'movement.new' },
      'Invalid body field "url": must be at most 2048 characters',
    ],
    [
      { url: 'https://hooks.example.com', event_type: 'movement.sideways' },
      expect.stringMatching(/^Invalid body field "event_type": must be one of movement.new, /),
    ],
    [{ url: 'https://hooks.example.com' }, expect.stringMatching(/^Invalid body field "event_type"/)],
    [
      { url: 'https://hooks.example.com', event_type: 'movement.new', secret: 's' },
      'Unknown body field: secret',
    ],
  ])('refuses a bad body with a 400: %#', async (payload, error) => {
    const response = await create(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error });
  });

  it('accepts http to this machine where private targets are allowed', async () => {
    for (const url of ['http://localhost:8080/x', 'http://127.0.0.1/x', 'http://[::1]:9/x'])
      expect((await create({ url, event_type: 'plan.created' })).statusCode, url).toBe(201);
  });

  it("answers 404 for a webhook that is not there, or is another account's", async () => {
    const other = await t.newAccount('Other');
    const theirs = (
      await create({ url: 'https://hooks.example.com/theirs', event_type: 'movement.new' }, other.adminKey)
    ).json();
    for (const id of [UNKNOWN_ID, 'not-a-uuid', theirs.id]) {
      for (const method of ['GET', 'DELETE'] as const) {
        const response = await t.call(account.adminKey, { method, url: `/integrations/webhooks/${id}` });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error: `Webhook ${id} not found` });
      }
      const verify = await t.call(account.adminKey, { method: 'GET', url: `/integrations/verify?id=${id}` });
      expect(verify.statusCode).toBe(404);
    }
  });

  it('answers a sample body per event type, and 404 for an unknown one', async () => {
    expect(await t.read(account.viewerKey, '/integrations/sample/movement.expansion')).toEqual({
      id: '00000000-0000-0000-0000-000000000000',
      type: 'movement.expansion',
      created_at: TEST_NOW,
      data: {
        customer: { id: 'cus_123', name: 'Example Ltd', email: 'billing@example.com' },
        occurred_at: '2026-01-15T00:00:00.000Z',
        amount: 4900,
        mrr: 9900,
        currency: 'usd',
      },
    });
    expect(
      (await t.read(account.viewerKey, '/integrations/sample/data_source.import_completed')).data,
    ).toEqual({
      data_source: { id: '00000000-0000-0000-0000-000000000001', name: 'Stripe', type: 'processor-a' },
      finished_at: '2026-01-15T00:00:00.000Z',
    });
    const unknown = await t.call(account.viewerKey, {
      method: 'GET',
      url: '/integrations/sample/movement.sideways',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toMatch(/^Unknown event type movement.sideways; one of movement.new, /);
  });

  it('refuses writes, test deliveries and dead jobs to a viewer key, and everything without a key', async () => {
    const { id } = (await create({ url: 'https://hooks.example.com/v', event_type: 'movement.new' })).json();
    const refused = [
      {
        method: 'POST',
        url: '/integrations/webhooks',
        payload: { url: 'https://a.example', event_type: 'movement.new' },
      },
      {
        method: 'POST',
        url: '/settings/webhook',
        payload: { url: 'https://a.example', event_type: 'movement.new' },
      },
      { method: 'DELETE', url: `/integrations/webhooks/${id}` },
      { method: 'GET', url: '/integrations/verify' },
      { method: 'POST', url: '/integrations/verify' },
      { method: 'GET', url: '/jobs/dead' },
    ] as const;
    for (const request of refused) {
      const response = await t.call(account.viewerKey, request);
      expect(response.statusCode, request.url).toBe(403);
      expect(response.json()).toEqual({ error: 'This endpoint needs an admin API key' });
      expect((await t.call(undefined, request)).statusCode).toBe(401);
    }
  });

  it('sends a signed test delivery to each webhook now, or to the one named', async () => {
    const own = await t.newAccount('Verifier');
    const good = (await create({ url: receiver.url, event_type: 'movement.new' }, own.adminKey)).json();
    // A port nothing listens on any more.
    const gone = await startReceiver();
    await gone.close();
    const bad = (await create({ url: gone.url, event_type: 'movement.new' }, own.adminKey)).json();
    const all = await t.call(own.adminKey, { method: 'POST', url: '/integrations/verify' });
    expect(all.statusCode, all.body).toBe(200);
    const byId = Object.fromEntries(all.json().results.map((result: { id: string }) => [result.id, result]));
    expect(byId[good.id]).toEqual({
      id: good.id,
      url: receiver.url,
      event_type: 'movement.new',
      created_at: TEST_NOW,
      success: true,
      status: 200,
      error: null,
      duration_ms: expect.any(Number),
    });
    expect(byId[bad.id]).toMatchObject({ success: false, status: null, error: 'ECONNREFUSED' });
    const delivered = receiver.received.at(-1)!;
    expect(
      verifySignature(
        delivered.headers['mrrlytics-signature'] as string,
        delivered.body,
        good.secret,
        NOW_SECONDS,
      ),
    ).toBe(true);
    expect(JSON.parse(delivered.body)).toMatchObject({
      type: 'movement.new',
      test: true,
      created_at: TEST_NOW,
    });

    const one = await t.call(own.adminKey, { method: 'GET', url: `/integrations/verify?id=${good.id}` });
    expect(one.json().results.map((result: { id: string }) => result.id)).toEqual([good.id]);
    const posted = await t.call(own.adminKey, {
      method: 'POST',
      url: '/integrations/verify',
      payload: { id: good.id },
    });
    expect(posted.json().results.map((result: { id: string }) => result.id)).toEqual([good.id]);
  });

  it('lists no dead jobs while no runner ever ran', async () => {
    expect(await t.read(account.adminKey, '/jobs/dead')).toEqual({ jobs: [] });
  });
});

/** A revenue event of the account: customer c1 churned 49.00 of MRR. */
function churnOf(accountId: string, key = 'churn:c1:2026-11-20'): RevenueEvent {
  return {
    key,
    kind: 'churn',
    accountId,
    customer: { id: 'c1', name: 'Customer One', email: null },
    occurredAt: '2026-11-20',
    amount: -4900,
    mrr: 0,
    currency: 'usd',
  };
}

async function until(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(STORE_KINDS)('webhook deliveries on %s', (kind) => {
  let t: TestApp;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    // Retries at once (delay 0), up to 4 of them: five attempts in all.
    t = await createTestApp(
      kind,
      {},
      { ...LOCAL_RECEIVERS, webhooks: { retry: { limit: 4, delaySeconds: 0 }, timeoutMs: 2000 } },
      { jobs: { pollingIntervalSeconds: 0.5, onError: () => {} } },
    );
  });
  afterAll(() => t.close());
  afterEach(async () => {
    for (const receiver of receivers.splice(0)) await receiver.close();
  });

  async function subscribed(statusOf: (n: number) => number, eventType = 'movement.churn') {
    const receiver = await startReceiver(statusOf);
    receivers.push(receiver);
    const account = await t.newAccount();
    const response = await t.call(account.adminKey, {
      method: 'POST',
      url: '/integrations/webhooks',
      payload: { url: receiver.url, event_type: eventType },
    });
    return { receiver, account, webhook: response.json() };
  }

  it('retries a receiver that fails three times: one accepted delivery, four attempts logged', async () => {
    const { receiver, account, webhook } = await subscribed((n) => (n <= 3 ? 500 : 200));
    await t.services.webhooks.publish([churnOf(account.id)]);
    await until(() => receiver.accepted().length === 1);
    expect(receiver.received.map((r) => r.status)).toEqual([500, 500, 500, 200]);
    // The same body each time, signed with the webhook's secret.
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    for (const request of receiver.received)
      expect(
        verifySignature(
          request.headers['mrrlytics-signature'] as string,
          request.body,
          webhook.secret,
          NOW_SECONDS,
        ),
      ).toBe(true);
    const [body] = receiver.accepted();
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'movement.churn',
      created_at: TEST_NOW,
      data: {
        customer: { id: 'c1', name: 'Customer One', email: null },
        occurred_at: '2026-11-20',
        amount: -4900,
        mrr: 0,
        currency: 'usd',
      },
    });

    await until(
      async () =>
        (await t.read(account.adminKey, `/integrations/webhooks/${webhook.id}`)).deliveries[0]?.status ===
        'delivered',
    );
    const shown = await t.read(account.viewerKey, `/integrations/webhooks/${webhook.id}`);
    expect(shown.deliveries).toEqual([
      {
        id: body!.id,
        event_key: 'churn:c1:2026-11-20',
        event_type: 'movement.churn',
        status: 'delivered',
        attempts: 4,
        last_status: 200,
        last_response: 'ok',
        last_error: null,
        last_attempt_at: TEST_NOW,
        next_attempt_at: null,
        created_at: TEST_NOW,
      },
    ]);
    const ref = { accountId: account.id, webhookId: webhook.id, deliveryId: body!.id };
    expect(await t.services.store.webhooks.attempts(ref)).toEqual([
      { attempt: 1, status: 500, error: 'HTTP 500' },
      { attempt: 2, status: 500, error: 'HTTP 500' },
      { attempt: 3, status: 500, error: 'HTTP 500' },
      { attempt: 4, status: 200, error: null },
    ]);
  });

  it('delivers an event published twice once, and only to webhooks of its type', async () => {
    const { receiver, account } = await subscribed(() => 200);
    const other = await startReceiver();
    receivers.push(other);
    await t.call(account.adminKey, {
      method: 'POST',
      url: '/integrations/webhooks',
      payload: { url: other.url, event_type: 'movement.new' },
    });
    await t.services.webhooks.publish([churnOf(account.id)]);
    await t.services.webhooks.publish([churnOf(account.id)]);
    await until(() => receiver.accepted().length === 1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received).toHaveLength(1);
    expect(other.received).toEqual([]);
  });

  it('gives up after the last retry: the delivery is dead, and so is its job', async () => {
    const { receiver, account, webhook } = await subscribed(() => 503);
    await t.services.webhooks.publish([churnOf(account.id, 'churn:c1:dead')]);
    await until(async () => (await t.read(account.adminKey, '/jobs/dead')).jobs.length === 1);
    // limit 4: the first attempt and four retries.
    expect(receiver.received).toHaveLength(5);
    const [delivery] = (await t.read(account.adminKey, `/integrations/webhooks/${webhook.id}`)).deliveries;
    expect(delivery).toMatchObject({
      status: 'dead',
      attempts: 5,
      last_status: 503,
      last_response: 'refused 503',
      last_error: 'HTTP 503',
      next_attempt_at: null,
    });
    const [job] = (await t.read(account.adminKey, '/jobs/dead')).jobs;
    expect(job).toMatchObject({
      queue: 'webhook-delivery',
      attempts: 5,
      error: `Delivery to ${receiver.url} failed: HTTP 503`,
      payload: { accountId: account.id, webhookId: webhook.id, eventKey: 'churn:c1:dead' },
    });
    // Another account sees none of it.
    const other = await t.newAccount();
    expect(await t.read(other.adminKey, '/jobs/dead')).toEqual({ jobs: [] });
  });

  it('drops the queued deliveries of a deleted webhook', async () => {
    const { receiver, account, webhook } = await subscribed(() => 500);
    await t.services.webhooks.publish([churnOf(account.id, 'churn:c1:deleted')]);
    await until(() => receiver.received.length >= 1);
    await t.call(account.adminKey, { method: 'DELETE', url: `/integrations/webhooks/${webhook.id}` });
    const seen = receiver.received.length;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    // At most the attempt that was under way when it was deleted.
    expect(receiver.received.length).toBeLessThanOrEqual(seen + 1);
    expect(await t.read(account.adminKey, '/jobs/dead')).toEqual({ jobs: [] });
  });
});
