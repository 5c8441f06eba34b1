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
  let attempted = 0;
  let failed = 0;
  for (const invoice of invoices) {
    const payments = invoice.transactions.filter((transaction) => transaction.type === 'payment');
    if (payments.some((transaction) => inSpan(transaction.day, span))) attempted += 1;
    const firstFailure = payments.find((transaction) => !transaction.successful);
    if (firstFailure !== undefined && inSpan(firstFailure.day, span)) failed += 1;
  }
  return { attempted, failed };
}

/** The failure rate per period of the range. */
export function failureRateReport(
  invoices: readonly CashflowInvoice[],
  query: CashflowQuery,
): FailureRateRow[] {
  return seriesPeriods(query).periods.map((period) => {
    const { attempted, failed } = failureCounts(invoices, period);
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
