import type { CustomerView } from '../account-snapshot.js';
import { compareText } from '../compare-text.js';
import { dayString } from '../days.js';
import type { FxTable } from '../fx-table.js';
import type { InvoiceStatus } from '../types.js';
import { roundCents } from '../rounding.js';
import { type CashflowInvoice, type CashflowQuery, toBase } from './cashflow-data.js';

/** SPEC 2.10. */
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

/** Every invoice as SPEC 2.10 shows it, newest first, the total converted at the invoice date. */
export function invoiceRecords(
  invoices: readonly CashflowInvoice[],
  customers: readonly CustomerView[],
  query: Pick<CashflowQuery, 'baseCurrency' | 'fixedRateDay'>,
  fx: FxTable,
  page: { offset: number; limit: number },
): InvoiceRecord[] {
  const convert = toBase(fx, query);
  // Only the page is built: a record copies every line, and a range may hold a million invoices.
  return [...invoices]
    .sort((a, b) => b.day - a.day || compareText(a.id, b.id))
    .slice(page.offset, page.offset + page.limit)
    .map((invoice) => {
      const customer = customers[invoice.customer]!;
      return {
        invoice_ref: invoice.id,
        invoice_number: invoice.number,
        invoice_date: dayString(invoice.day),
        invoice_status: invoice.status,
        payment_date: invoice.paymentDay === null ? null : dayString(invoice.paymentDay),
        customer_id: customer.id,
        customer_name: customer.name,
        customer_email: customer.email,
        description: invoice.description,
        currency: invoice.currency,
        total: invoice.total,
        total_base_currency: roundCents(convert(invoice.total, invoice.currency, invoice.day)),
        transaction_count: invoice.transactions.length,
        lines: invoice.lines.map((line) => ({
          description: line.description,
          amount: line.amount,
          quantity: line.quantity,
          period_start: line.periodStart,
          period_end: line.periodEnd,
        })),
      };
    });
}
