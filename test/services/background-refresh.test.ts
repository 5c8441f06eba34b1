import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the refresh after writes', () => {
  let t: TestApp;
  afterEach(() => t.close());

  async function accountWithWrites(pause: { quietMs: number; atMostMs: number }) {
    t = await createTestApp('pglite', {}, { metrics: { refreshPause: pause } });
    const account = await t.newAccount('pause');
    let n = 0;
    const write = () =>
      t.seed(account.adminKey, '/data/customers', [
        { id: `c${++n}`, name: `C${n}`, created_date: '2026-11-01' },
      ]);
    return { account, write };
  }

  it('waits for the writes to pause: a customer just written is still to derive', async () => {
    const { account, write } = await accountWithWrites({ quietMs: 60_000, atMostMs: 60_000 });
    await write();
    await sleep(300);
    expect(await t.services.metrics.refresh(account.id)).toBe(1);
  });

  it('starts within its bound while writes go on without a pause', async () => {
    const { account, write } = await accountWithWrites({ quietMs: 60_000, atMostMs: 300 });
    const version = await t.store.changes.dataVersion(account.id);
    const started = Date.now();
    // A write every 50 ms would postpone a refresh waiting only for a pause forever.
    while ((await t.store.metrics.derivedSince(account.id, version, 1)).length === 0) {
      expect(Date.now() - started).toBeLessThan(20_000);
      await write();
      await sleep(50);
    }
  });

  it('starts what was asked for when the tests settle it', async () => {
    const { account, write } = await accountWithWrites({ quietMs: 60_000, atMostMs: 60_000 });
    await write();
    await t.services.metrics.settled();
    expect(await t.services.metrics.refresh(account.id)).toBe(0);
  });
});
