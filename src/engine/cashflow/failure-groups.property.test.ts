import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CashflowInvoice } from './cashflow-data.js';
import { buildCashflowTable } from './cashflow-table.js';
import { failureCounts, failureCountsByGroup } from './failure-rate.js';

const CUSTOMERS = 4;

const transactionArb = fc.record({
  day: fc.integer({ min: 0, max: 20 }),
  type: fc.constantFrom('payment' as const, 'payment' as const, 'refund' as const),
  successful: fc.boolean(),
});
const invoiceArb = fc.record({
  customer: fc.integer({ min: 0, max: CUSTOMERS - 1 }),
  transactions: fc.array(transactionArb, { maxLength: 4 }),
});

function invoiceOf(
  raw: { customer: number; transactions: { day: number; type: 'payment' | 'refund'; successful: boolean }[] },
  n: number,
): CashflowInvoice {
  return {
    id: `i${n}`,
    number: null,
    description: null,
    customer: raw.customer,
    currency: 'usd',
    day: 0,
    dueDay: null,
    paymentDay: null,
    status: 'open',
    total: 1000,
    transactions: [...raw.transactions]
      .sort((a, b) => a.day - b.day)
      .map((transaction, k) => ({ id: `t${n}.${k}`, amount: 1000, paymentMethod: null, ...transaction })),
  };
}

describe('failureCountsByGroup', () => {
  it('counts as failureCounts does over the invoices of each group', () => {
    fc.assert(
      fc.property(
        fc.array(invoiceArb, { maxLength: 25 }),
        fc.array(fc.integer({ min: -1, max: 2 }), { minLength: CUSTOMERS, maxLength: CUSTOMERS }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 10 }),
        (raw, groups, start, length) => {
          const table = buildCashflowTable(raw.map(invoiceOf));
          const span = { start, end: start + length };
          const expected = [0, 1, 2].map((group) =>
            failureCounts(
              table,
              Uint8Array.from(groups, (of) => (of === group ? 1 : 0)),
              span,
            ),
          );
          expect(failureCountsByGroup(table, Int32Array.from(groups), 3, span)).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
