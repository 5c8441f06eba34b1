import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayNumber } from '../days.js';
import type { CashflowInvoice } from './cashflow-data.js';
import { buildCashflowTable } from './cashflow-table.js';
import { failureCounts, failureCountsByGroup, failureRateReport } from './failure-rate.js';

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

describe('failureRateReport', () => {
  it('counts each invoice once in every week it has a payment in, and once where its first payment failed', () => {
    // Days before 1970 too: day numbers below zero.
    const shifted = fc.record({ invoice: invoiceArb, by: fc.integer({ min: -20, max: 0 }) });
    fc.assert(
      fc.property(fc.array(shifted, { maxLength: 25 }), fc.integer({ min: -20, max: 20 }), (raw, from) => {
        const invoices = raw.map(({ invoice, by }, n) => {
          const made = invoiceOf(invoice, n);
          return { ...made, transactions: made.transactions.map((t) => ({ ...t, day: t.day + by })) };
        });
        const table = buildCashflowTable(invoices);
        const query = { from, to: 20, interval: 'week' as const, baseCurrency: 'usd', fixedRateDay: null };
        const everyone = new Uint8Array(CUSTOMERS).fill(1);
        // The whole account's counts come from the table's days, a filter's from a pass: both agree.
        const rows = failureRateReport(table, null, query);
        expect(failureRateReport(table, everyone, query)).toEqual(rows);
        // Counted from the invoices themselves: days are day numbers, the rows' periods are weeks.
        const inRow = (day: number, row: { date: string; end_date: string }) =>
          day >= Math.max(from, dayNumber(row.date)) && day <= dayNumber(row.end_date);
        const expected = rows.map((row) => ({
          attempted: invoices.filter((invoice) =>
            invoice.transactions.some((t) => t.type === 'payment' && inRow(t.day, row)),
          ).length,
          failed: invoices.filter((invoice) => {
            const first = invoice.transactions.find((t) => t.type === 'payment' && !t.successful);
            return first !== undefined && inRow(first.day, row);
          }).length,
        }));
        expect(
          rows.map((row) => ({ attempted: row.attempted_invoices, failed: row.failed_invoices })),
        ).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
