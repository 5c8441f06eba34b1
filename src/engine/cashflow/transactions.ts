import type { CustomerView } from '../account-snapshot.js';
import { dayString } from '../days.js';
import type { FxTable } from '../fx-table.js';
import type { Period } from '../periods.js';
import { percentageChange } from '../reports/summary.js';
import { roundCents } from '../rounding.js';
import {
  type CashflowQuery,
  invoiceItemFields,
  type InvoiceItemFields,
  keeps,
  selectTransactions,
  seriesPeriods,
  SUCCESSFUL_TRANSACTIONS,
  toBase,
  transactionAmounts,
} from './cashflow-data.js';
import { type CashflowTable, firstAtOrBefore } from './cashflow-table.js';
import { type Summary, type ToDateLayout, toDateSummary } from './to-date.js';

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

/** Money in and money back: successful payments and refunds, unrounded cents of the base currency. */
interface Flow {
  payments: number;
  refunds: number;
  paymentCount: number;
  refundCount: number;
}

const emptyFlow = (): Flow => ({ payments: 0, refunds: 0, paymentCount: 0, refundCount: 0 });

function addTo(flow: Flow, table: CashflowTable, transaction: number, amountBase: number): void {
  if (table.isPayment(transaction)) {
    flow.payments += amountBase;
    flow.paymentCount += 1;
  } else {
    flow.refunds += amountBase;
    flow.refundCount += 1;
  }
}

/** Adds the selected transactions to the flow `slot` gives their day (none when negative), in order. */
function collect(
  table: CashflowTable,
  selected: Int32Array,
  amountOf: (transaction: number) => number,
  flows: Flow[],
  slot: (day: number) => number,
): void {
  for (const transaction of selected) {
    const index = slot(table.transactionDay[transaction]!);
    if (index >= 0) addTo(flows[index]!, table, transaction, amountOf(transaction));
  }
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
  const { periods, indexOf } = seriesPeriods(query);
  const flows = periods.map(emptyFlow);
  const selected = selectTransactions(table, customers, query, SUCCESSFUL_TRANSACTIONS);
  collect(table, selected, transactionAmounts(table, fx, query), flows, indexOf);
  let previous: number | null = null;
  return periods.map((period, index) => {
    const flow = flows[index]!;
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
  const amountOf = transactionAmounts(table, fx, query);
  return toDateSummary(query.today, TRANSACTIONS_SUMMARY, (span: Period) => {
    const flows = [emptyFlow()];
    const selected = selectTransactions(
      table,
      customers,
      { from: span.start, to: span.end },
      SUCCESSFUL_TRANSACTIONS,
    );
    collect(table, selected, amountOf, flows, () => 0);
    const { payments, refund, net_amount } = rounded(flows[0]!);
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
