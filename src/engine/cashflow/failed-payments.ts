import type { CustomerView } from '../account-snapshot.js';
import { compareText } from '../compare-text.js';
import { dayString } from '../days.js';
import type { FxTable } from '../fx-table.js';
import { roundCents } from '../rounding.js';
import {
  type CashflowInvoice,
  type CashflowQuery,
  seriesPeriods,
  toBase,
  type InvoiceItemFields,
  invoiceItemFields,
} from './cashflow-data.js';
import {
  type FailedInvoice,
  type FailedOutcome,
  failedInvoicesBetween,
  FAILED_OUTCOMES,
} from './failed-invoice.js';
import { failureCounts } from './failure-rate.js';
import { percentOf, type Summary, type ToDateLayout, toDateSummary } from './to-date.js';

export interface FailedPaymentsRow {
  date: string;
  end_date: string;
  currency: string;
  failed_amount: number;
  recovered: number;
  still_unpaid: number;
  churned: number;
  failed_invoices: number;
  recovered_customers: number;
  still_unpaid_customers: number;
  churned_customers: number;
  affected_customers: number;
  total_retry_attempts: number;
}

export interface FailedPaymentItem extends InvoiceItemFields {
  date: string;
  retry_attempts: number;
  outcome: FailedOutcome;
  outcome_date: string | null;
}

type Converter = ReturnType<typeof toBase>;

/** Failed amounts by outcome, each rounded once; the failed amount is their sum, so they agree. */
function amountsByOutcome(
  failed: readonly FailedInvoice[],
  convert: Converter,
): Record<FailedOutcome, number> {
  const sums: Record<FailedOutcome, number> = { recovered: 0, still_unpaid: 0, churned: 0 };
  for (const item of failed) sums[item.outcome] += convert(item.amount, item.invoice.currency, item.day);
  return {
    recovered: roundCents(sums.recovered),
    still_unpaid: roundCents(sums.still_unpaid),
    churned: roundCents(sums.churned),
  };
}

const customersOf = (failed: readonly FailedInvoice[]) =>
  new Set(failed.map((item) => item.invoice.customer)).size;

/**
 * Failed payments per period, dated by each invoice's first failed attempt, with what became
 * of them by `today`. Amounts are the first failed attempt's, in the base currency.
 */
export function failedPaymentsReport(
  invoices: readonly CashflowInvoice[],
  customers: readonly CustomerView[],
  query: CashflowQuery & { today: number },
  fx: FxTable,
): FailedPaymentsRow[] {
  const { periods, indexOf } = seriesPeriods(query);
  const groups = periods.map((): FailedInvoice[] => []);
  for (const item of failedInvoicesBetween(invoices, customers, query.from, query.to, query.today)) {
    groups[indexOf(item.day)]!.push(item);
  }
  const convert = toBase(fx, query);
  return periods.map((period, index) => {
    const group = groups[index]!;
    const amounts = amountsByOutcome(group, convert);
    const having = (outcome: FailedOutcome) => customersOf(group.filter((item) => item.outcome === outcome));
    return {
      date: dayString(period.start),
      end_date: dayString(period.end),
      currency: query.baseCurrency,
      failed_amount: FAILED_OUTCOMES.reduce((sum, outcome) => sum + amounts[outcome], 0),
      ...amounts,
      failed_invoices: group.length,
      recovered_customers: having('recovered'),
      still_unpaid_customers: having('still_unpaid'),
      churned_customers: having('churned'),
      affected_customers: customersOf(group),
      total_retry_attempts: group.reduce((sum, item) => sum + item.retries, 0),
    };
  });
}

export const FAILED_PAYMENTS_SUMMARY: ToDateLayout = {
  spans: ['mtd', 'ytd'],
  figures: ['still_unpaid', 'recovery_rate', 'failed_pct', 'failed_invoices'],
  percent: ['still_unpaid'],
  point: ['recovery_rate', 'failed_pct'],
};

/**
 * SPEC 4.6: month and year to date beside their twins. Each span's failed invoices are judged
 * on the span's last day, so a twin shows what was still unpaid at the same point back then.
 * Recovery rate = recovered / failed invoices; failed_pct = the failure rate (failure-rate.ts).
 */
export function failedPaymentsSummary(
  invoices: readonly CashflowInvoice[],
  customers: readonly CustomerView[],
  query: Pick<CashflowQuery, 'baseCurrency' | 'fixedRateDay'> & { today: number },
  fx: FxTable,
): Summary {
  const convert = toBase(fx, query);
  // Four spans judge the same few failing invoices: find them once, not in every span's scan.
  const failing = invoices.filter((invoice) =>
    invoice.transactions.some((transaction) => transaction.type === 'payment' && !transaction.successful),
  );
  return toDateSummary(query.today, FAILED_PAYMENTS_SUMMARY, (span) => {
    const failed = failedInvoicesBetween(failing, customers, span.start, span.end, span.end);
    const recovered = failed.filter((item) => item.outcome === 'recovered').length;
    const { attempted, failed: failedCount } = failureCounts(invoices, span);
    return {
      still_unpaid: amountsByOutcome(failed, convert).still_unpaid,
      recovery_rate: percentOf(recovered, failed.length),
      failed_pct: percentOf(failedCount, attempted),
      failed_invoices: failed.length,
    };
  });
}

/** One item per failed invoice of the range, newest failure first, judged on `today`. */
export function failedPaymentItems(
  invoices: readonly CashflowInvoice[],
  customers: readonly CustomerView[],
  query: CashflowQuery & { today: number },
  fx: FxTable,
): FailedPaymentItem[] {
  const convert = toBase(fx, query);
  return failedInvoicesBetween(invoices, customers, query.from, query.to, query.today)
    .sort((a, b) => b.day - a.day || compareText(a.invoice.id, b.invoice.id))
    .map((item) => ({
      date: dayString(item.day),
      ...invoiceItemFields(item.invoice, customers[item.invoice.customer]!, item.amount, item.day, convert),
      retry_attempts: item.retries,
      outcome: item.outcome,
      outcome_date: item.outcomeDay === null ? null : dayString(item.outcomeDay),
    }));
}
