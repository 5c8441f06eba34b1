import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, reportFixtureAccount, type TestApp } from '../helpers/app.js';
import { deferred } from '../helpers/deferred.js';
import { STORE_KINDS } from '../helpers/stores.js';

const RATES = 'Date,USD\n2026-01-01,1.25\n';

/** A monthly Basic invoice of `amount` cents for `customer`, from 1 November 2026. */
function invoice(id: string, customer: string, amount: number) {
  return {
    id,
    customer_id: customer,
    date: '2026-11-01',
    currency: 'usd',
    lines: [{ plan_id: 'basic', amount, period_start: '2026-11-01', period_end: '2026-12-01' }],
  };
}

/** Holds the account's derivation lock, as another process refreshing it would, until released. */
async function holdAccountLock(t: TestApp, accountId: string): Promise<{ release: () => Promise<void> }> {
  const released = deferred();
  const locked = deferred();
  const other = t.store.transaction(async (tx) => {
    await tx.metrics.lockAccount(accountId);
    locked.resolve();
    await released.promise;
  });
  await locked.promise;
  return {
    release: async () => {
      released.resolve();
      await other;
    },
  };
}

describe.each(STORE_KINDS)('report freshness on %s', (kind) => {
  let t: TestApp;
  afterEach(() => t.close());

  /**
   * An account whose snapshot holds a 4900 invoice, then a 1000 invoice written while another
   * process refreshing the account holds its lock: the next snapshot waits for `other`.
   */
  async function heldAfterASecondInvoice(readWaitMs: number) {
    t = await createTestApp(kind, {}, { metrics: { readWaitMs } });
    const { account, post } = await reportFixtureAccount(t, RATES);
    await post('/data/customers', [{ id: 'c1', name: 'One', created_date: '2026-11-01' }]);
    await post('/data/invoices', [invoice('i1', 'c1', 4900)]);
    await t.read(account.adminKey, '/reports/summary');
    await t.services.metrics.settled();
    const other = await holdAccountLock(t, account.id);
    await post('/data/invoices', [invoice('i2', 'c1', 1000)]);
    return { account, post, other };
  }

  it('derives a write in the background: the next report finds nothing left to refresh', async () => {
    t = await createTestApp(kind);
    const { account, post } = await reportFixtureAccount(t, RATES);
    await post('/data/customers', [{ id: 'c1', name: 'One', created_date: '2026-11-01' }]);
    await post('/data/invoices', [invoice('i1', 'c1', 4900)]);
    await t.services.metrics.settled();
    expect(await t.services.metrics.refresh(account.id)).toBe(0);
    const { summary } = await t.read(account.adminKey, '/reports/summary');
    expect(summary.mrr_current).toBe(4900);
  });

  it('answers a current snapshot without the age header, even when it does not wait at all', async () => {
    t = await createTestApp(kind, {}, { metrics: { readWaitMs: 0 } });
    const { account, post } = await reportFixtureAccount(t, RATES);
    await post('/data/customers', [{ id: 'c1', name: 'One', created_date: '2026-11-01' }]);
    await t.services.metrics.snapshot(account.id);
    for (let call = 0; call < 3; call++) {
      const response = await t.call(account.adminKey, { method: 'GET', url: '/reports/summary' });
      expect(response.headers['mrrlytics-data-age']).toBeUndefined();
    }
  });

  it('waits for a write that is quick to patch: no age header', async () => {
    t = await createTestApp(kind, {}, { metrics: { readWaitMs: 10_000 } });
    const { account, post } = await reportFixtureAccount(t, RATES);
    await post('/data/customers', [{ id: 'c1', name: 'One', created_date: '2026-11-01' }]);
    await post('/data/invoices', [invoice('i1', 'c1', 4900)]);
    await t.read(account.adminKey, '/reports/summary');
    await post('/data/invoices', [invoice('i2', 'c1', 1000)]);
    const response = await t.call(account.adminKey, { method: 'GET', url: '/reports/summary' });
    // 4900 + 1000 on the same customer from the same day.
    expect(response.json().summary.mrr_current).toBe(5900);
    expect(response.headers['mrrlytics-data-age']).toBeUndefined();
  });

  it('answers a write, or says its answer is older, while other readers keep the request reads busy', async () => {
    t = await createTestApp(kind, {}, { metrics: { readWaitMs: 10_000 } });
    const { account, post } = await reportFixtureAccount(t, RATES);
    await post('/data/customers', [{ id: 'c1', name: 'One', created_date: '2026-11-01' }]);
    let reading = true;
    // Readers that keep version reads in flight, started before the writes below commit: a
    // read after a write must not take such a read's version for its own. Each lets the event
    // loop turn between calls, as a client over the network would: an answer from memory never
    // leaves the microtask queue, and the writes would starve.
    const readers = Array.from({ length: 4 }, async () => {
      while (reading) {
        await t.call(account.viewerKey, { method: 'GET', url: '/reports/summary' });
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    try {
      for (let write = 1; write <= 5; write++) {
        await post('/data/invoices', [invoice(`i${write}`, 'c1', 1000)]);
        // Invoices of 1000 a month each, all for c1 from the same day. With readers behind the
        // build, an answer may come from the snapshot before the write, and then says how old
        // it is; one without the age header holds the write.
        for (;;) {
          const response = await t.call(account.adminKey, { method: 'GET', url: '/reports/summary' });
          const aged = response.headers['mrrlytics-data-age'] !== undefined;
          expect(response.json().summary.mrr_current).toBe(1000 * (aged ? write - 1 : write));
          if (!aged) break;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    } finally {
      reading = false;
      await Promise.all(readers);
    }
  });

  it.runIf(kind === 'postgres')(
    'answers from the previous snapshot, with its age, while a newer one is held up',
    async () => {
      const { account, other } = await heldAfterASecondInvoice(200);

      const stale = await t.call(account.adminKey, { method: 'GET', url: '/reports/summary' });
      expect(stale.statusCode).toBe(200);
      expect(stale.json().summary.mrr_current).toBe(4900);
      expect(Number(stale.headers['mrrlytics-data-age'])).toBeGreaterThanOrEqual(0);
      // A raw-data read does not come from the snapshot: it is never stale.
      const raw = await t.call(account.adminKey, { method: 'GET', url: '/data/invoices/i2' });
      expect(raw.headers['mrrlytics-data-age']).toBeUndefined();

      await other.release();
      await t.services.metrics.snapshot(account.id);
      const fresh = await t.call(account.adminKey, { method: 'GET', url: '/reports/summary' });
      expect(fresh.json().summary.mrr_current).toBe(5900);
      expect(fresh.headers['mrrlytics-data-age']).toBeUndefined();
    },
  );

  it.runIf(kind === 'postgres')(
    "answers a cashflow report from the previous snapshot only when that snapshot's table is held",
    async () => {
      const { account, other } = await heldAfterASecondInvoice(200);
      const invoices = (response: { json: () => { result: { list: { invoice_ref: string }[] } } }) =>
        response
          .json()
          .result.list.map((item) => item.invoice_ref)
          .sort();
      // No table of the held snapshot: reading one whole for a snapshot about to be replaced
      // would be wasted, so the report waits for the newer one (the other process lets go).
      const waiting = t.call(account.adminKey, { method: 'GET', url: '/reports/invoices-detail' });
      await new Promise((resolve) => setTimeout(resolve, 400));
      await other.release();
      const fresh = await waiting;
      expect(invoices(fresh)).toEqual(['i1', 'i2']);
      expect(fresh.headers['mrrlytics-data-age']).toBeUndefined();

      // Its table is now held: while the next snapshot is held up, the report answers from it.
      const next = await holdAccountLock(t, account.id);
      await t.seed(account.adminKey, '/data/invoices', [invoice('i3', 'c1', 2000)]);
      const stale = await t.call(account.adminKey, { method: 'GET', url: '/reports/invoices-detail' });
      expect(invoices(stale)).toEqual(['i1', 'i2']);
      expect(Number(stale.headers['mrrlytics-data-age'])).toBeGreaterThanOrEqual(0);
      await next.release();
    },
  );

  it.runIf(kind === 'postgres')(
    'answers at once from a recent snapshot when a build that lacks the write is already running',
    async () => {
      const { account, post, other } = await heldAfterASecondInvoice(10_000);
      // The first reader after a write starts the build of its version and waits for it.
      const first = t.call(account.adminKey, { method: 'GET', url: '/reports/summary' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await post('/data/invoices', [invoice('i3', 'c1', 2000)]);
      // The next one would wait for that build and one more: it gets the held snapshot now,
      // although the wait allows 10 s.
      const stale = await t.call(account.adminKey, { method: 'GET', url: '/reports/summary' });
      expect(stale.json().summary.mrr_current).toBe(4900);
      expect(Number(stale.headers['mrrlytics-data-age'])).toBeGreaterThanOrEqual(0);

      await other.release();
      // The first reader's build derives what is committed when it gets the lock, both
      // invoices: 4900 + 1000 + 2000, without the age header.
      const waited = await first;
      expect(waited.json().summary.mrr_current).toBe(7900);
      expect(waited.headers['mrrlytics-data-age']).toBeUndefined();
    },
  );

  it.runIf(kind === 'postgres')(
    'builds once for the writes made while a build waits: every reader gets that one snapshot',
    async () => {
      t = await createTestApp(kind);
      const { account, post } = await reportFixtureAccount(t, RATES);
      await post('/data/customers', [{ id: 'c1', name: 'One', created_date: '2026-11-01' }]);
      await t.services.metrics.snapshot(account.id);
      await t.services.metrics.settled();

      const other = await holdAccountLock(t, account.id);
      // Each reader reads its version before the next write: a moment is plenty, as the lock
      // holds up only the builds.
      const moment = () => new Promise((resolve) => setTimeout(resolve, 200));
      const readers = [];
      for (const [n, amount] of [1000, 2000, 3000].entries()) {
        await post('/data/invoices', [invoice(`i${n}`, 'c1', amount)]);
        readers.push(t.services.metrics.snapshot(account.id));
        await moment();
      }
      await other.release();
      const snapshots = await Promise.all(readers);
      // The first reader's build (asked for the first invoice) was running, held up by the
      // lock; once it ran, it derived all three invoices, so it is of the newest version, and
      // the two readers queued after it get it rather than another build.
      expect(new Set(snapshots).size).toBe(1);
      expect(snapshots[0]!.version).toBe(await t.store.changes.dataVersion(account.id));
      const { summary } = await t.read(account.adminKey, '/reports/summary');
      // 1000 + 2000 + 3000 on the same customer from the same day.
      expect(summary.mrr_current).toBe(6000);
    },
  );
});
