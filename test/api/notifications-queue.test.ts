import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobPayload, JobSender } from '../../src/jobs/job-queue.js';
import type { ChatJob } from '../../src/services/notifications-service.js';
import { createTestApp, LOCAL_RECEIVERS, reportFixtureAccount, type TestApp } from '../helpers/app.js';
import { httpReceiver, smtpInbox } from '../helpers/receivers.js';
import { STORE_KINDS } from '../helpers/stores.js';
import { setUpOwner } from '../helpers/web-session.js';

/**
 * A stand-in job queue that keeps what is sent to it, and fails the next send to one queue when
 * asked. It does not drop a keyed job sent twice, as pg-boss does for a while: what is not sent
 * twice here is kept from it by the service's own claims.
 */
function standInQueue() {
  const sent: { queue: string; payload: JobPayload }[] = [];
  const state: { failNext?: string } = {};
  const sender: JobSender = {
    async send(queue, payload) {
      if (state.failNext === queue) {
        delete state.failNext;
        throw new Error(`The ${queue} queue is unavailable`);
      }
      sent.push({ queue, payload });
    },
  };
  return { sent, state, sender, of: (queue: string) => sent.filter((job) => job.queue === queue) };
}

describe.each(STORE_KINDS)('notifications through a stand-in job queue on %s', (kind) => {
  let t: TestApp;
  let inbox: Awaited<ReturnType<typeof smtpInbox>>;
  let chat: Awaited<ReturnType<typeof httpReceiver>>;
  const queue = standInQueue();

  beforeAll(async () => {
    inbox = await smtpInbox();
    chat = await httpReceiver();
    t = await createTestApp(kind, {}, { ...LOCAL_RECEIVERS, smtp: inbox.smtp, jobs: queue.sender });
  });
  afterAll(async () => {
    await t.close();
    await inbox.close();
    await chat.close();
  });

  const settings = (adminKey: string, payload: object) =>
    t.call(adminKey, { method: 'PUT', url: '/settings/notifications', payload });

  it("queues each account's daily digest at 08:00 of its owner's time zone, UTC without a valid one", async () => {
    t.clock.set('2026-11-23T12:00:00.000Z');
    const names = new Map<string, string>();
    for (const [name, zone] of [
      ['Tokyo', 'Asia/Tokyo'],
      ['Los Angeles', 'America/Los_Angeles'],
      ['Nowhere', 'Mars/Olympus'],
    ] as const) {
      const account = await t.newAccount(name);
      names.set(account.id, name);
      await setUpOwner(t, account.id, `owner@${name.replace(' ', '-').toLowerCase()}.example`);
      if (zone === 'Mars/Olympus') {
        // No route stores a zone Intl does not know; one a newer Node knew and this one does not is
        // the same case.
        const owner = (await t.store.team.owner(account.id))!;
        await t.store.team.updateProfile(account.id, owner, { name: 'Olive Owner', time_zone: zone });
      } else {
        const profile = await t.call(account.adminKey, {
          method: 'PUT',
          url: '/profile',
          payload: { timezone: zone },
        });
        expect(profile.statusCode, profile.body).toBe(200);
      }
      const response = await settings(account.adminKey, {
        email: {
          enabled: true,
          recipients: [`cfo@${name.replace(' ', '-').toLowerCase()}.example`],
          frequency: 'daily',
        },
      });
      expect(response.statusCode, response.body).toBe(200);
    }

    const sweep = async (iso: string) => {
      t.clock.set(iso);
      const before = queue.of('notify-digest').length;
      await t.services.notifications.sendDueDigests();
      return queue
        .of('notify-digest')
        .slice(before)
        .filter((job) => names.has(job.payload.accountId as string))
        .map((job) => [names.get(job.payload.accountId as string), job.payload.from]);
    };
    // The digest of Sunday Nov 22 was due everywhere by Monday; Monday Nov 23's turns due at 08:00
    // local: 23:00 UTC in Tokyo (UTC+9), 08:00 UTC for UTC, 16:00 UTC in Los Angeles (UTC-8).
    expect(await sweep('2026-11-23T22:59:00.000Z')).toEqual([
      ['Tokyo', '2026-11-22'],
      ['Los Angeles', '2026-11-22'],
      ['Nowhere', '2026-11-22'],
    ]);
    expect(await sweep('2026-11-23T23:00:00.000Z')).toEqual([
      ['Tokyo', '2026-11-23'],
      ['Los Angeles', '2026-11-22'],
      ['Nowhere', '2026-11-22'],
    ]);
    expect(await sweep('2026-11-24T07:59:00.000Z')).toEqual([
      ['Tokyo', '2026-11-23'],
      ['Los Angeles', '2026-11-22'],
      ['Nowhere', '2026-11-22'],
    ]);
    expect(await sweep('2026-11-24T08:00:00.000Z')).toEqual([
      ['Tokyo', '2026-11-23'],
      ['Los Angeles', '2026-11-22'],
      ['Nowhere', '2026-11-23'],
    ]);
    expect(await sweep('2026-11-24T15:59:00.000Z')).toEqual([
      ['Tokyo', '2026-11-23'],
      ['Los Angeles', '2026-11-22'],
      ['Nowhere', '2026-11-23'],
    ]);
    expect(await sweep('2026-11-24T16:00:00.000Z')).toEqual([
      ['Tokyo', '2026-11-23'],
      ['Los Angeles', '2026-11-23'],
      ['Nowhere', '2026-11-23'],
    ]);
  });

  it('mails an alert once when queueing one chat message fails, and the retry queues only that one', async () => {
    t.clock.set('2026-11-23T12:00:00.000Z');
    const { account, post } = await reportFixtureAccount(t, 'Date,USD\n2024-01-01,1.25\n');
    const response = await settings(account.adminKey, {
      email: { enabled: true, recipients: ['alert@retry.example'], frequency: 'daily' },
      chat: {
        enabled: true,
        events: [],
        slack_webhook_url: `${chat.url}/retry-slack`,
        teams_webhook_url: `${chat.url}/retry-teams`,
      },
      alerts: { churn_threshold: 5000, mrr_drop_threshold: 0 },
    });
    expect(response.statusCode, response.body).toBe(200);
    await post('/data/customers', [{ id: 'g', name: 'Golf', currency: 'usd', created_date: '2024-11-01' }]);
    await post('/data/subscriptions', [
      {
        id: 'g1',
        customer_id: 'g',
        plan_id: 'basic',
        status: 'active',
        started_at: '2026-10-01',
        mrr: 10_000,
      },
    ]);
    expect(await t.services.notifications.evaluateAlerts(account.id)).toEqual([]);

    // Nov 24: Golf churns 100.00, above 50.00.
    t.clock.set('2026-11-24T12:00:00.000Z');
    const cancel = await t.call(account.adminKey, {
      method: 'PUT',
      url: '/data/subscriptions/g1',
      payload: { status: 'canceled', ended_at: '2026-11-24' },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const text = 'Churn alert: $100.00 of MRR churned on 2026-11-24, above the threshold of $50.00';
    const mails = () => inbox.messages.filter((mail) => mail.to.includes('alert@retry.example'));
    const chatJobs = () => queue.of('notify-chat').filter((job) => job.payload.accountId === account.id);

    // Slack's message cannot be queued; the email and Teams' message go all the same.
    queue.state.failNext = 'notify-chat';
    await expect(t.services.notifications.evaluateAlerts(account.id)).rejects.toThrow(
      'The notify-chat queue is unavailable',
    );
    expect(mails().map((mail) => mail.text)).toEqual([`${text}\n`]);
    expect(chatJobs().map((job) => job.payload)).toEqual([{ accountId: account.id, system: 'teams', text }]);

    // The job's retry: the email and Teams' message were sent, so only Slack's goes.
    expect(await t.services.notifications.evaluateAlerts(account.id)).toEqual([
      { kind: 'churn', date: '2026-11-24', value: 10_000, threshold: 5000 },
    ]);
    expect(mails()).toHaveLength(1);
    expect(chatJobs().map((job) => job.payload)).toEqual([
      { accountId: account.id, system: 'teams', text },
      { accountId: account.id, system: 'slack', text },
    ]);
    for (const job of chatJobs()) await t.services.notifications.deliverChat(job.payload as ChatJob);
    const posted = (path: string) => chat.posts.filter((p) => p.path === path).map((p) => p.body.text);
    expect([posted('/retry-slack'), posted('/retry-teams')]).toEqual([[text], [text]]);

    // Judged again: every channel was sent.
    expect(await t.services.notifications.evaluateAlerts(account.id)).toEqual([]);
    expect(mails()).toHaveLength(1);
    expect(chatJobs()).toHaveLength(2);
  });
});
