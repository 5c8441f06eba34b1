import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JobOptions, JobPayload, JobSender } from '../../src/jobs/job-queue.js';
import { createMailer } from '../../src/services/mailer.js';
import { createNotificationsService } from '../../src/services/notifications-service.js';
import { createTestApp, reportFixtureAccount, type TestApp } from '../helpers/app.js';

interface Sent {
  queue: string;
  payload: JobPayload;
  options: JobOptions | undefined;
}

// The jobs of the runner carry the data version of the write that sent them. Here the writes
// send none, and the notifications service's own sends are recorded, not run, so the test
// alone decides which job runs and when.
describe('detection jobs while writes go on', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('a job whose version was overtaken sends the newest version’s job for 30 s after the last detection', async () => {
    t.clock.set('2026-11-23T12:00:00.000Z');
    const { account, post } = await reportFixtureAccount(t, 'Date,USD\n2024-01-01,1.25\n');
    const sent: Sent[] = [];
    const jobs: JobSender = {
      send: async (queue, payload, options) => {
        sent.push({ queue, payload, options });
      },
    };
    const { store, clock, metrics, fx, reports, settings } = t.services;
    const notifications = createNotificationsService({
      store,
      clock,
      metrics,
      fx,
      reports,
      settings,
      mailer: createMailer(undefined),
      jobs,
    });
    const version = () => store.changes.dataVersion(account.id);
    const detected = () => store.notifications.detectedVersion(account.id);
    const write = (id: string) => post('/data/customers', [{ id, name: id, currency: 'usd' }]);

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = Date.now();
      await write('a');
      const first = await version();
      // Never detected in this process: the job runs though a later write came.
      await write('b');
      await notifications.afterDataChange(account.id, first);
      const afterFirst = await detected();
      expect(afterFirst).toBe(await version());

      await write('c');
      const overtaken = await version();
      await write('d');
      const newest = await version();
      vi.setSystemTime(start + 10_000);
      await notifications.afterDataChange(account.id, overtaken);
      expect(await detected()).toBe(afterFirst);
      expect(sent.filter((job) => job.queue === 'notify-detect')).toEqual([
        {
          queue: 'notify-detect',
          payload: { accountId: account.id, version: newest },
          options: { key: `detect:${account.id}:${newest}`, startAfter: new Date(start + 30_000) },
        },
      ]);

      // The newest version's job runs: nothing overtook it.
      await notifications.afterDataChange(account.id, newest);
      expect(await detected()).toBe(newest);

      // Writes that never pause: 30 s after the last detection an overtaken job runs.
      await write('e');
      const streaming = await version();
      await write('f');
      vi.setSystemTime(start + 10_000 + 30_000);
      await notifications.afterDataChange(account.id, streaming);
      expect(await detected()).toBe(await version());
    } finally {
      vi.useRealTimers();
    }
  });
});
