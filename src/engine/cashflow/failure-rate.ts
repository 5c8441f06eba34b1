import { dayString } from '../days.js';
import type { Period } from '../periods.js';
import { type CashflowQuery, PAYMENTS, selectTransactions, seriesPeriods } from './cashflow-data.js';
import type { CashflowTable } from './cashflow-table.js';
import { dailyAttempts } from './daily-attempts.js';
import { type Summary, type ToDateLayout, percentOf, percentOrZero, toDateSummary } from './to-date.js';

export interface FailureRateRow {
  date: string;
  end_date: string;
  /** The same as `date`: the hosted service's clients read this name. */
  period: string;
  currency: string;
  attempted_invoices: number;
  failed_invoices: number;
  /** Percent, two decimals; 0 for a period without any payment attempt (attempted_invoices tells). */
  failure_rate: number;
}

export interface FailureCounts {
  /** Invoices with a payment attempt, successful or not, in the span. */
  attempted: number;
  /** Invoices whose first failed attempt is in the span: always among the attempted. */
  failed: number;
}

/** The customers a filter mask keeps as group 0, the others left out. */
const oneGroup =
  (customers: Uint8Array | null) =>
  (customer: number): number =>
    customers === null || customers[customer] === 1 ? 0 : -1;

/** Attempted and failed invoices of a span (failure rate = failed / attempted, docs/metrics.md "Cashflow"). */
export function failureCounts(
  table: CashflowTable,
  customers: Uint8Array | null,
  span: Period,
): FailureCounts {
  const daily = customers === null ? dailyAttempts(table) : null;
  if (daily) return daily.between(span.start, span.end);
  return countsByGroupAndPeriod(
    table,
    { from: span.start, to: span.end },
    oneGroup(customers),
    1,
    1,
    () => 0,
  )[0]!;
}

/** The counts of a span per group of customers (`groupOf` is -1 for a customer left out). */
export function failureCountsByGroup(
  table: CashflowTable,
  groupOf: Int32Array,
  groupCount: number,
  span: Period,
): FailureCounts[] {
  return countsByGroupAndPeriod(
    table,
    { from: span.start, to: span.end },
    (customer) => groupOf[customer]!,
    groupCount,
    1,
    () => 0,
  );
}

/**
 * Attempted and failed invoices of each group and period (`counts[group * periodCount +
 * period]`) of `range`, in one pass over its payments: for a filter or groups, or a table whose
 * days are not kept (`dailyAttempts` counts the whole account's).
 */
function countsByGroupAndPeriod(
  table: CashflowTable,
  range: { from: number; to: number },
  groupOf: (customer: number) => number,
  groupCount: number,
  periodCount: number,
  indexOf: (day: number) => number,
): FailureCounts[] {
  const counts = Array.from({ length: groupCount * periodCount }, () => ({ attempted: 0, failed: 0 }));
  // The last invoice counted as attempted in each slot: an invoice counts once per period, and
  // the selection keeps an invoice's payments together.
  const lastAttempted = new Int32Array(counts.length).fill(-1);
  const { transactionDay, transactionInvoice, invoiceCustomer, firstFailure } = table;
  for (const payment of selectTransactions(table, null, range, PAYMENTS)) {
    const invoice = transactionInvoice[payment]!;
    const group = groupOf(invoiceCustomer[invoice]!);
    const period = indexOf(transactionDay[payment]!);
    if (group < 0 || period < 0) continue;
    const slot = group * periodCount + period;
    if (lastAttempted[slot] !== invoice) {
      lastAttempted[slot] = invoice;
      counts[slot]!.attempted += 1;
    }
    if (firstFailure[invoice] === payment) counts[slot]!.failed += 1;
  }
  return counts;
}

/** The failure rate per period of the range. */
export function failureRateReport(
  table: CashflowTable,
  customers: Uint8Array | null,
  query: CashflowQuery,
): FailureRateRow[] {
  const { periods, indexOf } = seriesPeriods(query);
  const daily = customers === null ? dailyAttempts(table) : null;
  const counts = daily
    ? periods.map((period) => daily.between(period.start, period.end))
    : countsByGroupAndPeriod(table, query, oneGroup(customers), 1, periods.length, indexOf);
  return periods.map((period, index) => {
    const { attempted, failed } = counts[index]!;
    return {
      date: dayString(period.start),
      end_date: dayString(period.end),
      period: dayString(period.start),
      currency: query.baseCurrency,
      attempted_invoices: attempted,
      failed_invoices: failed,
      failure_rate: percentOrZero(failed, attempted),
    };
  });
}

export const FAILURE_RATE_SUMMARY: ToDateLayout = {
  spans: ['mtd', 'qtd', 'ytd'],
  figures: ['failure_rate', 'failed_invoices', 'attempted_invoices'],
  percent: [],
  point: ['failure_rate'],
};

/** The failure rate month, quarter and year to date beside their twins, with absolute changes. */
export function failureRateSummary(
  table: CashflowTable,
  customers: Uint8Array | null,
  today: number,
): Summary {
  return toDateSummary(today, FAILURE_RATE_SUMMARY, (span) => {
    const { attempted, failed } = failureCounts(table, customers, span);
    return {
      failure_rate: percentOf(failed, attempted),
      failed_invoices: failed,
      attempted_invoices: attempted,
    };
  });
}
