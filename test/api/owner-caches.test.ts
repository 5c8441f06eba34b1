import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/services/api-key-secrets.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/** Resolves to 'answered' if `work` settles within a second, else to 'waited'. */
function withinASecond(work: Promise<unknown>): Promise<'answered' | 'waited'> {
  return Promise.race([
    work.then(() => 'answered' as const),
    new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 1_000)),
  ]);
}

describe('owner caches of the embedded store', () => {
  let t: TestApp;
  let busy: TestAccount;
  let reader: TestAccount;

  beforeAll(async () => {
    t = await createTestApp('pglite');
    busy = await t.newAccount('Importing');
    reader = await t.newAccount('Reading');
  });
  afterAll(() => t.close());

  /** Holds a transaction of the busy account open, as an import's would be, until released. */
  function holdTransaction() {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let bumped = 0;
    const done = t.services.store.transaction(async (tx) => {
      bumped = await tx.changes.bumpDataVersion(busy.id);
      await held;
    });
    return { release, done, bumped: () => bumped };
  }

  it('answers another account while a transaction holds the one connection', async () => {
    // Warm: the reads below are the ones every report request makes first.
    expect((await t.call(reader.viewerKey, { method: 'GET', url: '/reports/summary' })).statusCode).toBe(200);
    const hold = holdTransaction();

    expect(await withinASecond(t.call(reader.viewerKey, { method: 'GET', url: '/reports/summary' }))).toBe(
      'answered',
    );
    hold.release();
    await hold.done;
  });

  it('shows a data version bump once its transaction commits, and not before', async () => {
    const store = t.services.store;
    const before = await store.changes.dataVersion(busy.id);
    const hold = holdTransaction();
    // Let the transaction reach its bump.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hold.bumped()).toBe(before + 1);
    expect(await store.changes.dataVersion(busy.id)).toBe(before);
    hold.release();
    await hold.done;
    expect(await store.changes.dataVersion(busy.id)).toBe(before + 1);
  });

  it('keeps the version of a transaction that rolled back', async () => {
    const store = t.services.store;
    const before = await store.changes.dataVersion(busy.id);
    await expect(
      store.transaction(async (tx) => {
        await tx.changes.bumpDataVersion(busy.id);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await store.changes.dataVersion(busy.id)).toBe(before);
  });

  it('forgets a key regenerated or deleted inside a transaction once it commits', async () => {
    const issued = await t.services.apiKeys.create(busy.id, { name: 'short-lived', accessLevel: 'viewer' });
    expect(await t.services.store.apiKeys.findByHash(hashSecret(issued.key))).toBeDefined();
    await t.services.store.transaction((tx) => tx.apiKeys.delete(busy.id, issued.id));
    expect(await t.services.store.apiKeys.findByHash(hashSecret(issued.key))).toBeUndefined();
    expect((await t.call(issued.key, { method: 'GET', url: '/reports/summary' })).statusCode).toBe(401);
  });

  it('does not keep a key row read while the key was being deleted', async () => {
    const issued = await t.services.apiKeys.create(busy.id, { name: 'raced', accessLevel: 'viewer' });
    const store = t.services.store;
    // Both are queued on the one connection: the lookup reads the row, then the delete runs.
    const lookup = store.apiKeys.findByHash(hashSecret(issued.key));
    const deletion = store.apiKeys.delete(busy.id, issued.id);
    expect(await lookup).toBeDefined();
    expect(await deletion).toBe(true);
    expect(await store.apiKeys.findByHash(hashSecret(issued.key))).toBeUndefined();
  });
});
