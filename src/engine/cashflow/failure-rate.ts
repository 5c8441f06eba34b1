import { dayString } from '../days.js';
import type { Period } from '../periods.js';
import { type CashflowInvoice, type CashflowQuery, inSpan, seriesPeriods } from './cashflow-data.js';
import { type Summary, type ToDateLayout, percentOf, toDateSummary } from './to-date.js';

export interface FailureRateRow {
  date: string;
  end_date: string;
  currency: string;
  attempted_invoices: number;
  failed_invoices: number;
  /** Percent, two decimals; null for a period without any payment attempt. */
  failure_rate: number | null;
}

export interface FailureCounts {
  /** Invoices with a payment attempt, successful or not, in the span. */
  attempted: number;
  /** Invoices whose first failed attempt is in the span: always among the attempted. */
  failed: number;
}

/** Attempted and failed invoices of a span (DESIGN 4.9: failure rate = failed / attempted). */
export function failureCounts(invoices: readonly CashflowInvoice[], span: Period): FailureCounts {
  const [counts] = countsByPeriod(invoices, [span], (day) => (inSpan(day, span) ? 0 : -1));
  return counts!;
}

/**
 * Attempted and failed invoices of each period, in one pass and without copying transactions:
 * the summaries and series run this over every invoice of the account.
 */
function countsByPeriod(
  invoices: readonly CashflowInvoice[],
  periods: readonly Period[],
  indexOf: (day: number) => number,
): FailureCounts[] {
  const counts = periods.map(() => ({ attempted: 0, failed: 0 }));
  // The last invoice counted as attempted in each period: an invoice counts once per period.
  const lastAttempted = new Int32Array(periods.length).fill(-1);
  invoices.forEach((invoice, number) => {
    let failureSeen = false;
    for (const transaction of invoice.transactions) {
      if (transaction.type !== 'payment') continue;
      const index = indexOf(transaction.day);
      if (index >= 0 && lastAttempted[index] !== number) {
        lastAttempted[index] = number;
        counts[index]!.attempted += 1;
      }
      if (!transaction.successful && !failureSeen) {
        failureSeen = true;
        if (index >= 0) counts[index]!.failed += 1;
      }
    }
  });
  return counts;
}

/** The failure rate per period of the range. */
export function failureRateReport(
  invoices: readonly CashflowInvoice[],
  query: CashflowQuery,
): FailureRateRow[] {
  const { periods, indexOf } = seriesPeriods(query);
  const counts = countsByPeriod(invoices, periods, indexOf);
  return periods.map((period, index) => {
    const { attempted, failed } = counts[index]!;
    return {
      date: dayString(period.start),
      end_date: dayString(period.end),
      currency: query.baseCurrency,
      attempted_invoices: attempted,
      failed_invoices: failed,
      failure_rate: percentOf(failed, attempted),
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
export function failureRateSummary(invoices: readonly CashflowInvoice[], today: number): Summary {
  return toDateSummary(today, FAILURE_RATE_SUMMARY, (span) => {
    const { attempted, failed } = failureCounts(invoices, span);
    return {
      failure_rate: percentOf(failed, attempted),
      failed_invoices: failed,
      attempted_invoices: attempted,
    };
  });
}
