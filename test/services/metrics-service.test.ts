import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mrrOn } from '../../src/engine/account-snapshot.js';
import { dayNumber as d, dayString } from '../../src/engine/days.js';
import { systemClock } from '../../src/services/clock.js';
import { createServices, type Services } from '../../src/services/index.js';
import type { Store } from '../../src/store/open-store.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../helpers/stores.js';

describe.each(STORE_KINDS)('metrics service on %s', (kind) => {
  let testStore: TestStore;
  let services: Services;
  let accountId: string;

  beforeAll(async () => {
    testStore = await openTestStore(kind);
    services = createServices(testStore.store, systemClock);
    accountId = (await services.accounts.create({ name: 'Metrics' })).account.id;
    await services.plans.import(accountId, [
      { id: 'basic', name: 'Basic', billing_freq: 'month', currency: 'usd' },
      { id: 'annual', name: 'Annual', billing_freq: 'year', currency: 'usd' },
    ]);
    await services.customers.upsert(accountId, [
      { id: 'c1', name: 'One', country: 'DE', currency: 'usd', created_date: '2024-01-01' },
      { id: 'c2', name: 'Two', country: 'US', currency: 'usd', created_date: '2024-01-05' },
    ]);
    await services.invoices.import(accountId, [
      {
        id: 'i1',
        customer_id: 'c1',
        date: '2024-01-01',
        currency: 'usd',
        lines: [{ plan_id: 'basic', amount: 4900, period_start: '2024-01-01', period_end: '2024-02-01' }],
      },
      {
        id: 'i2',
        customer_id: 'c2',
        date: '2024-01-10',
        currency: 'usd',
        // 120000 a year / 12 = 10000 a month.
        lines: [{ plan_id: 'annual', amount: 120000, period_start: '2024-01-10', period_end: '2025-01-10' }],
      },
    ]);
  });
  afterAll(() => testStore.dispose());

  const movementsOf = async (id: string) => {
    const snapshot = await services.metrics.snapshot(accountId);
    const customer = snapshot.customers.find((candidate) => candidate.id === id)!;
    return customer.movements.map((movement) => [dayString(movement.day), movement.kind, movement.amount]);
  };

  it('derives every customer written through the raw data API', async () => {
    const snapshot = await services.metrics.snapshot(accountId);
    expect(snapshot.customers.map((customer) => [customer.id, customer.currency, customer.plans])).toEqual([
      ['c1', 'usd', [expect.stringMatching(/:basic$/)]],
      ['c2', 'usd', [expect.stringMatching(/:annual$/)]],
    ]);
    expect(await movementsOf('c1')).toEqual([
      ['2024-01-01', 'new', 4900],
      ['2024-02-04', 'churn', -4900], // Feb 1 + 3 grace days
    ]);
    expect(await movementsOf('c2')).toEqual([
      ['2024-01-10', 'new', 10000],
      ['2025-01-13', 'churn', -10000],
    ]);
    expect(snapshot.attributes.paidStarted).toEqual([d('2024-01-01'), d('2024-01-10')]);
  });

  it('reflects a write in the next snapshot, recomputing only the changed customer', async () => {
    const before = await services.metrics.snapshot(accountId);
    await services.invoices.import(accountId, [
      {
        id: 'i3',
        customer_id: 'c1',
        date: '2024-02-01',
        currency: 'usd',
        lines: [{ plan_id: 'basic', amount: 5900, period_start: '2024-02-01', period_end: '2024-03-01' }],
      },
    ]);
    const after = await services.metrics.snapshot(accountId);
    expect(after.version).toBeGreaterThan(before.version);
    expect(await movementsOf('c1')).toEqual([
      ['2024-01-01', 'new', 4900],
      ['2024-02-01', 'expansion', 1000],
      ['2024-03-04', 'churn', -5900],
    ]);
    expect(
      mrrOn(
        after.customers.find((customer) => customer.id === 'c1')!,
        d('2024-02-15'),
      ),
    ).toBe(5900);
    // Nothing changed since: the same snapshot object is served again.
    expect(await services.metrics.snapshot(accountId)).toBe(after);
  });

  it('drops what was derived for a deleted customer', async () => {
    await services.customers.delete(accountId, 'c2');
    const snapshot = await services.metrics.snapshot(accountId);
    expect(snapshot.customers.map((customer) => customer.id)).toEqual(['c1']);
    expect(snapshot.movements.movementCount).toBe(3);
  });

  it('serves one snapshot to concurrent callers', async () => {
    await services.customers.update(accountId, 'c1', { name: 'Renamed' });
    const [a, b] = await Promise.all([
      services.metrics.snapshot(accountId),
      services.metrics.snapshot(accountId),
    ]);
    expect(a).toBe(b);
    expect(a.customers[0]!.name).toBe('Renamed');
  });

  it('derives a write and reads the snapshot in one transaction', async () => {
    let transactions = 0;
    const counted: Store = {
      ...testStore.store,
      transaction: (fn) => {
        transactions += 1;
        return testStore.store.transaction(fn);
      },
    };
    const own = createServices(counted, systemClock);
    await own.metrics.snapshot(accountId);
    await own.customers.update(accountId, 'c1', { name: 'Once' });
    transactions = 0;
    const snapshot = await own.metrics.snapshot(accountId);
    // The build waits for the store once: the refresh's last batch and the read share it.
    expect(transactions).toBe(1);
    expect(snapshot.customers[0]!.name).toBe('Once');
    await own.metrics.stop();
  });
});
