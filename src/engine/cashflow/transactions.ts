import type { CustomerView } from '../account-snapshot.js';
import { dayString } from '../days.js';
import type { FxTable } from '../fx-table.js';
import { type Period, periodsBetween } from '../periods.js';
import { percentageChange } from '../reports/summary.js';
import { roundCents } from '../rounding.js';
import {
  type CashflowQuery,
  invoiceItemFields,
  type InvoiceItemFields,
  keeps,
  toBase,
} from './cashflow-data.js';
import { type CashflowTable, firstAtOrBefore } from './cashflow-table.js';
import { dailyFlows, type Flow } from './daily-flows.js';
import { type Summary, type ToDateLayout, toDateRange, toDateSummary } from './to-date.js';

export interface TransactionsRow {
  date: string;
  end_date: string;
  payments: number;
  refund: number;
  net_amount: number;
  net_amount_change_pct: number | null;
  payment_count: number;
  refund_count: number;
}

export interface TransactionItem extends InvoiceItemFields {
  date: string;
  transaction_id: string;
  type: 'payment' | 'refund';
  result: 'successful' | 'failed';
  payment_method: string | null;
}

/** Payments and refunds rounded once each; net is their difference, so the three always agree. */
function rounded(flow: Flow) {
  const payments = roundCents(flow.payments);
  const refund = roundCents(flow.refunds);
  return { payments, refund, net_amount: payments - refund };
}

/**
 * Net cash per period (docs/metrics.md, "Cashflow"): successful payments minus successful refunds,
 * each dated by its transaction. The change is against the row before; the first row has none
 * (null).
 */
export function transactionsReport(
  table: CashflowTable,
  customers: Uint8Array | null,
  query: CashflowQuery,
  fx: FxTable,
): TransactionsRow[] {
  const daily = dailyFlows(table, customers, query, fx, query);
  let previous: number | null = null;
  return periodsBetween(query.from, query.to, query.interval).map((period) => {
    const flow = daily.between(period.start, period.end);
    const figures = rounded(flow);
    const row: TransactionsRow = {
      date: dayString(period.start),
      end_date: dayString(period.end),
      ...figures,
      net_amount_change_pct: percentageChange(figures.net_amount, previous),
      payment_count: flow.paymentCount,
      refund_count: flow.refundCount,
    };
    previous = figures.net_amount;
    return row;
  });
}

export const TRANSACTIONS_SUMMARY: ToDateLayout = {
  spans: ['mtd', 'qtd', 'ytd'],
  figures: ['payments', 'refunds', 'net_amount'],
  percent: ['payments', 'refunds', 'net_amount'],
  point: [],
};

/** Payments, refunds and net cash month, quarter and year to date, beside their twins. */
export function transactionsSummary(
  table: CashflowTable,
  customers: Uint8Array | null,
  query: Pick<CashflowQuery, 'baseCurrency' | 'fixedRateDay'> & { today: number },
  fx: FxTable,
): Summary {
  const daily = dailyFlows(table, customers, toDateRange(query.today, TRANSACTIONS_SUMMARY), fx, query);
  return toDateSummary(query.today, TRANSACTIONS_SUMMARY, (span: Period) => {
    const { payments, refund, net_amount } = rounded(daily.between(span.start, span.end));
    return { payments, refunds: refund, net_amount };
  });
}

/**
 * One page of the transactions of the range that `keep` accepts, newest first (then by
 * invoice id and transaction id), amounts in the invoice's currency and in the base currency
 * (each rounded once). The table keeps them in that order: the range is a binary search, and
 * only the page's items are built.
 */
export function transactionItems(
  table: CashflowTable,
  customers: Uint8Array | null,
  people: readonly CustomerView[],
  query: CashflowQuery,
  fx: FxTable,
  page: { offset: number; limit: number },
  keep: (table: CashflowTable, transaction: number) => boolean = () => true,
): TransactionItem[] {
  const convert = toBase(fx, query);
  const order = table.transactionsNewestFirst;
  const days = table.transactionDay;
  const items: TransactionItem[] = [];
  let skip = page.offset;
  for (
    let position = firstAtOrBefore(order, (transaction) => days[transaction]!, query.to);
    position < order.length && days[order[position]!]! >= query.from && items.length < page.limit;
    position++
  ) {
    const transaction = order[position]!;
    const invoice = table.transactionInvoice[transaction]!;
    if (!keeps(table, customers, invoice) || !keep(table, transaction)) continue;
    if (skip > 0) {
      skip -= 1;
      continue;
    }
    const method = table.transactionMethod[transaction]!;
    items.push({
      date: dayString(days[transaction]!),
      transaction_id: table.transactionId.at(transaction)!,
      type: table.isPayment(transaction) ? 'payment' : 'refund',
      result: table.isSuccessful(transaction) ? 'successful' : 'failed',
      payment_method: method < 0 ? null : table.paymentMethods[method]!,
      ...invoiceItemFields(
        table,
        invoice,
        people[table.invoiceCustomer[invoice]!]!,
        table.transactionAmount[transaction]!,
        days[transaction]!,
        convert,
      ),
    });
  }
  return items;
}
