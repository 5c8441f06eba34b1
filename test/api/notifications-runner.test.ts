import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, LOCAL_RECEIVERS, reportFixtureAccount, type TestApp } from '../helpers/app.js';
import { httpReceiver } from '../helpers/receivers.js';
import { STORE_KINDS } from '../helpers/stores.js';

/**
 * The whole path on the job runner the server runs: a write queues detection, detection queues
 * a chat message and a webhook delivery, and each job reaches its local receiver once.
 */
describe.each(STORE_KINDS)('revenue events through the job runner on %s', (kind) => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof httpReceiver>>;

  beforeAll(async () => {
    receiver = await httpReceiver();
    t = await createTestApp(
      kind,
      {},
      { ...LOCAL_RECEIVERS, webhooks: { retry: { limit: 2, delaySeconds: 0 }, timeoutMs: 2000 } },
      { jobs: { pollingIntervalSeconds: 0.5, onError: () => {} }, detect: true },
    );
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const postsTo = (path: string) => receiver.posts.filter((post) => post.path === path);

  it('tells nothing of imported history, then a churn once by chat and once by webhook', async () => {
    t.clock.set('2026-11-23T12:00:00.000Z');
    const { account, post } = await reportFixtureAccount(t, 'Date,USD\n2024-01-01,1.25\n');
    const admin = (method: 'PUT' | 'POST', url: string, payload: object) =>
      t.call(account.adminKey, { method, url, payload });
    expect(
      (
        await admin('PUT', '/settings/notifications', {
          chat: { enabled: true, events: ['churn'], slack_webhook_url: `${receiver.url}/slack` },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await admin('POST', '/integrations/webhooks', {
          url: `${receiver.url}/hook`,
          event_type: 'movement.churn',
        })
      ).statusCode,
    ).toBe(201);

    // History: one customer paying since 2025, one that churned on Nov 10, recent enough to be
    // recorded (as history, not told).
    await post('/data/customers', [
      { id: 'stays', name: 'Stays', currency: 'usd', created_date: '2025-01-01' },
      { id: 'gone', name: 'Gone', currency: 'usd', created_date: '2025-01-01' },
    ]);
    await post('/data/subscriptions', [
      {
        id: 's1',
        customer_id: 'stays',
        plan_id: 'basic',
        status: 'active',
        started_at: '2025-01-01',
        mrr: 4000,
      },
      {
        id: 's2',
        customer_id: 'gone',
        plan_id: 'basic',
        status: 'canceled',
        started_at: '2025-01-01',
        ended_at: '2026-11-10',
        mrr: 2500,
      },
    ]);
    // The detection job has run when it has recorded the history's events.
    await expect
      .poll(async () => (await t.services.notifications.recordedEvents(account.id)).length, {
        timeout: 20_000,
      })
      .toBeGreaterThan(0);
    expect(receiver.posts).toEqual([]);

    // A day later "Stays" (MRR 40.00) cancels.
    t.clock.set('2026-11-24T12:00:00.000Z');
    const cancel = await t.call(account.adminKey, {
      method: 'PUT',
      url: '/data/subscriptions/s1',
      payload: { status: 'canceled', ended_at: '2026-11-24' },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);

    await expect.poll(() => postsTo('/slack').length + postsTo('/hook').length, { timeout: 20_000 }).toBe(2);
    const text = 'Churn: Stays, -$40.00 (MRR now $0.00) on 2026-11-24';
    expect(postsTo('/slack').map((post) => post.body.text)).toEqual([text]);
    expect(postsTo('/hook')[0]!.body).toMatchObject({
      type: 'movement.churn',
      data: { amount: -4000, mrr: 0, currency: 'usd', customer: { name: 'Stays' } },
    });
    // Another write queues another detection, which finds nothing new to tell.
    await post('/data/customers', [
      { id: 'later', name: 'Later', currency: 'usd', created_date: '2026-11-24' },
    ]);
    await expect
      .poll(async () => (await t.services.notifications.recordedEvents(account.id)).length, {
        timeout: 20_000,
      })
      .toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(receiver.posts).toHaveLength(2);
  });
});
