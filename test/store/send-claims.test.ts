import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/open-store.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../helpers/stores.js';

const AT = new Date('2026-11-24T08:00:00Z');

/** A promise and the hands that settle it. */
function gate() {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

/** A send that holds its claim until `release` settles, and says when it has begun. */
function heldSend() {
  const begun = gate();
  const release = gate();
  return {
    begun: begun.promise,
    release,
    send: async () => {
      begun.open();
      await release.promise;
    },
  };
}

/** Whether `promise` settled by now, after the other statements waiting have had their turn. */
async function settledSoon(promise: Promise<unknown>, ms = 300): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, ms));
  return settled;
}

describe.each(STORE_KINDS)('sendOnce on %s', (kind) => {
  let test: TestStore;
  let store: Store;
  let accountId: string;

  beforeAll(async () => {
    test = await openTestStore(kind);
    store = test.store;
    accountId = randomUUID();
    await store.accounts.insert({ accountId, name: 'Sends', baseCurrency: 'usd' });
  });
  afterAll(() => test.dispose());

  it('sends once; a send that throws after the claim leaves no claim, and the next attempt sends', async () => {
    const sent: string[] = [];
    await expect(
      store.sendOnce(accountId, 'digest:daily:2026-11-23', AT, async () => {
        throw new Error('SMTP down');
      }),
    ).rejects.toThrow('SMTP down');
    expect(await store.notifications.wasSent(accountId, 'digest:daily:2026-11-23')).toBe(false);

    const send = async () => {
      sent.push('digest');
    };
    expect(await store.sendOnce(accountId, 'digest:daily:2026-11-23', AT, send)).toBe(true);
    expect(await store.sendOnce(accountId, 'digest:daily:2026-11-23', AT, send)).toBe(false);
    expect(sent).toEqual(['digest']);
    expect(await store.notifications.wasSent(accountId, 'digest:daily:2026-11-23')).toBe(true);
  });

  it('makes a second sender wait for the first, then send nothing when the first sent', async () => {
    const first = heldSend();
    const sent: string[] = [];
    const one = store.sendOnce(accountId, 'alert:churn:2026-11-24', AT, first.send);
    await first.begun;
    const two = store.sendOnce(accountId, 'alert:churn:2026-11-24', AT, async () => {
      sent.push('second');
    });
    expect(await settledSoon(two)).toBe(false);
    first.release.open();
    expect([await one, await two]).toEqual([true, false]);
    expect(sent).toEqual([]);
  });

  it('makes a second sender wait for the first, then send when the first failed', async () => {
    const first = heldSend();
    const sent: string[] = [];
    const one = store.sendOnce(accountId, 'alert:mrr_drop:2026-11-24', AT, first.send);
    await first.begun;
    const two = store.sendOnce(accountId, 'alert:mrr_drop:2026-11-24', AT, async () => {
      sent.push('second');
    });
    expect(await settledSoon(two)).toBe(false);
    first.release.fail(new Error('chat queue down'));
    await expect(one).rejects.toThrow('chat queue down');
    expect(await two).toBe(true);
    expect(sent).toEqual(['second']);
  });

  it('keeps the claims of other keys and accounts apart', async () => {
    const other = randomUUID();
    await store.accounts.insert({ accountId: other, name: 'Other', baseCurrency: 'usd' });
    const held = gate();
    const one = store.sendOnce(accountId, 'digest:weekly:2026-11-16', AT, () => held.promise);
    const send = async () => {};
    expect(await store.sendOnce(other, 'digest:weekly:2026-11-16', AT, send)).toBe(true);
    expect(await store.sendOnce(accountId, 'digest:weekly:2026-11-09', AT, send)).toBe(true);
    held.open();
    expect(await one).toBe(true);
  });
});

describe.runIf(STORE_KINDS.includes('postgres'))('sendOnce on postgres, across processes', () => {
  let test: TestStore;
  let second: Store;
  let accountId: string;

  beforeAll(async () => {
    test = await openTestStore('postgres');
    second = await openStore(test.location.location);
    accountId = randomUUID();
    await test.store.accounts.insert({ accountId, name: 'Crash', baseCurrency: 'usd' });
  });
  afterAll(async () => {
    await second.close();
    await test.dispose();
  });

  it("rolls back the claim of a process that dies mid-send, so another process's sender sends", async () => {
    const never = heldSend();
    const dying = test.store.sendOnce(accountId, 'digest:daily:2026-11-23', AT, never.send);
    await never.begun;
    const sent: string[] = [];
    const retry = second.sendOnce(accountId, 'digest:daily:2026-11-23', AT, async () => {
      sent.push('retry');
    });
    expect(await settledSoon(retry)).toBe(false);

    // The dying process's connection goes, as it does when the process is killed.
    const url = (test.location.location as { databaseUrl: string }).databaseUrl;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const killed = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and state = 'idle in transaction'`,
      );
      expect(killed.rowCount).toBe(1);
    } finally {
      await admin.end();
    }

    expect(await retry).toBe(true);
    expect(sent).toEqual(['retry']);
    never.release.open();
    await expect(dying).rejects.toThrow();
    expect(await second.notifications.wasSent(accountId, 'digest:daily:2026-11-23')).toBe(true);
  });
});
