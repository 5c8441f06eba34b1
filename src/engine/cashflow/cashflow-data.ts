import type { CustomerView } from '../account-snapshot.js';
import type { FxTable } from '../fx-table.js';
import { type Interval, type Period, periodsBetween } from '../periods.js';
import { roundCents } from '../rounding.js';
import type { InvoiceStatus } from '../types.js';

/**
 * What the cashflow reports read: an account's invoices with their lines and transactions,
 * as plain arrays. Days are day numbers, money is cents of the invoice's currency.
 */
export interface CashflowTransaction {
  id: string;
  day: number;
  type: 'payment' | 'refund';
  successful: boolean;
  amount: number;
  paymentMethod: string | null;
}

export interface CashflowLine {
  description: string | null;
  amount: number;
  quantity: number;
  /** `YYYY-MM-DD` as stored: invoices-detail shows them and nothing computes with them. */
  periodStart: string | null;
  periodEnd: string | null;
}

export interface CashflowInvoice {
  id: string;
  number: string | null;
  description: string | null;
  /** Index of the invoice's customer in the account snapshot. */
  customer: number;
  currency: string;
  day: number;
  dueDay: number | null;
  paymentDay: number | null;
  status: InvoiceStatus;
  total: number;
  lines: readonly CashflowLine[];
  /** In time order. */
  transactions: readonly CashflowTransaction[];
}

/** The part of a ReportQuery the cashflow reports read. */
export interface CashflowQuery {
  from: number;
  to: number;
  interval: Interval;
  baseCurrency: string;
  /** Convert every amount at this day's rate; null converts each at the rate of its own day. */
  fixedRateDay: number | null;
}

/** The invoices of the customers a filter mask keeps (every invoice without a mask). */
export function invoicesOf(
  invoices: readonly CashflowInvoice[],
  customers: Uint8Array | null,
): readonly CashflowInvoice[] {
  return customers === null ? invoices : invoices.filter((invoice) => customers[invoice.customer] === 1);
}

/** Converts cents of a currency on a day into unrounded cents of the base currency. */
export function toBase(
  fx: FxTable,
  query: Pick<CashflowQuery, 'baseCurrency' | 'fixedRateDay'>,
): (amount: number, currency: string, day: number) => number {
  return (amount, currency, day) =>
    fx.convert(amount, currency, query.baseCurrency, query.fixedRateDay ?? day);
}

/** The periods of a series, with a lookup of the period holding a day (-1 outside the range). */
export function seriesPeriods(query: Pick<CashflowQuery, 'from' | 'to' | 'interval'>) {
  const periods: Period[] = periodsBetween(query.from, query.to, query.interval);
  const indexOf = (day: number): number => {
    let low = 0;
    let high = periods.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const period = periods[middle]!;
      if (day < period.start) high = middle - 1;
      else if (day > period.end) low = middle + 1;
      else return middle;
    }
    return -1;
  };
  return { periods, indexOf };
}

export const inSpan = (day: number, span: Period): boolean => day >= span.start && day <= span.end;

/** What every listed cashflow item says of its invoice, its customer and its amount. */
export interface InvoiceItemFields {
  invoice_ref: string;
  invoice_number: string | null;
  customer_id: string;
  customer_name: string | null;
  customer_email: string | null;
  currency: string;
  amount: number;
  amount_base_currency: number;
}

/** Those fields for `amount` cents of the invoice's currency on `day`, converted once and rounded. */
export function invoiceItemFields(
  invoice: CashflowInvoice,
  customer: CustomerView,
  amount: number,
  day: number,
  convert: ReturnType<typeof toBase>,
): InvoiceItemFields {
  return {
    invoice_ref: invoice.id,
    invoice_number: invoice.number,
    customer_id: customer.id,
    customer_name: customer.name,
    customer_email: customer.email,
    currency: invoice.currency,
    amount,
    amount_base_currency: roundCents(convert(amount, invoice.currency, day)),
  };
}
