import { dayString } from '../days.js';
import type { FxTable } from '../fx-table.js';
import { roundCents } from '../rounding.js';
import {
  type CashflowQuery,
  selectTransactions,
  seriesPeriods,
  SUCCESSFUL_REFUNDS,
  transactionAmounts,
} from './cashflow-data.js';
import type { CashflowTable } from './cashflow-table.js';

export interface RefundsRow {
  date: string;
  end_date: string;
  refund_amount: number;
  refund_count: number;
  customers_refunded: number;
}

/** Money given back: successful refund transactions. */
export const isRefund = (table: CashflowTable, transaction: number): boolean =>
  (table.transactionFlags[transaction]! & SUCCESSFUL_REFUNDS.mask) === SUCCESSFUL_REFUNDS.value;

/** Refunds per period, dated by the refund transaction, with the distinct customers refunded. */
export function refundsReport(
  table: CashflowTable,
  customers: Uint8Array | null,
  query: CashflowQuery,
  fx: FxTable,
): RefundsRow[] {
  const { periods, indexOf } = seriesPeriods(query);
  const amountOf = transactionAmounts(table, fx, query);
  const totals = periods.map(() => ({ amount: 0, count: 0, customers: new Set<number>() }));
  for (const transaction of selectTransactions(table, customers, query, SUCCESSFUL_REFUNDS)) {
    const total = totals[indexOf(table.transactionDay[transaction]!)]!;
    total.amount += amountOf(transaction);
    total.count += 1;
    total.customers.add(table.invoiceCustomer[table.transactionInvoice[transaction]!]!);
  }
  return periods.map((period, index) => ({
    date: dayString(period.start),
    end_date: dayString(period.end),
    refund_amount: roundCents(totals[index]!.amount),
    refund_count: totals[index]!.count,
    customers_refunded: totals[index]!.customers.size,
  }));
}
