import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { AccountSnapshot } from '../../src/engine/account-snapshot.js';
import { type CashflowTable, NO_CUSTOMER } from '../../src/engine/cashflow/cashflow-table.js';
import { fixedClock } from '../../src/services/clock.js';
import { createServices, type Services } from '../../src/services/index.js';
import type { Store } from '../../src/store/open-store.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../helpers/stores.js';

const clock = fixedClock('2026-11-23T12:00:00.000Z');

/**
 * What cashflow reports read of a table, invoice by invoice in id order: a patched table holds
 * the changed customers' invoices after the others, so its order is not a whole read's, and
 * may keep their earlier invoices in place as invoices of no customer, which no report reads.
 */
function cashflowContents(snapshot: AccountSnapshot, table: CashflowTable) {
  const invoices = Array.from({ length: table.invoiceCount }, (_, invoice) => invoice).filter(
    (invoice) => table.invoiceCustomer[invoice] !== NO_CUSTOMER,
  );
  return invoices
    .map((invoice) => ({
      id: table.invoiceId.at(invoice),
      customer: snapshot.customers[table.invoiceCustomer[invoice]!]!.id,
      day: table.invoiceDay[invoice],
      total: table.invoiceTotal[invoice],
      status: table.statuses[table.invoiceStatus[invoice]!],
      currency: table.currencyOf(invoice),
      failure: table.firstFailure[invoice] === -1 ? null : table.failureDay(invoice),
      transactions: Array.from(
        { length: table.transactionStart[invoice + 1]! - table.transactionStart[invoice]! },
        (_, n) => {
          const t = table.transactionStart[invoice]! + n;
          return [
            table.transactionId.at(t),
            table.transactionDay[t],
            table.transactionFlags[t],
            table.transactionAmount[t],
          ];
        },
      ),
    }))
    .sort((a, b) => (a.id! < b.id! ? -1 : 1));
}

/** What reports read of a snapshot, without the object identities a patch keeps. */
function contents(snapshot: AccountSnapshot) {
  const { customers, attributes, movements, funnel } = snapshot;
  return JSON.parse(JSON.stringify({ customers, attributes, movements, funnel, n: movements.movementCount }));
}

/** One write of the sequences below, in the raw-data API's terms. */
type Write =
  | { kind: 'customer'; id: number; country: 'DE' | 'US' | 'FR' }
  | { kind: 'invoice'; customer: number; month: number; amount: number; plan: 'basic' | 'annual' }
  | { kind: 'delete'; customer: number };

const writes = fc.array(
  fc.oneof(
    fc.record({
      kind: fc.constant('customer' as const),
      id: fc.integer({ min: 1, max: 12 }),
      country: fc.constantFrom('DE' as const, 'US' as const, 'FR' as const),
    }),
    fc.record({
      kind: fc.constant('invoice' as const),
      customer: fc.integer({ min: 1, max: 12 }),
      month: fc.integer({ min: 1, max: 10 }),
      amount: fc.integer({ min: 100, max: 90_000 }),
      plan: fc.constantFrom('basic' as const, 'annual' as const),
    }),
    fc.record({ kind: fc.constant('delete' as const), customer: fc.integer({ min: 1, max: 12 }) }),
  ),
  { minLength: 1, maxLength: 6 },
);

async function apply(services: Services, accountId: string, write: Write, n: number): Promise<void> {
  if (write.kind === 'customer') {
    await services.customers.upsert(accountId, [
      {
        id: `c${write.id}`,
        name: `Customer ${write.id}`,
        country: write.country,
        created_date: '2026-01-01',
      },
    ]);
  } else if (write.kind === 'invoice') {
    const start = `2026-${String(write.month).padStart(2, '0')}-01`;
    const end =
      write.plan === 'basic'
        ? `2026-${String(write.month + 1).padStart(2, '0')}-01`
        : `2027-${start.slice(5)}`;
    await services.customers.upsert(accountId, [
      { id: `c${write.customer}`, name: `Customer ${write.customer}`, created_date: '2026-01-01' },
    ]);
    await services.invoices.import(accountId, [
      {
        id: `i${n}`,
        customer_id: `c${write.customer}`,
        date: start,
        currency: 'usd',
        lines: [{ plan_id: write.plan, amount: write.amount, period_start: start, period_end: end }],
        // Odd amounts fail their first attempt, then are paid: transactions for the cashflow table.
        transactions: [
          ...(write.amount % 2 === 1
            ? [{ id: `t${n}f`, date: start, type: 'payment', result: 'failed', amount: write.amount }]
            : []),
          { id: `t${n}`, date: start, type: 'payment', result: 'successful', amount: write.amount },
        ],
      },
    ]);
  } else {
    await services.customers.delete(accountId, `c${write.customer}`).catch(() => undefined);
  }
}

describe.each(STORE_KINDS)('snapshots patched after writes on %s', (kind) => {
  let testStore: TestStore;
  let services: Services;

  beforeAll(async () => {
    testStore = await openTestStore(kind);
    services = createServices(testStore.store, clock);
  });
  afterAll(() => testStore.dispose());

  async function newAccount(): Promise<string> {
    const accountId = (await services.accounts.create({ name: 'Patched' })).account.id;
    await services.plans.import(accountId, [
      { id: 'basic', name: 'Basic', billing_freq: 'month', currency: 'usd' },
      { id: 'annual', name: 'Annual', billing_freq: 'year', currency: 'usd' },
    ]);
    return accountId;
  }

  it('keeps the customers a write did not touch, and equals a snapshot read whole', async () => {
    const accountId = await newAccount();
    await services.customers.upsert(accountId, [
      { id: 'a', name: 'A', created_date: '2026-01-01' },
      { id: 'b', name: 'B', created_date: '2026-01-01' },
    ]);
    const before = await services.metrics.snapshot(accountId);
    await services.customers.update(accountId, 'b', { country: 'DE' });
    const after = await services.metrics.snapshot(accountId);
    expect(after.version).toBeGreaterThan(before.version);
    // The untouched customer is the same object: it was not read again.
    expect(after.customers[0]).toBe(before.customers[0]);
    expect(after.customers[1]!.country).toBe('DE');
    const whole = createServices(testStore.store, clock);
    expect(contents(after)).toEqual(contents(await whole.metrics.snapshot(accountId)));
  });

  it('equals a snapshot read whole after any sequence of writes, deletes included', async () => {
    await fc.assert(
      fc.asyncProperty(writes, writes, fc.boolean(), async (first, second, snapshotEach) => {
        const accountId = await newAccount();
        let n = 0;
        for (const write of first) await apply(services, accountId, write, n++);
        await services.cashflowTables(accountId, await services.metrics.snapshot(accountId));
        for (const write of second) {
          await apply(services, accountId, write, n++);
          // Snapshots no cashflow report reads: the table is then several versions behind.
          if (snapshotEach) await services.metrics.snapshot(accountId);
        }
        const patched = await services.metrics.snapshot(accountId);
        // The patched table does not read the account's invoices whole, only the changed customers'.
        const pages = vi.spyOn(testStore.store.cashflow, 'eachInvoice');
        const patchedTable = await services.cashflowTables(accountId, patched);
        expect(pages).not.toHaveBeenCalled();
        pages.mockRestore();
        const whole = createServices(testStore.store, clock);
        const wholeSnapshot = await whole.metrics.snapshot(accountId);
        expect(contents(patched)).toEqual(contents(wholeSnapshot));
        expect(cashflowContents(patched, patchedTable)).toEqual(
          cashflowContents(wholeSnapshot, await whole.cashflowTables(accountId, wholeSnapshot)),
        );
      }),
      { numRuns: kind === 'pglite' ? 15 : 10 },
    );
  });

  /**
   * A table read at minute 0, then `snapshots` snapshots no cashflow report reads, each after one
   * write, at minute 30; one more write and a snapshot at minute 55, whose table is asked for:
   * the table is 55 minutes old, past the 50 kept as a margin below the hour the store keeps its
   * record of changes. Returns whether the table was read whole, and checks it either way.
   */
  async function tableAfterAnHour(snapshots: number): Promise<boolean> {
    const accountId = await newAccount();
    const now = Date.now();
    const at = (minutes: number) => vi.spyOn(Date, 'now').mockReturnValue(now + minutes * 60_000);
    await services.customers.upsert(accountId, [{ id: 'a', name: 'A', created_date: '2026-01-01' }]);
    await services.cashflowTables(accountId, await services.metrics.snapshot(accountId));
    at(30);
    for (let n = 1; n <= snapshots; n++) {
      await apply(
        services,
        accountId,
        { kind: 'invoice', customer: 1, month: n, amount: 101, plan: 'basic' },
        n,
      );
      await services.metrics.snapshot(accountId);
    }
    at(55);
    await apply(services, accountId, { kind: 'customer', id: 2, country: 'FR' }, 0);
    const pages = vi.spyOn(testStore.store.cashflow, 'eachInvoice');
    const snapshot = await services.metrics.snapshot(accountId);
    const table = await services.cashflowTables(accountId, snapshot);
    const readWhole = pages.mock.calls.length > 0;
    vi.restoreAllMocks();
    expect(snapshot.customers.map((customer) => customer.id)).toEqual(['a', 'c1', 'c2']);
    const whole = createServices(testStore.store, clock);
    const wholeSnapshot = await whole.metrics.snapshot(accountId);
    expect(cashflowContents(snapshot, table)).toEqual(
      cashflowContents(wholeSnapshot, await whole.cashflowTables(accountId, wholeSnapshot)),
    );
    return readWhole;
  }

  it('patches a table along the patches the snapshot remembers, however old the table', async () => {
    expect(await tableAfterAnHour(1)).toBe(false);
  });

  it('reads a table whole once neither the snapshot nor the store remembers what changed since', async () => {
    // Nine patches since the table's customers, one more than a snapshot remembers.
    expect(await tableAfterAnHour(8)).toBe(true);
  });

  /**
   * A second process whose build, once it has read the data version it is asked for, sees
   * customer `b` written before its refresh claims the marked customers, as when an import goes
   * on through a long refresh; with `claims: false` its refresh claims nothing, as when a write
   * commits its marks after the refresh's last claim.
   */
  async function buildPassedByAWrite(accountId: string, claims: boolean) {
    const store = testStore.store;
    let writeOnce = async () => {
      writeOnce = async () => {};
      await services.customers.upsert(accountId, [{ id: 'b', name: 'B', created_date: '2026-01-01' }]);
    };
    const passed: Store = {
      ...store,
      changes: {
        ...store.changes,
        async dataVersion(id) {
          const version = await store.changes.dataVersion(id);
          await writeOnce();
          return version;
        },
      },
      transaction: (fn) =>
        store.transaction((tx) =>
          fn(claims ? tx : { ...tx, changes: { ...tx.changes, claimDirtyCustomers: async () => [] } }),
        ),
    };
    return createServices(passed, clock).metrics;
  }

  it('is of the newest version it holds when its refresh derived writes newer than asked', async () => {
    const accountId = await newAccount();
    await services.customers.upsert(accountId, [{ id: 'a', name: 'A', created_date: '2026-01-01' }]);
    const asked = await testStore.store.changes.dataVersion(accountId);
    const metrics = await buildPassedByAWrite(accountId, true);
    const snapshot = await metrics.snapshot(accountId);
    expect(snapshot.customers.map((customer) => customer.id)).toEqual(['a', 'b']);
    // Asked for the version before b's write, it holds b derived: it is of the version after it.
    expect(snapshot.version).toBe(asked + 1);
    // So a reader of that version finds it current, and nothing is read or built again.
    expect(await metrics.snapshot(accountId)).toBe(snapshot);
  });

  it('is of the version asked for while a customer is still marked', async () => {
    const accountId = await newAccount();
    await services.customers.upsert(accountId, [{ id: 'a', name: 'A', created_date: '2026-01-01' }]);
    await services.metrics.snapshot(accountId);
    const asked = await testStore.store.changes.dataVersion(accountId);
    const metrics = await buildPassedByAWrite(accountId, false);
    const snapshot = await metrics.snapshot(accountId);
    // b is read with the customers but not derived: the snapshot does not hold b's write.
    expect(snapshot.version).toBe(asked);
  });

  it('starts the build queued behind a running one no sooner than the spacing after it', async () => {
    const accountId = await newAccount();
    const customer = (id: string) =>
      services.customers.upsert(accountId, [{ id, name: id, created_date: '2026-01-01' }]);
    await customer('a');
    // The first build's store work waits until `release`, so the second reader, after b's
    // write, finds it running; and its refresh claims no customer, so it does not hold b's write
    // (customers are read, derived or not), as when b is written after its last claim.
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let claims = false;
    const store = testStore.store;
    const gated: Store = {
      ...store,
      transaction: (fn) =>
        gate.then(() =>
          store.transaction((tx) =>
            fn(claims ? tx : { ...tx, changes: { ...tx.changes, claimDirtyCustomers: async () => [] } }),
          ),
        ),
    };
    const metrics = createServices(gated, clock, { metrics: { buildSpacingMs: 3_000 } }).metrics;
    const first = metrics.snapshot(accountId);
    await customer('b');
    const second = metrics.snapshot(accountId);
    release();
    expect((await first).customers.map((item) => item.id)).toEqual(['a', 'b']);
    claims = true;
    // The queued build waits out the spacing: a reader after one more write joins it.
    await customer('c');
    const [queued, joined] = await Promise.all([second, metrics.snapshot(accountId)]);
    expect(joined).toBe(queued);
    expect(queued.customers.map((item) => item.id)).toEqual(['a', 'b', 'c']);
  });

  it('shows a write made through another process in the next snapshot', async () => {
    const accountId = await newAccount();
    const other = createServices(testStore.store, clock);
    await services.customers.upsert(accountId, [{ id: 'x', name: 'X', created_date: '2026-01-01' }]);
    await services.metrics.snapshot(accountId);
    await other.customers.upsert(accountId, [{ id: 'y', name: 'Y', created_date: '2026-01-01' }]);
    // The other process derives the new customer itself, so this one finds nothing dirty.
    await other.metrics.snapshot(accountId);
    const snapshot = await services.metrics.snapshot(accountId);
    expect(snapshot.customers.map((customer) => customer.id)).toEqual(['x', 'y']);
  });
});
