import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/services/clock.js';
import { createServices, type Services } from '../../src/services/index.js';
import type { DerivedCustomer } from '../../src/store/metrics-repo.js';
import { deferred } from '../helpers/deferred.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../helpers/stores.js';

/** What a refresh would save for a customer without invoices: nothing but its currency. */
function nothingDerived(dataSourceId: string, id: string): DerivedCustomer {
  return {
    key: { dataSourceId, id },
    currency: 'usd',
    firstPaidDay: null,
    plans: [],
    billingFreqs: [],
    primaryPlan: null,
    primaryBillingFreq: null,
    primaryPricingModel: null,
    segments: [],
    paymentMethods: [],
    latestPaymentMethod: null,
    pricingModels: [],
    hasDiscount: false,
    quantities: [],
    movements: [],
  };
}

// Only PostgreSQL runs two transactions at once; PGlite runs one after the other.
describe.runIf(STORE_KINDS.includes('postgres'))('a refresh beside a write of the same customer', () => {
  let test: TestStore;
  let services: Services;

  beforeAll(async () => {
    test = await openTestStore('postgres');
    services = createServices(test.store, systemClock);
  });
  afterAll(() => test.dispose());

  it('does not deadlock: a write beside the refresh that claimed its customer marks it again', async () => {
    const accountId = (await services.accounts.create({ name: 'Busy' })).account.id;
    await services.customers.upsert(accountId, [{ id: 'c1', name: 'One', created_date: '2026-01-01' }]);

    const claimed = deferred();
    const mayCarryOn = deferred();
    // The refresh claims the customer's mark, then saves what it derived once the write waits.
    const refresh = test.store.transaction(async (tx) => {
      await tx.metrics.lockAccount(accountId);
      const keys = await tx.changes.claimDirtyCustomers(accountId, 500);
      claimed.resolve();
      await mayCarryOn.promise;
      await tx.metrics.replace(
        accountId,
        keys,
        keys.map((key) => nothingDerived(key.dataSourceId, key.id)),
      );
      return keys.length;
    });
    await claimed.promise;
    // The write updates the customer's row and marks it while the refresh holds the older mark.
    const write = services.customers.upsert(accountId, [
      { id: 'c1', name: 'One again', created_date: '2026-01-01' },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    mayCarryOn.resolve();

    expect(await refresh).toBe(1);
    await write;
    // The write's mark outlived the refresh: the next one derives the customer again.
    expect(await test.store.transaction((tx) => tx.changes.claimDirtyCustomers(accountId, 500))).toEqual([
      { dataSourceId: expect.any(String), id: 'c1' },
    ]);
  });

  it('keeps the mark of a write still open when a refresh claims the customer marked before it', async () => {
    const accountId = (await services.accounts.create({ name: 'Marked twice' })).account.id;
    // Committed and not yet claimed: the customer is marked when the second write marks it.
    await services.customers.upsert(accountId, [{ id: 'c1', name: 'One', created_date: '2026-01-01' }]);
    const dataSourceId = (await services.dataSources.list(accountId))[0]!.id;
    const key = { dataSourceId, id: 'c1' };

    const marked = deferred();
    const mayCommit = deferred();
    const write = test.store.transaction(async (tx) => {
      await tx.changes.markCustomers(accountId, [key]);
      marked.resolve();
      await mayCommit.promise;
    });
    await marked.promise;
    // The refresh takes the first write's mark; it cannot see the second write, still open.
    const claimed = await test.store.transaction(async (tx) => {
      await tx.metrics.lockAccount(accountId);
      return tx.changes.claimDirtyCustomers(accountId, 500);
    });
    expect(claimed).toEqual([key]);
    mayCommit.resolve();
    await write;

    // What the second write changed was not seen by that refresh: the next one derives it.
    expect(await test.store.transaction((tx) => tx.changes.claimDirtyCustomers(accountId, 500))).toEqual([
      key,
    ]);
  });
});
