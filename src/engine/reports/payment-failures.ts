import type { CashflowInvoice } from '../cashflow/cashflow-data.js';
import type { FailureCounts } from '../cashflow/failure-rate.js';
import { derivedCache } from '../derived-cache.js';
import type { Period } from '../periods.js';

/** Marks an invoice without a failed payment. */
const NO_FAILURE = 2 ** 31 - 1;

/**
 * What the failure rate reads of each invoice, as columns: its customer, the day of its first
 * failed payment (NO_FAILURE without one), and the days of its payment attempts, those of
 * invoice n at `paymentDays[paymentStart[n] .. paymentStart[n + 1]]`.
 */
interface PaymentColumns {
  customer: Int32Array;
  firstFailure: Int32Array;
  paymentStart: Int32Array;
  paymentDays: Int32Array;
}

const columnsCache = derivedCache<readonly CashflowInvoice[], PaymentColumns>(1);

function paymentColumns(invoices: readonly CashflowInvoice[]): PaymentColumns {
  return columnsCache(invoices, 'payments', () => {
    const firstFailure = new Int32Array(invoices.length).fill(NO_FAILURE);
    const paymentStart = new Int32Array(invoices.length + 1);
    const days: number[] = [];
    invoices.forEach((invoice, n) => {
      for (const transaction of invoice.transactions) {
        if (transaction.type !== 'payment') continue;
        days.push(transaction.day);
        if (!transaction.successful && firstFailure[n] === NO_FAILURE) firstFailure[n] = transaction.day;
      }
      paymentStart[n + 1] = days.length;
    });
    return {
      customer: Int32Array.from(invoices, (invoice) => invoice.customer),
      firstFailure,
      paymentStart,
      paymentDays: Int32Array.from(days),
    };
  });
}

/**
 * `failureCounts` of each group's invoices over `span` (invoices of customers in group -1 left
 * out), in one pass over columns built once per set of invoices instead of a pass over every
 * invoice's transactions per group and call.
 */
export function failureCountsByGroup(
  invoices: readonly CashflowInvoice[],
  groupOf: Int32Array,
  groupCount: number,
  span: Period,
): FailureCounts[] {
  const { customer, firstFailure, paymentStart, paymentDays } = paymentColumns(invoices);
  const attempted = new Int32Array(groupCount);
  const failed = new Int32Array(groupCount);
  for (let n = 0; n < customer.length; n++) {
    const group = groupOf[customer[n]!]!;
    if (group < 0) continue;
    for (let k = paymentStart[n]!; k < paymentStart[n + 1]!; k++) {
      if (paymentDays[k]! >= span.start && paymentDays[k]! <= span.end) {
        attempted[group]! += 1;
        break;
      }
    }
    // The first failure is a payment attempt, so an invoice failed in the span was attempted in it.
    if (firstFailure[n]! >= span.start && firstFailure[n]! <= span.end) failed[group]! += 1;
  }
  return Array.from({ length: groupCount }, (_, group) => ({
    attempted: attempted[group]!,
    failed: failed[group]!,
  }));
}
