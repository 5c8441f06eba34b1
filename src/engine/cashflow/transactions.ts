import type { CustomerView } from '../account-snapshot.js';
import { compareText } from '../compare-text.js';
import { dayString } from '../days.js';
import type { FxTable } from '../fx-table.js';
import type { Period } from '../periods.js';
import { percentageChange } from '../reports/summary.js';
import { roundCents } from '../rounding.js';
import {
  type CashflowInvoice,
  type CashflowQuery,
  type CashflowTransaction,
  inSpan,
  seriesPeriods,
  toBase,
  type InvoiceItemFields,
  invoiceItemFields,
} from './cashflow-data.js';
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

function addTo(flow: Flow, transaction: CashflowTransaction, amountBase: number): void {
  if (transaction.type === 'payment') {
    flow.payments += amountBase;
    flow.paymentCount += 1;
  } else {
    flow.refunds += amountBase;
    flow.refundCount += 1;
  }
}

/** Every successful transaction with the period index `slot` gives it (skipped when negative). */
function collect(
  invoices: readonly CashflowInvoice[],
  query: Pick<CashflowQuery, 'baseCurrency' | 'fixedRateDay'>,
  fx: FxTable,
  flows: Flow[],
  slot: (day: number) => number,
): void {
  const convert = toBase(fx, query);
  for (const invoice of invoices) {
    for (const transaction of invoice.transactions) {
      const index = transaction.successful ? slot(transaction.day) : -1;
      if (index >= 0)
        addTo(flows[index]!, transaction, convert(transaction.amount, invoice.currency, transaction.day));
    }
  }
}

/** Payments and refunds rounded once each; net is their difference, so the three always agree. */
function rounded(flow: Flow) {
  const payments = roundCents(flow.payments);
  const refund = roundCents(flow.refunds);
  return { payments, refund, net_amount: payments - refund };
}

/**
 * Net cash per period (DESIGN 4.9): successful payments minus successful refunds, each dated
 * by its transaction. The change is against the row before; the first row has none (null).
 */
export function transactionsReport(
  invoices: readonly CashflowInvoice[],
  query: CashflowQuery,
  fx: FxTable,
): TransactionsRow[] {
  const { periods, indexOf } = seriesPeriods(query);
  const flows = periods.map(emptyFlow);
  collect(invoices, query, fx, flows, indexOf);
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
  invoices: readonly CashflowInvoice[],
  query: Pick<CashflowQuery, 'baseCurrency' | 'fixedRateDay'> & { today: number },
  fx: FxTable,
): Summary {
  return toDateSummary(query.today, TRANSACTIONS_SUMMARY, (span: Period) => {
    const flows = [emptyFlow()];
    collect(invoices, query, fx, flows, (day) => (inSpan(day, span) ? 0 : -1));
    const { payments, refund, net_amount } = rounded(flows[0]!);
    return { payments, refunds: refund, net_amount };
  });
}

/**
 * One page of the transactions of the range that `keep` accepts, newest first, amounts in the
 * invoice's currency and in the base currency (each rounded once). Only the page's items are
 * built: a range may hold a million transactions.
 */
export function transactionItems(
  invoices: readonly CashflowInvoice[],
  customers: readonly CustomerView[],
  query: CashflowQuery,
  fx: FxTable,
  page: { offset: number; limit: number },
  keep: (transaction: CashflowTransaction) => boolean = () => true,
): TransactionItem[] {
  const convert = toBase(fx, query);
  const found: { invoice: CashflowInvoice; transaction: CashflowTransaction }[] = [];
  for (const invoice of invoices) {
    for (const transaction of invoice.transactions) {
      if (transaction.day >= query.from && transaction.day <= query.to && keep(transaction))
        found.push({ invoice, transaction });
    }
  }
  return found
    .sort(
      (a, b) =>
        b.transaction.day - a.transaction.day ||
        compareText(a.invoice.id, b.invoice.id) ||
        compareText(a.transaction.id, b.transaction.id),
    )
    .slice(page.offset, page.offset + page.limit)
    .map(({ invoice, transaction }) => ({
      date: dayString(transaction.day),
      transaction_id: transaction.id,
      type: transaction.type,
      result: transaction.successful ? ('successful' as const) : ('failed' as const),
      payment_method: transaction.paymentMethod,
      ...invoiceItemFields(
        invoice,
        customers[invoice.customer]!,
        transaction.amount,
        transaction.day,
        convert,
      ),
    }));
}
