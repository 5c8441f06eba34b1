import { describe, expect, it } from 'vitest';
import { syntheticCashflow } from '../../../bench/cashflow-synthetic.js';
import type { CashflowInvoice } from './cashflow-data.js';
import { buildCashflowTable, type CashflowTable, NO_CUSTOMER, patchCashflowTable } from './cashflow-table.js';
import { failedPaymentItems, failedPaymentsReport, failedPaymentsSummary } from './failed-payments.js';
import { failureRateReport, failureRateSummary } from './failure-rate.js';
import { invoicePage, invoiceRecords } from './invoice-details.js';
import { outstandingSummary } from './outstanding.js';
import { isRefund, refundsReport } from './refunds.js';
import { transactionItems, transactionsReport, transactionsSummary } from './transactions.js';

const { today, fx, customers, invoices } = syntheticCashflow(60, 7);
const range = {
  from: today - 3 * 365,
  to: today,
  interval: 'month' as const,
  baseCurrency: 'usd',
  fixedRateDay: null,
  today,
};
const now = { today, baseCurrency: 'usd', fixedRateDay: null };
const page = { offset: 0, limit: 1_000 };

/** Every cashflow report over a table, as its API answer would hold it. */
function reports(table: CashflowTable, mask: Uint8Array | null) {
  const shown = invoicePage(table, mask, page);
  return {
    transactions: transactionsReport(table, mask, range, fx),
    transactionsSummary: transactionsSummary(table, mask, now, fx),
    transactionItems: transactionItems(table, mask, customers, range, fx, page),
    refunds: refundsReport(table, mask, range, fx),
    refundItems: transactionItems(table, mask, customers, range, fx, page, isRefund),
    failedPayments: failedPaymentsReport(table, mask, customers, range, fx),
    failedPaymentsSummary: failedPaymentsSummary(table, mask, customers, now, fx),
    failedPaymentItems: failedPaymentItems(table, mask, customers, range, fx, page),
    failureRate: failureRateReport(table, mask, range),
    failureRateSummary: failureRateSummary(table, mask, today),
    outstanding: outstandingSummary(table, mask, now, fx),
    invoices: invoiceRecords(
      table,
      shown,
      shown.map(() => []),
      customers,
      now,
      fx,
    ),
  };
}

describe('a cashflow table patched in place', () => {
  it('gives every report what a table built whole gives', () => {
    // Customers 5 and 17 are read again: their invoices now are the old ones paid in full and
    // doubled, so a report that still counted the old ones would differ.
    const changed = new Set([5, 17]);
    const previous = buildCashflowTable(invoices);
    const fresh: CashflowInvoice[] = invoices
      .filter((invoice) => changed.has(invoice.customer))
      .map((invoice) => ({ ...invoice, id: `${invoice.id}_again`, total: invoice.total * 2 }));
    const customerOf = Int32Array.from(customers, (_, index) => (changed.has(index) ? -1 : index));
    const patched = patchCashflowTable(previous, customerOf, fresh);
    const whole = buildCashflowTable([
      ...invoices.filter((invoice) => !changed.has(invoice.customer)),
      ...fresh,
    ]);

    // The patch kept the two customers' earlier invoices in place, as invoices of no customer.
    const left = invoices.filter((invoice) => changed.has(invoice.customer)).length;
    expect(left).toBeGreaterThan(0);
    expect(patched.invoiceCount).toBe(whole.invoiceCount + left);
    expect(patched.invoiceCustomer.filter((customer) => customer === NO_CUSTOMER)).toHaveLength(left);

    const everyOther = Uint8Array.from(customers, (_, index) => index % 2);
    for (const mask of [null, everyOther]) {
      const [fromPatch, fromWhole] = [reports(patched, mask), reports(whole, mask)];
      // Items name their invoice by id, never by table position: the two agree item by item.
      expect(fromPatch).toEqual(fromWhole);
    }
  });
});
