import { describe, expect, it, vi } from 'vitest';
import { buildAccountSnapshot } from '../../src/engine/account-snapshot.js';
import { createCashflowTables } from '../../src/services/cashflow-tables.js';
import {
  type CashflowInvoiceRow,
  type InvoiceVisitor,
  visitInvoiceRows,
} from '../../src/store/cashflow-repo.js';
import type { Store } from '../../src/store/open-store.js';
import type { RecordKey } from '../../src/store/records-repo.js';
import { customerView } from '../helpers/customer-view.js';
import { deferred } from '../helpers/deferred.js';

const row = (id: string, customer: string): CashflowInvoiceRow => ({
  id,
  data_source: 'ds1',
  customer_id: customer,
  date: '2026-11-01',
  due_date: null,
  currency: 'usd',
  status: 'paid',
  number: null,
  description: null,
  payment_date: null,
  amount: 1000,
  transactions: [
    {
      id: `${id}-late`,
      date: '2026-11-03T09:00:00.000Z',
      type: 'payment',
      result: 'successful',
      amount: 1000,
      payment_method: null,
    },
    {
      id: `${id}-early`,
      date: '2026-11-02T09:00:00.000Z',
      type: 'payment',
      result: 'failed',
      amount: 1000,
      payment_method: null,
    },
  ],
});

/**
 * A store whose cashflow read counts its calls, fails when told to and waits for `gate` when
 * one is set, and that records `derived` as the customers re-derived (none by default).
 */
function fakeStore(rows: CashflowInvoiceRow[]) {
  const state = {
    reads: 0,
    fail: false,
    byCustomer: [] as string[][],
    gate: undefined as Promise<void> | undefined,
    derived: [] as RecordKey[],
  };
  const store = {
    cashflow: {
      size: () =>
        Promise.resolve({
          invoices: rows.length,
          transactions: rows.reduce((sum, row) => sum + row.transactions.length, 0),
        }),
      async eachInvoice(_accountId: string, visitor: InvoiceVisitor) {
        state.reads += 1;
        await state.gate;
        if (state.fail) throw new Error('down');
        visitInvoiceRows(rows, visitor);
      },
      invoicesOfCustomers(_accountId: string, keys: RecordKey[]) {
        state.byCustomer.push(keys.map((key) => key.id));
        return Promise.resolve(rows.filter((row) => keys.some((key) => key.id === row.customer_id)));
      },
    },
    metrics: { derivedSince: () => Promise.resolve(state.derived) },
  } as unknown as Store;
  return { store, state };
}

describe('cashflow tables', () => {
  const snapshot = (version: number) =>
    buildAccountSnapshot(version, [customerView('c1'), customerView('c2')]);

  it("builds one table per data version, from the snapshot's customers, transactions in time order", async () => {
    const { store, state } = fakeStore([row('i1', 'c2'), row('i2', 'unknown')]);
    const tables = createCashflowTables(store);
    const [first, second] = await Promise.all([tables('a', snapshot(1)), tables('a', snapshot(1))]);
    expect(first).toBe(second);
    expect(state.reads).toBe(1);
    // i2's customer is not in the snapshot; i1 belongs to c2, index 1.
    expect(first.invoiceId.toArray()).toEqual(['i1']);
    expect([...first.invoiceCustomer]).toEqual([1]);
    expect(first.transactionId.toArray()).toEqual(['i1-early', 'i1-late']);
    expect(await tables('a', snapshot(2))).not.toBe(first);
    expect(state.reads).toBe(2);
  });

  it('reads a customer the table lacks though the store recorded no change of it', async () => {
    // A snapshot read whole holds a customer written after its refresh, not derived yet.
    const { store, state } = fakeStore([row('i1', 'c1'), row('i2', 'c2')]);
    const tables = createCashflowTables(store);
    const now = Date.now();
    const first = await tables('a', buildAccountSnapshot(1, [customerView('c1')], now));
    expect(first.invoiceId.toArray()).toEqual(['i1']);
    const second = await tables('a', buildAccountSnapshot(2, [customerView('c1'), customerView('c2')], now));
    expect(state.reads).toBe(1);
    expect(state.byCustomer).toEqual([['c2']]);
    expect(second.invoiceId.toArray().sort()).toEqual(['i1', 'i2']);
    expect(second.invoiceCustomer[second.invoiceId.toArray().indexOf('i2')]).toBe(1);
  });

  it('keeps the table of the newer snapshot for its readers when an older one is asked for', async () => {
    const { store, state } = fakeStore([row('i1', 'c1')]);
    const tables = createCashflowTables(store);
    const newer = await tables('a', snapshot(2));
    await tables('a', snapshot(1));
    expect(await tables('a', snapshot(2))).toBe(newer);
    expect(state.reads).toBe(2);
  });

  it('patches the last table read after a failed patch, not the whole account again', async () => {
    const { store, state } = fakeStore([row('i1', 'c1')]);
    const tables = createCashflowTables(store);
    const now = Date.now();
    await tables('a', buildAccountSnapshot(1, [customerView('c1')], now));
    const derivedSince = vi.spyOn(store.metrics, 'derivedSince').mockRejectedValueOnce(new Error('down'));
    await expect(tables('a', buildAccountSnapshot(2, [customerView('c1')], now))).rejects.toThrow('down');
    const again = await tables('a', buildAccountSnapshot(2, [customerView('c1')], now));
    expect(again.invoiceId.toArray()).toEqual(['i1']);
    expect(derivedSince).toHaveBeenCalledTimes(2);
    expect(state.reads).toBe(1);
  });

  it('holds a table once it is read, not while it is being read', async () => {
    const { store, state } = fakeStore([row('i1', 'c1')]);
    const tables = createCashflowTables(store);
    const gate = deferred();
    state.gate = gate.promise;
    const reading = tables('a', snapshot(1));
    expect(tables.holds('a', 1)).toBe(false);
    gate.resolve();
    await reading;
    expect(tables.holds('a', 1)).toBe(true);
    expect(tables.holds('a', 2)).toBe(false);
  });

  it('reads a table whole at once, without waiting for the previous one, when a patch will not do', async () => {
    const { store, state } = fakeStore([row('i1', 'c1')]);
    const tables = createCashflowTables(store);
    const now = Date.now();
    const gate = deferred();
    state.gate = gate.promise;
    const previous = tables('a', buildAccountSnapshot(1, [customerView('c1')], now));
    // More customers re-derived since than a patch reads (2,000): an import.
    state.derived = Array.from({ length: 2001 }, (_, n) => ({ dataSourceId: 'ds1', id: `m${n}` }));
    state.gate = undefined;
    const next = await tables('a', buildAccountSnapshot(2, [customerView('c1')], now));
    expect(next.invoiceId.toArray()).toEqual(['i1']);
    expect(state.reads).toBe(2);
    gate.resolve();
    await previous;
  });

  it('reads again after a failed read', async () => {
    const { store, state } = fakeStore([row('i1', 'c1')]);
    const tables = createCashflowTables(store);
    state.fail = true;
    await expect(tables('a', snapshot(1))).rejects.toThrow('down');
    state.fail = false;
    expect((await tables('a', snapshot(1))).invoiceCount).toBe(1);
    expect(state.reads).toBe(2);
  });
});
