import { dayString } from '../days.js';
import type { FxTable } from '../fx-table.js';
import { roundCents } from '../rounding.js';
import {
  type CashflowInvoice,
  type CashflowQuery,
  type CashflowTransaction,
  seriesPeriods,
  toBase,
} from './cashflow-data.js';

export interface RefundsRow {
  date: string;
  end_date: string;
  refund_amount: number;
  refund_count: number;
  customers_refunded: number;
}

/** Money given back: successful refund transactions. */
export const isRefund = (transaction: CashflowTransaction): boolean =>
  transaction.type === 'refund' && transaction.successful;

/** Refunds per period, dated by the refund transaction, with the distinct customers refunded. */
export function refundsReport(
  invoices: readonly CashflowInvoice[],
  query: CashflowQuery,
  fx: FxTable,
): RefundsRow[] {
  const { periods, indexOf } = seriesPeriods(query);
  const convert = toBase(fx, query);
  const totals = periods.map(() => ({ amount: 0, count: 0, customers: new Set<number>() }));
  for (const invoice of invoices) {
    for (const transaction of invoice.transactions) {
      const index = isRefund(transaction) ? indexOf(transaction.day) : -1;
      if (index < 0) continue;
      const total = totals[index]!;
      total.amount += convert(transaction.amount, invoice.currency, transaction.day);
      total.count += 1;
      total.customers.add(invoice.customer);
    }
  }
  return periods.map((period, index) => ({
    date: dayString(period.start),
    end_date: dayString(period.end),
    refund_amount: roundCents(totals[index]!.amount),
    refund_count: totals[index]!.count,
    customers_refunded: totals[index]!.customers.size,
  }));
}
