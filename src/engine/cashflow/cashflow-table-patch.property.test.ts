import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FxTable } from '../fx-table.js';
import type { CashflowInvoice } from './cashflow-data.js';
import { buildCashflowTable, type CashflowTable, NO_CUSTOMER, patchCashflowTable } from './cashflow-table.js';

const OLD_CUSTOMERS = 5;
const NEW_CUSTOMERS = 8;

// Few days, ids and codes, so that ties in every order and shared codes are common.
const transactionArb = fc.record({
  id: fc.constantFrom('t1', 't2', 't3', 't€'),
  day: fc.integer({ min: 0, max: 4 }),
  type: fc.constantFrom('payment' as const, 'payment' as const, 'refund' as const),
  successful: fc.boolean(),
  amount: fc.integer({ min: 1, max: 5000 }),
  paymentMethod: fc.constantFrom(null, 'card', 'sepa'),
});
const invoiceArb = (customers: number) =>
  fc.record({
    id: fc.constantFrom('a', 'b', 'c', 'd', 'é', '日本'),
    number: fc.constantFrom(null, 'N1', 'Nº2', '𝔑3'),
    description: fc.constantFrom(null, 'plan'),
    customer: fc.integer({ min: 0, max: customers - 1 }),
    currency: fc.constantFrom('usd', 'eur', 'gbp'),
    day: fc.integer({ min: 0, max: 4 }),
    dueDay: fc.constantFrom(null, 3, 9),
    paymentDay: fc.constantFrom(null, 2),
    status: fc.constantFrom('open' as const, 'paid' as const, 'void' as const),
    total: fc.integer({ min: 0, max: 5000 }),
    transactions: fc
      .array(transactionArb, { maxLength: 4 })
      .map((list) => [...list].sort((a, b) => a.day - b.day)),
  });

/** Rates that move between the generated days, so a carried amount converted on another day shows. */
const FX = FxTable.build([
  { day: '1970-01-01', currency: 'usd', perEur: 1.1 },
  { day: '1970-01-03', currency: 'usd', perEur: 1.3 },
  { day: '1970-01-01', currency: 'gbp', perEur: 0.8 },
]);

/**
 * Everything a report can read of a table, codes decoded to their values: the invoices of no
 * customer a patch left in place are left out, and positions counted without them.
 */

function contents(table: CashflowTable) {
  const invoiceAt = new Int32Array(table.invoiceCount).fill(-1);
  const transactionAt = new Int32Array(table.transactionCount).fill(-1);
  let invoiceCount = 0;
  let transactionCount = 0;
  const live = Array.from({ length: table.invoiceCount }, (_, i) => i).filter(
    (i) => table.invoiceCustomer[i] !== NO_CUSTOMER,
  );
  for (const i of live) {
    invoiceAt[i] = invoiceCount++;
    for (let t = table.transactionStart[i]!; t < table.transactionStart[i + 1]!; t++)
      transactionAt[t] = transactionCount++;
  }
  const transactionOf = (t: number) => (t < 0 ? t : transactionAt[t]);
  const invoices = live.map((i) => ({
    id: table.invoiceId.at(i),
    number: table.invoiceNumber.at(i),
    description: table.invoiceDescription.at(i),
    customer: table.invoiceCustomer[i],
    day: table.invoiceDay[i],
    due: table.dueDay[i],
    paid: table.paymentDay[i],
    status: table.statuses[table.invoiceStatus[i]!],
    total: table.invoiceTotal[i],
    currency: table.currencyOf(i),
    transactions: table.transactionStart[i + 1]! - table.transactionStart[i]!,
    firstFailure: transactionOf(table.firstFailure[i]!),
    recovery: transactionOf(table.recovery[i]!),
  }));
  const transactions = live.flatMap((i) =>
    Array.from({ length: table.transactionStart[i + 1]! - table.transactionStart[i]! }, (_, n) => {
      const t = table.transactionStart[i]! + n;
      return {
        id: table.transactionId.at(t),
        day: table.transactionDay[t],
        flags: table.transactionFlags[t],
        amount: table.transactionAmount[t],
        invoice: invoiceAt[table.transactionInvoice[t]!],
        method: table.transactionMethod[t] === -1 ? null : table.paymentMethods[table.transactionMethod[t]!],
      };
    }),
  );
  // The base amounts of every table read so far, patched or built; a patch carries them.
  const inUsd = table.amountsIn(FX, 'usd');
  return {
    invoices,
    transactions,
    amountsInUsd: live.flatMap((i) =>
      Array.from(inUsd.subarray(table.transactionStart[i], table.transactionStart[i + 1])),
    ),
    transactionsNewestFirst: Array.from(table.transactionsNewestFirst, (t) => transactionAt[t]),
    invoicesNewestFirst: Array.from(table.invoicesNewestFirst, (i) => invoiceAt[i]),
    openAndDue: Array.from(table.openAndDue, (i) => invoiceAt[i]),
    failingNewestFirst: Array.from(table.failingNewestFirst, (i) => invoiceAt[i]),
  };
}

/** A bare paid invoice of `customer`, without transactions. */
const bare = (n: number, customer: number): CashflowInvoice => ({
  id: `in_${n}`,
  number: null,
  description: null,
  customer,
  currency: 'usd',
  day: n % 30,
  dueDay: null,
  paymentDay: null,
  status: 'paid',
  total: 100,
  transactions: [],
});

describe('patchCashflowTable', () => {
  it('joins more runs of kept invoices than a call takes arguments', () => {
    // Invoices in key order alternate between two customers; the second changed: 150,000 runs.
    const previous = buildCashflowTable(Array.from({ length: 300_000 }, (_, n) => bare(n, n % 2)));
    const patched = patchCashflowTable(previous, Int32Array.from([0, -1]), [bare(300_000, 1)]);
    expect(patched.invoiceCount).toBe(150_001);
    expect(patched.invoiceId.at(1)).toBe('in_2');
    expect(patched.invoiceId.at(150_000)).toBe('in_300000');
  });

  it('extends the number columns of the table it patches in place, once, rather than copying them', () => {
    // 100 invoices of customer 0 and one of customer 1, who changes at each patch: in place.
    const invoices = [...Array.from({ length: 100 }, (_, n) => bare(n, 0)), bare(100, 1)];
    const first = patchCashflowTable(buildCashflowTable(invoices), Int32Array.from([0, -1]), [bare(101, 1)]);
    const firstAmounts = first.amountsIn(FX, 'usd');
    const second = patchCashflowTable(first, Int32Array.from([0, -1]), [bare(102, 1)]);
    expect(second.invoiceDay.buffer).toBe(first.invoiceDay.buffer);
    expect(second.invoiceTotal.buffer).toBe(first.invoiceTotal.buffer);
    // So are the failure facts and the base amounts read from the first, which a patch carries.
    expect(second.firstFailure.buffer).toBe(first.firstFailure.buffer);
    expect(second.recovery.buffer).toBe(first.recovery.buffer);
    expect(second.amountsIn(FX, 'usd').buffer).toBe(firstAmounts.buffer);
    expect([first.invoiceCount, second.invoiceCount]).toEqual([102, 103]);
    expect(first.invoiceDay.length).toBe(102);
    // A second patch of `first` finds its buffers extended by another: it copies them.
    const other = patchCashflowTable(first, Int32Array.from([0, -1]), [bare(110, 1)]);
    expect(other.invoiceDay.buffer).not.toBe(first.invoiceDay.buffer);
    expect([second.invoiceDay[102], other.invoiceDay[102]]).toEqual([102 % 30, 110 % 30]);
  });

  it('gives the table a full build of the kept invoices, renumbered, then the fresh ones would', () => {
    fc.assert(
      fc.property(
        fc.array(invoiceArb(OLD_CUSTOMERS), { maxLength: 30 }),
        // Each old customer's new index, or -1 when it changed (its invoices leave).
        fc.array(fc.integer({ min: -1, max: NEW_CUSTOMERS - 1 }), {
          minLength: OLD_CUSTOMERS,
          maxLength: OLD_CUSTOMERS,
        }),
        fc.array(invoiceArb(NEW_CUSTOMERS), { maxLength: 10 }),
        // Whether a report read the previous table's base amounts, which the patch then carries.
        fc.boolean(),
        (old, mapping, fresh, amountsRead) => {
          const previous = buildCashflowTable(old);
          if (amountsRead) previous.amountsIn(FX, 'usd');
          const customerOf = Int32Array.from(mapping);
          const kept: CashflowInvoice[] = old
            .filter((invoice) => mapping[invoice.customer]! >= 0)
            .map((invoice) => ({ ...invoice, customer: mapping[invoice.customer]! }));
          const patched = patchCashflowTable(previous, customerOf, fresh);
          expect(contents(patched)).toEqual(contents(buildCashflowTable([...kept, ...fresh])));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('patches a patched table as a full build would, and leaves every earlier table as it was', () => {
    const CUSTOMERS = 4;
    fc.assert(
      fc.property(
        fc.array(invoiceArb(CUSTOMERS), { maxLength: 30 }),
        // Each step: which customers are read again, and their invoices now.
        fc.array(
          fc.tuple(
            fc.uniqueArray(fc.integer({ min: 0, max: CUSTOMERS - 1 }), { maxLength: CUSTOMERS }),
            fc.array(invoiceArb(CUSTOMERS), { maxLength: 6 }),
          ),
          { minLength: 1, maxLength: 5 },
        ),
        fc.integer({ min: 0, max: 4 }),
        (first, steps, branchAt) => {
          const models = [first];
          const tables = [buildCashflowTable(first)];
          const seen = [contents(tables[0]!)];
          for (const [changed, invoices] of steps) {
            const fresh = invoices.filter((invoice) => changed.includes(invoice.customer));
            const customerOf = Int32Array.from({ length: CUSTOMERS }, (_, customer) =>
              changed.includes(customer) ? -1 : customer,
            );
            const patched = patchCashflowTable(tables.at(-1)!, customerOf, fresh);
            const model = [
              ...models.at(-1)!.filter((invoice) => !changed.includes(invoice.customer)),
              ...fresh,
            ];
            expect(contents(patched)).toEqual(contents(buildCashflowTable(model)));
            models.push(model);
            tables.push(patched);
            seen.push(contents(patched));
          }
          // A table patched again after a later one was patched from it (a failed read retried):
          // the later one extended its string columns, which this patch must not take as its own.
          const k = Math.min(branchAt, tables.length - 1);
          const identity = Int32Array.from({ length: CUSTOMERS }, (_, customer) => customer);
          const again = patchCashflowTable(tables[k]!, identity, [bare(99, 0)]);
          expect(contents(again)).toEqual(contents(buildCashflowTable([...models[k]!, bare(99, 0)])));
          expect(tables.map(contents)).toEqual(seen);
        },
      ),
      { numRuns: 500 },
    );
  });
});
