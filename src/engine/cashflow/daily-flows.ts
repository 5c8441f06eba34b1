import { derivedCache, objectId } from '../derived-cache.js';
import type { FxTable } from '../fx-table.js';
import {
  type CashflowQuery,
  selectTransactions,
  SUCCESSFUL_TRANSACTIONS,
  transactionAmounts,
  transactionDays,
} from './cashflow-data.js';
import { type CashflowTable, NO_CUSTOMER, REFUND, SUCCESSFUL } from './cashflow-table.js';

/** Money in and money back: successful payments and refunds, unrounded cents of the base currency. */
export interface Flow {
  payments: number;
  refunds: number;
  paymentCount: number;
  refundCount: number;
}

/**
 * Successful payments and refunds per day, each day's amounts added in table order. A span's
 * flow adds its days' sums in day order, so the same days give the same sum to the last bit in
 * a series and in a summary (docs/decisions.md, "Cashflow table").
 */
export class DailyFlows {
  constructor(
    /** The day of index 0. */
    private readonly first: number,
    private readonly payments: Float64Array,
    private readonly refunds: Float64Array,
    private readonly paymentCounts: Int32Array,
    private readonly refundCounts: Int32Array,
  ) {}

  /** The flow of the days `from` to `to`, both included; days outside the ones held add nothing. */
  between(from: number, to: number): Flow {
    const flow: Flow = { payments: 0, refunds: 0, paymentCount: 0, refundCount: 0 };
    const end = Math.min(to - this.first, this.payments.length - 1);
    for (let index = Math.max(from - this.first, 0); index <= end; index++) {
      flow.payments += this.payments[index]!;
      flow.refunds += this.refunds[index]!;
      flow.paymentCount += this.paymentCounts[index]!;
      flow.refundCount += this.refundCounts[index]!;
    }
    return flow;
  }
}

/** The whole account's flows per table, rate table and base currency: the transactions and refunds reports read them. */
const accountFlows = derivedCache<CashflowTable, DailyFlows>(4);

/**
 * The flows by day of `range` of the `selected` transactions (table order), or of every
 * successful transaction of an invoice with a customer when `selected` is null.
 */
function flowsOf(
  table: CashflowTable,
  selected: Int32Array | null,
  range: { from: number; to: number },
  amountOf: (transaction: number) => number,
): DailyFlows {
  const { transactionDay, transactionFlags, transactionInvoice, invoiceCustomer } = table;
  const first = range.from;
  const days = Math.max(0, range.to - first + 1);
  const payments = new Float64Array(days);
  const refunds = new Float64Array(days);
  const paymentCounts = new Int32Array(days);
  const refundCounts = new Int32Array(days);
  const count = selected === null ? table.transactionCount : selected.length;
  for (let position = 0; position < count; position++) {
    const transaction = selected === null ? position : selected[position]!;
    const flags = transactionFlags[transaction]!;
    if ((flags & SUCCESSFUL) === 0 || invoiceCustomer[transactionInvoice[transaction]!] === NO_CUSTOMER)
      continue;
    const index = transactionDay[transaction]! - first;
    if ((flags & REFUND) === 0) {
      payments[index] = payments[index]! + amountOf(transaction);
      paymentCounts[index] = paymentCounts[index]! + 1;
    } else {
      refunds[index] = refunds[index]! + amountOf(transaction);
      refundCounts[index] = refundCounts[index]! + 1;
    }
  }
  return new DailyFlows(first, payments, refunds, paymentCounts, refundCounts);
}

/**
 * The successful transactions' flows by day over `range`, of the customers the filter mask
 * keeps. The whole account's, at each transaction's own day's rate, are made once per table
 * for every day it holds; the others only for the range.
 */
export function dailyFlows(
  table: CashflowTable,
  customers: Uint8Array | null,
  range: { from: number; to: number },
  fx: FxTable,
  query: Pick<CashflowQuery, 'baseCurrency' | 'fixedRateDay'>,
): DailyFlows {
  const amountOf = transactionAmounts(table, fx, query);
  const whole = customers === null && query.fixedRateDay === null ? transactionDays(table) : null;
  if (whole)
    return accountFlows(table, `${query.baseCurrency}|${objectId(fx)}`, () =>
      flowsOf(table, null, whole, amountOf),
    );
  return flowsOf(
    table,
    selectTransactions(table, customers, range, SUCCESSFUL_TRANSACTIONS),
    range,
    amountOf,
  );
}
