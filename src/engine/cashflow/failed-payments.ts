import type { CustomerView } from '../account-snapshot.js';
import { dayString } from '../days.js';
import type { FxTable } from '../fx-table.js';
import { roundCents } from '../rounding.js';
import {
  type CashflowQuery,
  invoiceItemFields,
  type InvoiceItemFields,
  keeps,
  seriesPeriods,
  toBase,
} from './cashflow-data.js';
import { type CashflowTable, firstAtOrBefore } from './cashflow-table.js';
import {
  type FailedInvoice,
  failedInvoice,
  failedInvoicesBetween,
  failedTally,
  type FailedOutcome,
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
  table: CashflowTable,
  failed: readonly FailedInvoice[],
  convert: Converter,
): Record<FailedOutcome, number> {
  const sums: Record<FailedOutcome, number> = { recovered: 0, still_unpaid: 0, churned: 0 };
  for (const item of failed) {
    sums[item.outcome] += convert(item.amount, table.currencyOf(item.invoice), item.day);
  }
  return {
    recovered: roundCents(sums.recovered),
    still_unpaid: roundCents(sums.still_unpaid),
    churned: roundCents(sums.churned),
  };
}

const customersOf = (table: CashflowTable, failed: readonly FailedInvoice[]) =>
  new Set(failed.map((item) => table.invoiceCustomer[item.invoice]!)).size;

/**
 * Failed payments per period, dated by each invoice's first failed attempt, with what became
 * of them by `today`. Amounts are the first failed attempt's, in the base currency.
 */
export function failedPaymentsReport(
  table: CashflowTable,
  customers: Uint8Array | null,
  people: readonly CustomerView[],
  query: CashflowQuery & { today: number },
  fx: FxTable,
): FailedPaymentsRow[] {
  const { periods, indexOf } = seriesPeriods(query);
  const groups = periods.map((): FailedInvoice[] => []);
  const span = { from: query.from, to: query.to, asOf: query.today };
  for (const item of failedInvoicesBetween(table, customers, people, span)) {
    groups[indexOf(item.day)]!.push(item);
  }
  const convert = toBase(fx, query);
  return periods.map((period, index) => {
    const group = groups[index]!;
    const amounts = amountsByOutcome(table, group, convert);
    const having = (outcome: FailedOutcome) =>
      customersOf(
        table,
        group.filter((item) => item.outcome === outcome),
      );
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
      affected_customers: customersOf(table, group),
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
 * /reports/cashflow-failed-payments-summary: month and year to date beside their twins. Each span's
 * failed invoices are judged on the span's last day, so a twin shows what was still unpaid at the
 * same point back then. Recovery rate = recovered / failed invoices; failed_pct = the failure rate
 * (failure-rate.ts).
 */
export function failedPaymentsSummary(
  table: CashflowTable,
  customers: Uint8Array | null,
  people: readonly CustomerView[],
  query: Pick<CashflowQuery, 'baseCurrency' | 'fixedRateDay'> & { today: number },
  fx: FxTable,
): Summary {
  const convert = toBase(fx, query);
  return toDateSummary(query.today, FAILED_PAYMENTS_SUMMARY, (span) => {
    const judged = { from: span.start, to: span.end, asOf: span.end };
    const tally = failedTally(table, customers, people, judged, convert);
    const { attempted, failed } = failureCounts(table, customers, span);
    return {
      still_unpaid: roundCents(tally.stillUnpaid),
      recovery_rate: percentOf(tally.recovered, tally.failed),
      failed_pct: percentOf(failed, attempted),
      failed_invoices: tally.failed,
    };
  });
}

/**
 * One page of the failed invoices of the range, newest first failure first (then by invoice
 * id), judged on `today`. The table keeps them in that order, so only the page is judged.
 */
export function failedPaymentItems(
  table: CashflowTable,
  customers: Uint8Array | null,
  people: readonly CustomerView[],
  query: CashflowQuery & { today: number },
  fx: FxTable,
  page: { offset: number; limit: number },
): FailedPaymentItem[] {
  const convert = toBase(fx, query);
  const order = table.failingNewestFirst;
  const failureDay = (invoice: number) => table.failureDay(invoice);
  const items: FailedPaymentItem[] = [];
  let skip = page.offset;
  // Judged on today, an invoice whose first failure is still to come has not failed.
  const last = Math.min(query.to, query.today);
  for (let position = firstAtOrBefore(order, failureDay, last); position < order.length; position++) {
    const invoice = order[position]!;
    if (failureDay(invoice) < query.from || items.length === page.limit) break;
    if (!keeps(table, customers, invoice)) continue;
    if (skip > 0) {
      skip -= 1;
      continue;
    }
    const customer = people[table.invoiceCustomer[invoice]!]!;
    const item = failedInvoice(table, invoice, customer, query.today)!;
    items.push({
      date: dayString(item.day),
      ...invoiceItemFields(table, invoice, customer, item.amount, item.day, convert),
      retry_attempts: item.retries,
      outcome: item.outcome,
      outcome_date: item.outcomeDay === null ? null : dayString(item.outcomeDay),
    });
  }
  return items;
}
