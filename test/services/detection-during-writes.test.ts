import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, reportFixtureAccount, type TestApp } from '../helpers/app.js';

// Jobs of the runner carry the data version of the write that queued them; the writes here ask
// for no detection, so the test alone decides which job runs.
describe('detection jobs while writes go on', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('a job whose version was overtaken leaves detection to the later job, unless none ran for 30 s', async () => {
    t.clock.set('2026-11-23T12:00:00.000Z');
    const { account, post } = await reportFixtureAccount(t, 'Date,USD\n2024-01-01,1.25\n');
    const { store, notifications } = t.services;
    const version = () => store.changes.dataVersion(account.id);
    const detected = () => store.notifications.detectedVersion(account.id);
    const write = (id: string) => post('/data/customers', [{ id, name: id, currency: 'usd' }]);

    await write('a');
    const first = await version();
    // Never detected in this process: the job runs though a later write is coming.
    await write('b');
    await notifications.afterDataChange(account.id, first);
    const afterFirst = await detected();
    expect(afterFirst).toBe(await version());

    await write('c');
    const overtaken = await version();
    await write('d');
    await notifications.afterDataChange(account.id, overtaken);
    expect(await detected()).toBe(afterFirst);

    // The last write's job runs: nothing overtook it.
    await notifications.afterDataChange(account.id, await version());
    const caughtUp = await detected();
    expect(caughtUp).toBe(await version());

    // Writes that never pause: once 30 s passed since the last detection, an overtaken job runs.
    await write('e');
    const streaming = await version();
    await write('f');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 29_000);
      await notifications.afterDataChange(account.id, streaming);
      expect(await detected()).toBe(caughtUp);
      vi.setSystemTime(Date.now() + 2_000);
      await notifications.afterDataChange(account.id, streaming);
      expect(await detected()).toBe(await version());
    } finally {
      vi.useRealTimers();
    }
  });
});
