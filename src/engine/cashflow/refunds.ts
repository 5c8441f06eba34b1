import { dayString } from '../days.js';
import type { FxTable } from '../fx-table.js';
import { roundCents } from '../rounding.js';
import {
  type CashflowQuery,
  selectTransactions,
  seriesPeriods,
  SUCCESSFUL_REFUNDS,
} from './cashflow-data.js';
import type { CashflowTable } from './cashflow-table.js';
import { dailyFlows } from './daily-flows.js';

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

/**
 * Refunds per period, dated by the refund transaction, with the distinct customers refunded.
 * Amounts and counts are the daily flows' that the transactions report shows as `refund`.
 */
export function refundsReport(
  table: CashflowTable,
  customers: Uint8Array | null,
  query: CashflowQuery,
  fx: FxTable,
): RefundsRow[] {
  const { periods, indexOf } = seriesPeriods(query);
  const refunded = periods.map(() => new Set<number>());
  for (const transaction of selectTransactions(table, customers, query, SUCCESSFUL_REFUNDS)) {
    refunded[indexOf(table.transactionDay[transaction]!)]!.add(
      table.invoiceCustomer[table.transactionInvoice[transaction]!]!,
    );
  }
  const daily = dailyFlows(table, customers, query, fx, query);
  return periods.map((period, index) => {
    const flow = daily.between(period.start, period.end);
    return {
      date: dayString(period.start),
      end_date: dayString(period.end),
      refund_amount: roundCents(flow.refunds),
      refund_count: flow.refundCount,
      customers_refunded: refunded[index]!.size,
    };
  });
}
