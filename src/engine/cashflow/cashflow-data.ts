import type { CustomerView } from '../account-snapshot.js';
import type { FxTable } from '../fx-table.js';
import { type Interval, type Period, periodsBetween } from '../periods.js';
import { roundCents } from '../rounding.js';
import type { InvoiceStatus } from '../types.js';
import { type CashflowTable, firstAtOrBefore, NO_CUSTOMER, REFUND, SUCCESSFUL } from './cashflow-table.js';

/**
 * An account's invoices with their transactions as plain objects, which the cashflow table is
 * built from, and an invoice's lines as the invoices detail shows them. Days are day numbers,
 * money is cents of the invoice's currency.
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

/** Which transactions a selection wants: those whose flags masked by `mask` equal `value`. */
export interface TransactionKind {
  mask: number;
  value: number;
}

export const SUCCESSFUL_TRANSACTIONS: TransactionKind = { mask: SUCCESSFUL, value: SUCCESSFUL };
export const SUCCESSFUL_REFUNDS: TransactionKind = { mask: SUCCESSFUL | REFUND, value: SUCCESSFUL | REFUND };
export const PAYMENTS: TransactionKind = { mask: REFUND, value: 0 };

// Below this share of all transactions a day range reads the newest-first order and sorts what
// it found back into table order; above it one pass over the table is cheaper.
const NARROW_RANGE = 1 / 8;

/**
 * The transactions of a kind dated in `[from, to]` whose customer the filter mask keeps (all
 * without a mask), in table order: the order a day's amounts are added in (see `dailyFlows`),
 * and the order that keeps an invoice's transactions together.
 */
export function selectTransactions(
  table: CashflowTable,
  customers: Uint8Array | null,
  range: { from: number; to: number },
  kind: TransactionKind,
): Int32Array {
  const { transactionDay: days, transactionFlags: flags, transactionInvoice } = table;
  const order = table.transactionsNewestFirst;
  const first = firstAtOrBefore(order, (transaction) => days[transaction]!, range.to);
  const end = firstAtOrBefore(order, (transaction) => days[transaction]!, range.from - 1);
  const found = new Int32Array(Math.max(0, end - first));
  let count = 0;
  if (end - first < table.transactionCount * NARROW_RANGE) {
    for (let position = first; position < end; position++) {
      const transaction = order[position]!;
      if ((flags[transaction]! & kind.mask) !== kind.value) continue;
      if (!keeps(table, customers, transactionInvoice[transaction]!)) continue;
      found[count++] = transaction;
    }
    return found.subarray(0, count).sort();
  }
  for (let transaction = 0; transaction < table.transactionCount; transaction++) {
    const day = days[transaction]!;
    if (day < range.from || day > range.to || (flags[transaction]! & kind.mask) !== kind.value) continue;
    if (!keeps(table, customers, transactionInvoice[transaction]!)) continue;
    found[count++] = transaction;
  }
  return found.subarray(0, count);
}

/** Whether the invoice has a customer (see NO_CUSTOMER) and the filter mask keeps it. */
export function keeps(table: CashflowTable, customers: Uint8Array | null, invoice: number): boolean {
  const customer = table.invoiceCustomer[invoice]!;
  return customer !== NO_CUSTOMER && (customers === null || customers[customer] === 1);
}

/** Converts cents of a currency on a day into unrounded cents of the base currency. */
export function toBase(
  fx: FxTable,
  query: Pick<CashflowQuery, 'baseCurrency' | 'fixedRateDay'>,
): (amount: number, currency: string, day: number) => number {
  return (amount, currency, day) =>
    fx.convert(amount, currency, query.baseCurrency, query.fixedRateDay ?? day);
}

/**
 * Each transaction's amount in the base currency, unrounded: at its own day's rate from the
 * table's cache, or with a fixed rate day converted when asked (the same conversion).
 */
export function transactionAmounts(
  table: CashflowTable,
  fx: FxTable,
  query: Pick<CashflowQuery, 'baseCurrency' | 'fixedRateDay'>,
): (transaction: number) => number {
  const { fixedRateDay } = query;
  if (fixedRateDay === null) {
    const amounts = table.amountsIn(fx, query.baseCurrency);
    return (transaction) => amounts[transaction]!;
  }
  const converters = table.currencies.map((currency) => fx.converter(currency, query.baseCurrency));
  return (transaction) =>
    converters[table.invoiceCurrency[table.transactionInvoice[transaction]!]!]!(
      table.transactionAmount[transaction]!,
      fixedRateDay,
    );
}

/** Series up to this many days long find a day's period in a table rather than by binary search. */
const DAYS_LOOKED_UP = 40_000;

/**
 * The first and last day of the table's transactions, when there are some and they span at most
 * DAYS_LOOKED_UP days: only then are the whole account's figures kept per day for the table.
 */
export function transactionDays(table: CashflowTable): { from: number; to: number } | null {
  const order = table.transactionsNewestFirst;
  if (order.length === 0) return null;
  const from = table.transactionDay[order.at(-1)!]!;
  const to = table.transactionDay[order[0]!]!;
  return to - from < DAYS_LOOKED_UP ? { from, to } : null;
}

/**
 * The periods of a series, with a lookup of the period holding a day (-1 outside the range).
 * Reports look up every transaction's day, so a series of a usual length does it in a table.
 */
export function seriesPeriods(query: Pick<CashflowQuery, 'from' | 'to' | 'interval'>) {
  const periods: Period[] = periodsBetween(query.from, query.to, query.interval);
  const first = periods[0]?.start ?? 0;
  const days = periods.length === 0 ? 0 : periods.at(-1)!.end - first + 1;
  if (days <= DAYS_LOOKED_UP) {
    const periodOfDay = new Int32Array(days).fill(-1);
    periods.forEach((period, index) => periodOfDay.fill(index, period.start - first, period.end - first + 1));
    const indexOf = (day: number): number =>
      day < first || day >= first + days ? -1 : periodOfDay[day - first]!;
    return { periods, indexOf };
  }
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
  table: CashflowTable,
  invoice: number,
  customer: CustomerView,
  amount: number,
  day: number,
  convert: ReturnType<typeof toBase>,
): InvoiceItemFields {
  const currency = table.currencyOf(invoice);
  return {
    invoice_ref: table.invoiceId.at(invoice)!,
    invoice_number: table.invoiceNumber.at(invoice),
    customer_id: customer.id,
    customer_name: customer.name,
    customer_email: customer.email,
    currency,
    amount,
    amount_base_currency: roundCents(convert(amount, currency, day)),
  };
}
