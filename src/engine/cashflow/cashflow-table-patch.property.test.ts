import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CashflowInvoice } from './cashflow-data.js';
import { buildCashflowTable, type CashflowTable, patchCashflowTable } from './cashflow-table.js';

const OLD_CUSTOMERS = 5;
const NEW_CUSTOMERS = 8;

// Few days, ids and codes, so that ties in every order and shared codes are common.
const transactionArb = fc.record({
  id: fc.constantFrom('t1', 't2', 't3'),
  day: fc.integer({ min: 0, max: 4 }),
  type: fc.constantFrom('payment' as const, 'payment' as const, 'refund' as const),
  successful: fc.boolean(),
  amount: fc.integer({ min: 1, max: 5000 }),
  paymentMethod: fc.constantFrom(null, 'card', 'sepa'),
});
const invoiceArb = (customers: number) =>
  fc.record({
    id: fc.constantFrom('a', 'b', 'c', 'd'),
    number: fc.constantFrom(null, 'N1'),
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

/** Everything a report can read of a table, codes decoded to their values. */
function contents(table: CashflowTable) {
  const invoices = Array.from({ length: table.invoiceCount }, (_, i) => ({
    id: table.invoiceId[i],
    number: table.invoiceNumber[i],
    description: table.invoiceDescription[i],
    customer: table.invoiceCustomer[i],
    day: table.invoiceDay[i],
    due: table.dueDay[i],
    paid: table.paymentDay[i],
    status: table.statuses[table.invoiceStatus[i]!],
    total: table.invoiceTotal[i],
    currency: table.currencyOf(i),
    transactions: [table.transactionStart[i], table.transactionStart[i + 1]],
    firstFailure: table.firstFailure[i],
    recovery: table.recovery[i],
  }));
  const transactions = Array.from({ length: table.transactionCount }, (_, t) => ({
    id: table.transactionId[t],
    day: table.transactionDay[t],
    flags: table.transactionFlags[t],
    amount: table.transactionAmount[t],
    invoice: table.transactionInvoice[t],
    method: table.transactionMethod[t] === -1 ? null : table.paymentMethods[table.transactionMethod[t]!],
  }));
  return {
    invoices,
    transactions,
    transactionsNewestFirst: [...table.transactionsNewestFirst],
    invoicesNewestFirst: [...table.invoicesNewestFirst],
    openAndDue: [...table.openAndDue],
    failingNewestFirst: [...table.failingNewestFirst],
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
    expect(patched.invoiceId[1]).toBe('in_2');
    expect(patched.invoiceId[150_000]).toBe('in_300000');
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
        (old, mapping, fresh) => {
          const previous = buildCashflowTable(old);
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
});
