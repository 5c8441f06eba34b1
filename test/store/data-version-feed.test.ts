import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/open-store.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../helpers/stores.js';

/** Resolves when `heard` holds `count` items, or fails after a few seconds. */
async function until<T>(heard: T[], count: number): Promise<T[]> {
  const deadline = Date.now() + 10_000;
  while (heard.length < count) {
    if (Date.now() > deadline) throw new Error(`heard ${heard.length} of ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return heard;
}

describe.each(STORE_KINDS)('data version changes heard on %s', (kind) => {
  let testStore: TestStore;
  let store: Store;
  let accountId: string;

  beforeAll(async () => {
    testStore = await openTestStore(kind);
    store = testStore.store;
    accountId = randomUUID();
    await store.accounts.insert({ accountId, name: 'Heard', baseCurrency: 'usd' });
  });
  afterAll(() => testStore.dispose());

  it('tells a committed version, and not one rolled back', async () => {
    const heard: string[] = [];
    const stop = await store.watchDataVersions(
      (id) => heard.push(id),
      () => {},
    );
    await expect(
      store.transaction(async (tx) => {
        await tx.changes.bumpDataVersion(accountId);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await store.transaction((tx) => tx.changes.bumpDataVersion(accountId));
    expect(await until(heard, 1)).toEqual([accountId]);
    await stop();
    await store.transaction((tx) => tx.changes.bumpDataVersion(accountId));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual([accountId]);
  });
});

describe.runIf(STORE_KINDS.includes('postgres'))('data version changes between processes', () => {
  let testStore: TestStore;

  beforeAll(async () => {
    testStore = await openTestStore('postgres');
  });
  afterAll(() => testStore.dispose());

  it("reach another process's store, and again after its connection was lost", async () => {
    const { databaseUrl } = testStore.location.location as { databaseUrl: string };
    const other = await openStore({ databaseUrl });
    const heard: string[] = [];
    const lost: unknown[] = [];
    const stop = await other.watchDataVersions(
      (id) => heard.push(id),
      (error) => lost.push(error),
    );
    try {
      const accountId = randomUUID();
      await testStore.store.accounts.insert({ accountId, name: 'Elsewhere', baseCurrency: 'usd' });
      await testStore.store.transaction((tx) => tx.changes.bumpDataVersion(accountId));
      await until(heard, 1);
      // An administrator ends the listening session; the store connects again by itself.
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and query like 'listen %'`,
      );
      await admin.end();
      await until(lost, 1);
      // Writes go on until one is heard: those made before the new connection listens are not.
      const deadline = Date.now() + 10_000;
      while (heard.length < 2 && Date.now() < deadline) {
        await testStore.store.transaction((tx) => tx.changes.bumpDataVersion(accountId));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(heard.length).toBeGreaterThanOrEqual(2);
      expect(new Set(heard)).toEqual(new Set([accountId]));
    } finally {
      await stop();
      await other.close();
    }
  });

  it('stops listening when closed while it waits to connect again', async () => {
    const { databaseUrl } = testStore.location.location as { databaseUrl: string };
    const lost: unknown[] = [];
    const stop = await testStore.store.watchDataVersions(
      () => {},
      (error) => lost.push(error),
    );
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    const listeners = async () =>
      (
        await admin.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
           where datname = current_database() and query like 'listen %'`,
        )
      ).rows[0]!.n;
    try {
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and query like 'listen %'`,
      );
      await until(lost, 1);
      await stop();
      // Past the first retry's wait: no connection came back to listen.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await listeners()).toBe(0);
    } finally {
      await admin.end();
    }
  });
});
