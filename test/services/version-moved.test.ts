import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixedClock } from '../../src/services/clock.js';
import { createServices, type Services } from '../../src/services/index.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../helpers/stores.js';

const clock = fixedClock('2026-11-23T12:00:00.000Z');

describe.each(STORE_KINDS)('a write heard from another process on %s', (kind) => {
  let testStore: TestStore;
  /** Two processes on one database: writes go through `writer`, `reader` hears of them. */
  let writer: Services;
  let reader: Services;
  const heardOf: string[] = [];
  let stopWatching: () => Promise<void>;

  beforeAll(async () => {
    testStore = await openTestStore(kind);
    writer = createServices(testStore.store, clock);
    reader = createServices(testStore.store, clock, {
      metrics: { refreshPause: { quietMs: 10, atMostMs: 50 } },
    });
    stopWatching = await testStore.store.watchDataVersions(
      (accountId) => {
        heardOf.push(accountId);
        reader.metrics.versionMoved(accountId);
      },
      () => {},
    );
  });
  afterAll(async () => {
    await stopWatching();
    await testStore.dispose();
  });

  /** Runs a write, waits until the reader has heard of it, and for what that asked of the reader. */
  async function heard(accountId: string, write: () => Promise<unknown>): Promise<void> {
    const count = () => heardOf.filter((id) => id === accountId).length;
    const before = count();
    await write();
    const deadline = Date.now() + 10_000;
    while (count() === before) {
      if (Date.now() > deadline) throw new Error('not heard');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await reader.metrics.settled();
  }

  async function accountWithCustomer(name: string): Promise<string> {
    const accountId = (await writer.accounts.create({ name })).account.id;
    await heard(accountId, () =>
      writer.customers.upsert(accountId, [{ id: 'a', name: 'A', created_date: '2026-01-01' }]),
    );
    return accountId;
  }

  it('builds the next snapshot of an account it reads before its next reader asks', async () => {
    const accountId = await accountWithCustomer('Read here');
    const before = await reader.metrics.snapshot(accountId);
    await heard(accountId, () =>
      writer.customers.upsert(accountId, [{ id: 'b', name: 'B', created_date: '2026-01-01' }]),
    );
    // Built already: the reader neither derives nor reads the account (each is a transaction).
    const transactions = vi.spyOn(testStore.store, 'transaction');
    const after = await reader.metrics.snapshot(accountId);
    expect(transactions).not.toHaveBeenCalled();
    transactions.mockRestore();
    expect(after.version).toBeGreaterThan(before.version);
    expect(after.customers.map((customer) => customer.id)).toEqual(['a', 'b']);
  });

  it('patches the cashflow table with the snapshot built ahead, for an account whose table it read', async () => {
    const accountId = await accountWithCustomer('Cashflow read here');
    const untouched = await accountWithCustomer('Cashflow not read');
    await reader.cashflowTables(accountId, await reader.metrics.snapshot(accountId));
    await reader.metrics.snapshot(untouched);
    for (const id of [accountId, untouched])
      await heard(id, () =>
        writer.customers.upsert(id, [{ id: 'b', name: 'B', created_date: '2026-01-01' }]),
      );
    const built = await reader.metrics.snapshot(accountId);
    expect(reader.cashflowTables.holds(accountId, built.version)).toBe(true);
    expect(reader.cashflowTables.holds(untouched, (await reader.metrics.snapshot(untouched)).version)).toBe(
      false,
    );
  });

  it('patches the cashflow table ahead only while reports ask for it', async () => {
    const accountId = await accountWithCustomer('Cashflow read once');
    const holds = async () =>
      reader.cashflowTables.holds(accountId, (await reader.metrics.snapshot(accountId)).version);
    const write = (id: string) =>
      heard(accountId, () =>
        writer.customers.upsert(accountId, [{ id, name: id, created_date: '2026-01-01' }]),
      );
    await reader.cashflowTables(accountId, await reader.metrics.snapshot(accountId));
    await write('b');
    expect(await holds()).toBe(true);
    // No report asked for that table: the next snapshot's is left to the report that asks.
    await write('c');
    expect(await holds()).toBe(false);
    const snapshot = await reader.metrics.snapshot(accountId);
    await reader.cashflowTables(accountId, snapshot);
    expect(reader.cashflowTables.holds(accountId, snapshot.version)).toBe(true);
    await write('d');
    expect(await holds()).toBe(true);
  });

  it('leaves a change too large to patch to the next reader', async () => {
    const accountId = await accountWithCustomer('Imported');
    // A process that hears of the writes only once they are all made, as one that was busy.
    const late = createServices(testStore.store, clock);
    await late.metrics.snapshot(accountId);
    // More customers than a patch reads (2,000, and a fifth of the account): a whole read, as
    // after a large import, which building ahead would repeat after every refresh.
    const many = Array.from({ length: 2001 }, (_, n) => ({
      id: `m${n}`,
      name: `M${n}`,
      created_date: '2026-01-01',
    }));
    await heard(accountId, () => writer.customers.upsert(accountId, many));
    await writer.metrics.refresh(accountId);
    late.metrics.versionMoved(accountId);
    await late.metrics.settled();
    const transactions = vi.spyOn(testStore.store, 'transaction');
    const after = await late.metrics.snapshot(accountId);
    expect(transactions).toHaveBeenCalled();
    transactions.mockRestore();
    expect(after.customers).toHaveLength(2002);
  });

  it('leaves an account it does not read to its own readers', async () => {
    const accountId = await accountWithCustomer('Read elsewhere');
    // The customer written is still to derive: the reader did not refresh the account.
    expect(await writer.metrics.refresh(accountId)).toBe(1);
  });
});
