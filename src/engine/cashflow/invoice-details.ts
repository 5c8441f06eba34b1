import type { CustomerView } from '../account-snapshot.js';
import { dayString } from '../days.js';
import type { FxTable } from '../fx-table.js';
import type { InvoiceStatus } from '../types.js';
import { roundCents } from '../rounding.js';
import { type CashflowLine, type CashflowQuery, keeps, toBase } from './cashflow-data.js';
import { type CashflowTable, NO_DAY } from './cashflow-table.js';

/** An invoice as /reports/invoices-detail lists it. */
export interface InvoiceRecord {
  invoice_ref: string;
  invoice_number: string | null;
  invoice_date: string;
  invoice_status: InvoiceStatus;
  payment_date: string | null;
  customer_id: string;
  customer_name: string | null;
  customer_email: string | null;
  description: string | null;
  currency: string;
  total: number;
  total_base_currency: number;
  transaction_count: number;
  lines: {
    description: string | null;
    amount: number;
    quantity: number;
    period_start: string | null;
    period_end: string | null;
  }[];
}

/** The invoices of one page, newest first (then by invoice id), of the customers the mask keeps. */
export function invoicePage(
  table: CashflowTable,
  customers: Uint8Array | null,
  page: { offset: number; limit: number },
): number[] {
  const found: number[] = [];
  let skip = page.offset;
  for (const invoice of table.invoicesNewestFirst) {
    if (found.length === page.limit) break;
    if (!keeps(table, customers, invoice)) continue;
    if (skip > 0) skip -= 1;
    else found.push(invoice);
  }
  return found;
}

/**
 * The invoices of a page as /reports/invoices-detail shows them, the total converted at the invoice
 * date. `lines` holds each one's lines, in the page's order: the store reads them for the page
 * only.
 */
export function invoiceRecords(
  table: CashflowTable,
  invoices: readonly number[],
  lines: readonly (readonly CashflowLine[])[],
  people: readonly CustomerView[],
  query: Pick<CashflowQuery, 'baseCurrency' | 'fixedRateDay'>,
  fx: FxTable,
): InvoiceRecord[] {
  const convert = toBase(fx, query);
  return invoices.map((invoice, index) => {
    const customer = people[table.invoiceCustomer[invoice]!]!;
    const currency = table.currencyOf(invoice);
    const day = table.invoiceDay[invoice]!;
    const paymentDay = table.paymentDay[invoice]!;
    const total = table.invoiceTotal[invoice]!;
    return {
      invoice_ref: table.invoiceId.at(invoice)!,
      invoice_number: table.invoiceNumber.at(invoice),
      invoice_date: dayString(day),
      invoice_status: table.statuses[table.invoiceStatus[invoice]!]!,
      payment_date: paymentDay === NO_DAY ? null : dayString(paymentDay),
      customer_id: customer.id,
      customer_name: customer.name,
      customer_email: customer.email,
      description: table.invoiceDescription.at(invoice),
      currency,
      total,
      total_base_currency: roundCents(convert(total, currency, day)),
      transaction_count: table.transactionStart[invoice + 1]! - table.transactionStart[invoice]!,
      lines: lines[index]!.map((line) => ({
        description: line.description,
        amount: line.amount,
        quantity: line.quantity,
        period_start: line.periodStart,
        period_end: line.periodEnd,
      })),
    };
  });
}
