import { describe, expect, it } from 'vitest';
import type { NotificationsService } from '../services/notifications-service.js';
import { notificationJobs } from './notification-jobs.js';

/** A stand-in service that records which entry point each job called, with what. */
function recordingService() {
  const calls: unknown[][] = [];
  const record =
    (name: string) =>
    async (...args: unknown[]) => {
      calls.push([name, ...args]);
    };
  const service = {
    afterDataChange: record('afterDataChange'),
    detectChanged: record('detectChanged'),
    deliverChat: record('deliverChat'),
    sendDigest: record('sendDigest'),
    sendDueDigests: record('sendDueDigests'),
    evaluateAllAlerts: record('evaluateAllAlerts'),
  } as unknown as NotificationsService;
  return { calls, service };
}

describe('notificationJobs', () => {
  const { calls, service } = recordingService();
  const jobs = new Map(notificationJobs(service).map((job) => [job.queue, job]));

  it('defines the four queues, the sweeps on cron, deliveries retried for about an hour', () => {
    expect([...jobs.values()].map((job) => [job.queue, job.cron ?? null, job.retry])).toEqual([
      ['notify-detect', '*/5 * * * *', { limit: 3, delaySeconds: 30 }],
      // 60 s doubling six times: 1 + 2 + 4 + 8 + 16 + 32 = 63 minutes of retries.
      ['notify-chat', null, { limit: 6, delaySeconds: 60 }],
      ['notify-digest', '0 * * * *', { limit: 6, delaySeconds: 60 }],
      ['notify-alerts', '30 * * * *', { limit: 3, delaySeconds: 30 }],
    ]);
  });

  it('runs one account for a payload naming it, and the sweep for the cron payload {}', async () => {
    calls.length = 0;
    await jobs.get('notify-detect')!.run({ accountId: 'a1', version: 7 });
    await jobs.get('notify-detect')!.run({});
    await jobs.get('notify-digest')!.run({ accountId: 'a1', frequency: 'weekly', from: '2026-11-16' });
    await jobs.get('notify-digest')!.run({});
    await jobs.get('notify-alerts')!.run({});
    await jobs.get('notify-chat')!.run({ accountId: 'a1', system: 'teams', text: 'hi' });
    expect(calls).toEqual([
      ['afterDataChange', 'a1', 7],
      ['detectChanged'],
      ['sendDigest', { accountId: 'a1', frequency: 'weekly', from: '2026-11-16' }],
      ['sendDueDigests'],
      ['evaluateAllAlerts'],
      ['deliverChat', { accountId: 'a1', system: 'teams', text: 'hi' }],
    ]);
  });
});
