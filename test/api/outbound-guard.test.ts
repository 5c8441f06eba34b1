import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FinalJobError } from '../../src/jobs/job-queue.js';
import { createTestApp, TEST_NOW, type TestAccount, type TestApp } from '../helpers/app.js';
import { httpReceiver } from '../helpers/receivers.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

const LOOPBACK_BY_NAME =
  /^localhost resolves to (127\.0\.0\.1|::1), a loopback address, which the server does not call$/;

async function until(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// The guard is the same whatever the store, so one store runs these.
describe('the outbound guard, with private targets not allowed (the default)', () => {
  let t: TestApp;
  let account: TestAccount;
  let receiver: Receiver;
  const jobErrors: unknown[] = [];

  beforeAll(async () => {
    t = await createTestApp(
      'pglite',
      {},
      { webhooks: { retry: { limit: 3, delaySeconds: 0 }, timeoutMs: 2000 } },
      { jobs: { pollingIntervalSeconds: 0.5, onError: (error) => jobErrors.push(error) } },
    );
    account = await t.newAccount();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const port = () => new URL(receiver.url).port;

  it.each([
    ['https://127.0.0.1/x', '127.0.0.1 is a loopback address'],
    ['http://localhost:8080/x', 'localhost is a loopback address'],
    ['https://2130706433/x', '127.0.0.1 is a loopback address'],
    ['https://0x7f.1/x', '127.0.0.1 is a loopback address'],
    ['https://[::1]/x', '[::1] is a loopback address'],
    ['https://[::ffff:127.0.0.1]/x', '[::ffff:7f00:1] is a loopback address'],
    ['https://10.1.2.3/x', '10.1.2.3 is a private (RFC 1918) address'],
    ['https://192.168.0.10/x', '192.168.0.10 is a private (RFC 1918) address'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address'],
    ['https://[fd00::1]/x', '[fd00::1] is a unique-local IPv6 address'],
    ['https://0.0.0.0/x', '0.0.0.0 is an unspecified address'],
  ])('refuses a webhook to %s with a 400', async (url, reason) => {
    const response = await t.call(account.adminKey, {
      method: 'POST',
      url: '/integrations/webhooks',
      payload: { url, event_type: 'movement.new' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: `Invalid body field "url": ${reason}, which the server does not call`,
    });
  });

  it('accepts a webhook to a public name, and to a public address', async () => {
    for (const url of ['https://hooks.example.com/g', 'https://93.184.215.14/g']) {
      const response = await t.call(account.adminKey, {
        method: 'POST',
        url: '/integrations/webhooks',
        payload: { url, event_type: 'movement.new' },
      });
      expect(response.statusCode, response.body).toBe(201);
    }
  });

  it('kills at the first attempt a delivery to a saved name that resolves to loopback: logged, no retry', async () => {
    // Saved before the guard existed (or while the name resolved elsewhere).
    const own = await t.newAccount('Rebound');
    const saved = await t.services.store.webhooks.insert(own.id, {
      id: '6f1c0000-0000-4000-8000-000000000001',
      url: `http://localhost:${port()}/hook`,
      eventType: 'movement.churn',
      secret: 'whsec_test',
      createdAt: TEST_NOW,
    });
    expect('inserted' in saved).toBe(true);
    await t.services.webhooks.publish([
      {
        key: 'churn:c1:2026-11-20',
        kind: 'churn',
        accountId: own.id,
        customer: { id: 'c1', name: 'Customer One', email: null },
        occurredAt: '2026-11-20',
        amount: -4900,
        mrr: 0,
        currency: 'usd',
      },
    ]);
    const shown = () => t.read(own.adminKey, '/integrations/webhooks/6f1c0000-0000-4000-8000-000000000001');
    await until(async () => (await shown()).deliveries[0]?.status === 'dead');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const [delivery] = (await shown()).deliveries;
    expect(delivery).toMatchObject({ status: 'dead', attempts: 1, last_status: null, next_attempt_at: null });
    expect(delivery.last_error).toMatch(LOOPBACK_BY_NAME);
    expect(receiver.received).toEqual([]);
    const refusal = jobErrors.find((error) => error instanceof FinalJobError) as FinalJobError;
    expect(refusal.message).toMatch(
      /^Delivery to http:\/\/localhost:\d+\/hook refused: localhost resolves to/,
    );
    // Ended, not retried: it is no dead job either.
    expect(await t.read(own.adminKey, '/jobs/dead')).toEqual({ jobs: [] });
  });

  it('reports a refused address on a test delivery, sending nothing', async () => {
    const own = await t.newAccount('Verifier');
    await t.services.store.webhooks.insert(own.id, {
      id: '6f1c0000-0000-4000-8000-000000000002',
      url: receiver.url,
      eventType: 'movement.new',
      secret: 'whsec_test',
      createdAt: TEST_NOW,
    });
    const verify = await t.call(own.adminKey, { method: 'POST', url: '/integrations/verify' });
    expect(verify.json().results).toMatchObject([
      {
        success: false,
        status: null,
        error: '127.0.0.1 is a loopback address, which the server does not call',
      },
    ]);
    expect(receiver.received).toEqual([]);
  });

  it('refuses chat webhook URLs to private addresses with a 400, and keeps the settings', async () => {
    const put = await t.call(account.adminKey, {
      method: 'PUT',
      url: '/settings/notifications',
      payload: { chat: { enabled: true, slack_webhook_url: 'https://192.168.1.10/hook' } },
    });
    expect(put.statusCode).toBe(400);
    expect(put.json()).toEqual({
      error:
        'Invalid body field "chat.slack_webhook_url": 192.168.1.10 is a private (RFC 1918) address, which the server does not call',
    });
    const teams = await t.call(account.adminKey, {
      method: 'POST',
      url: '/settings/teams',
      payload: { webhook_url: 'http://localhost/x' },
    });
    expect(teams.statusCode).toBe(400);
    expect(teams.json()).toEqual({
      error:
        'Invalid body field "chat.teams_webhook_url": localhost is a loopback address, which the server does not call',
    });
    expect((await t.services.settings.notifications(account.id)).chat).toMatchObject({
      enabled: false,
      slack_webhook_url: '',
      teams_webhook_url: '',
    });
  });

  it('refuses to post a chat message to a saved URL whose name resolves to loopback, for good', async () => {
    const chat = await httpReceiver();
    try {
      const own = await t.newAccount('Chat');
      // Saved before the guard existed: written to the store as it was then (its row made first).
      await t.services.store.settings.notifications(own.id);
      await t.services.store.settings.saveNotifications(own.id, {
        chat: { enabled: true, slack_webhook_url: `http://localhost:${new URL(chat.url).port}/slack` },
      });
      const sent = t.services.notifications.deliverChat({ accountId: own.id, system: 'slack', text: 'Hi' });
      await expect(sent).rejects.toThrow(FinalJobError);
      await expect(sent).rejects.toThrow(/^slack webhook refused: localhost resolves to/);
      expect(chat.posts).toEqual([]);
    } finally {
      await chat.close();
    }
  });
});

describe('the outbound guard on spreadsheet sheets', () => {
  let t: TestApp;
  let account: TestAccount;
  let server: Server;
  let source: string;
  let requests = 0;

  beforeAll(async () => {
    server = createServer((_request, response) => {
      requests += 1;
      response.writeHead(200, { 'content-type': 'text/csv' }).end('id,name\nc1,Ann\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // The operator's base address is a private one, but private targets are not allowed.
    t = await createTestApp('pglite', {}, { spreadsheets: { baseUrl: `http://127.0.0.1:${port}/sheets/` } });
    account = await t.newAccount();
    source = (
      await t.seed(account.adminKey, '/data/data-sources', { name: 'Sheet', type: 'spreadsheet' })
    ).json().id;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('refuses a sheet at a private address with a 400, and a saved one at sync time', async () => {
    const { port } = server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/sheets/customers.csv`;
    const put = await t.call(account.adminKey, {
      method: 'PUT',
      url: `/data/data-sources/${source}/sheets`,
      payload: { customers: url },
    });
    expect(put.statusCode).toBe(400);
    expect(put.json()).toEqual({
      error: "The customers sheet's address 127.0.0.1 is a loopback address, which the server does not call",
    });

    await t.services.store.spreadsheetSheets.set(account.id, source, 'customers', url);
    await t.services.spreadsheets.sync(account.id, source);
    await t.services.spreadsheets.settled(account.id, source);
    const [sheet] = await t.services.spreadsheets.sheets(account.id, source);
    expect(sheet).toMatchObject({
      kind: 'customers',
      last_upload: null,
      last_error: '127.0.0.1 is a loopback address, which the server does not call',
    });
    expect(requests).toBe(0);
  });
});
