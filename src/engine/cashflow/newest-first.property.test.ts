import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareText } from '../compare-text.js';
import type { CashflowInvoice } from './cashflow-data.js';
import { buildCashflowTable } from './cashflow-table.js';

// Few days and ids, so that a day holds many positions and ties on ids are common; ids past
// Latin-1 and past the basic plane, so that code-unit order is what is compared.
const transactionArb = fc.record({
  id: fc.constantFrom('t1', 't2', 'T3', 't€', '𝔱'),
  day: fc.integer({ min: 0, max: 3 }),
  type: fc.constantFrom('payment' as const, 'refund' as const),
  successful: fc.boolean(),
  amount: fc.integer({ min: 1, max: 5000 }),
  paymentMethod: fc.constant(null),
});
const invoiceArb: fc.Arbitrary<CashflowInvoice> = fc.record({
  id: fc.constantFrom('a', 'b', 'B', 'é', '日本', '𝔞'),
  number: fc.constant(null),
  description: fc.constant(null),
  customer: fc.constant(0),
  currency: fc.constant('usd'),
  day: fc.integer({ min: 0, max: 3 }),
  dueDay: fc.constant(null),
  paymentDay: fc.constant(null),
  status: fc.constant('open' as const),
  total: fc.integer({ min: 0, max: 5000 }),
  transactions: fc
    .array(transactionArb, { maxLength: 4 })
    .map((list) => [...list].sort((a, b) => a.day - b.day)),
});
// Tables in the order a store reads them (by id) and in any order.
const invoicesArb = fc.oneof(
  fc.array(invoiceArb, { maxLength: 30 }).map((list) => [...list].sort((a, b) => compareText(a.id, b.id))),
  fc.array(invoiceArb, { maxLength: 30 }),
);

describe('the newest-first orders', () => {
  it('are every position sorted by day descending, then invoice id, transaction id and position', () => {
    fc.assert(
      fc.property(invoicesArb, (invoices) => {
        const table = buildCashflowTable(invoices);
        const transactions = invoices.flatMap((invoice, index) =>
          invoice.transactions.map((transaction) => ({ ...transaction, invoice: index })),
        );
        const expectedTransactions = transactions
          .map((transaction, position) => ({ ...transaction, position }))
          .sort(
            (a, b) =>
              b.day - a.day ||
              compareText(invoices[a.invoice]!.id, invoices[b.invoice]!.id) ||
              compareText(a.id, b.id) ||
              a.position - b.position,
          )
          .map((transaction) => transaction.position);
        const expectedInvoices = invoices
          .map((invoice, position) => ({ ...invoice, position }))
          .sort((a, b) => b.day - a.day || compareText(a.id, b.id) || a.position - b.position)
          .map((invoice) => invoice.position);
        expect([...table.transactionsNewestFirst]).toEqual(expectedTransactions);
        expect([...table.invoicesNewestFirst]).toEqual(expectedInvoices);
      }),
      { numRuns: 500 },
    );
  });
});
