import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/services/clock.js';
import { createServices, type Services } from '../../src/services/index.js';
import { openTestStore, type TestStore } from '../helpers/stores.js';

const clock = fixedClock('2026-11-23T12:00:00.000Z');
const IDLE_MS = 200;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('snapshots no report reads', () => {
  let testStore: TestStore;
  let services: Services;

  beforeAll(async () => {
    testStore = await openTestStore('pglite');
    services = createServices(testStore.store, clock, { metrics: { idleMs: IDLE_MS } });
  });
  afterAll(async () => {
    await services.metrics.stop();
    await testStore.dispose();
  });

  async function accountWithCustomer(name: string): Promise<string> {
    const accountId = (await services.accounts.create({ name })).account.id;
    await services.customers.upsert(accountId, [{ id: 'a', name: 'A', created_date: '2026-01-01' }]);
    return accountId;
  }

  it('are dropped with their cashflow table once idle, and read whole by the next report', async () => {
    const accountId = await accountWithCustomer('Idle');
    const first = await services.metrics.snapshot(accountId);
    await services.cashflowTables(accountId, first);
    expect(await services.metrics.snapshot(accountId)).toBe(first);
    expect(services.cashflowTables.holds(accountId, first.version)).toBe(true);

    const deadline = Date.now() + 10_000;
    while (services.cashflowTables.holds(accountId, first.version)) {
      if (Date.now() > deadline) throw new Error('never dropped');
      await pause(20);
    }
    const again = await services.metrics.snapshot(accountId);
    expect(again).not.toBe(first);
    expect(again.version).toBe(first.version);
    expect(again.customers).toEqual(first.customers);
  });

  it('are kept while reports read them', async () => {
    const accountId = await accountWithCustomer('Read');
    const first = await services.metrics.snapshot(accountId);
    // Three times the idle time, read more often than that.
    for (let elapsed = 0; elapsed < 3 * IDLE_MS; elapsed += IDLE_MS / 4) {
      await pause(IDLE_MS / 4);
      expect(await services.metrics.snapshot(accountId)).toBe(first);
    }
  });
});
