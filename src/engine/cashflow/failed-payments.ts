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
  eachFailedInvoice,
  failedInvoice,
  type FailedOutcome,
  FAILED_OUTCOMES,
  retriesOf,
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

/** What a period of the failed payments report adds up. */
interface PeriodTally {
  /** Unrounded, in the base currency. */
  amounts: Record<FailedOutcome, number>;
  failed: number;
  retries: number;
  customers: Record<FailedOutcome, Set<number>>;
  affected: Set<number>;
}

const emptyTally = (): PeriodTally => ({
  amounts: { recovered: 0, still_unpaid: 0, churned: 0 },
  failed: 0,
  retries: 0,
  customers: { recovered: new Set(), still_unpaid: new Set(), churned: new Set() },
  affected: new Set(),
});

/**
 * Failed payments per period, dated by each invoice's first failed attempt, with what became
 * of them by `today`. Amounts are the first failed attempt's, in the base currency; each
 * outcome's is rounded once and the failed amount is their sum, so they agree.
 */
export function failedPaymentsReport(
  table: CashflowTable,
  customers: Uint8Array | null,
  people: readonly CustomerView[],
  query: CashflowQuery & { today: number },
  fx: FxTable,
): FailedPaymentsRow[] {
  const { periods, indexOf } = seriesPeriods(query);
  const tallies = periods.map(emptyTally);
  const convert = toBase(fx, query);
  const span = { from: query.from, to: query.to, asOf: query.today };
  eachFailedInvoice(table, customers, people, span, (invoice, first, outcome) => {
    const day = table.transactionDay[first]!;
    const tally = tallies[indexOf(day)]!;
    const customer = table.invoiceCustomer[invoice]!;
    tally.amounts[outcome] += convert(table.transactionAmount[first]!, table.currencyOf(invoice), day);
    tally.failed += 1;
    tally.retries += retriesOf(table, invoice, query.today);
    tally.customers[outcome].add(customer);
    tally.affected.add(customer);
  });
  return periods.map((period, index) => {
    const tally = tallies[index]!;
    const amounts = {
      recovered: roundCents(tally.amounts.recovered),
      still_unpaid: roundCents(tally.amounts.still_unpaid),
      churned: roundCents(tally.amounts.churned),
    };
    return {
      date: dayString(period.start),
      end_date: dayString(period.end),
      currency: query.baseCurrency,
      failed_amount: FAILED_OUTCOMES.reduce((sum, outcome) => sum + amounts[outcome], 0),
      ...amounts,
      failed_invoices: tally.failed,
      recovered_customers: tally.customers.recovered.size,
      still_unpaid_customers: tally.customers.still_unpaid.size,
      churned_customers: tally.customers.churned.size,
      affected_customers: tally.affected.size,
      total_retry_attempts: tally.retries,
    };
  });
}

/** What a summary reads of a span's failed invoices, judged on `asOf`. */
interface FailedTally {
  failed: number;
  recovered: number;
  /** Unrounded, in the base currency: each first failed attempt's amount, added in table order. */
  stillUnpaid: number;
}

/** The failed invoices of a span as the summary reads them: visited, no object made for each. */
function failedTally(
  table: CashflowTable,
  customers: Uint8Array | null,
  people: readonly CustomerView[],
  span: { from: number; to: number; asOf: number },
  convert: (amount: number, currency: string, day: number) => number,
): FailedTally {
  const tally: FailedTally = { failed: 0, recovered: 0, stillUnpaid: 0 };
  eachFailedInvoice(table, customers, people, span, (invoice, first, outcome) => {
    tally.failed += 1;
    if (outcome === 'recovered') tally.recovered += 1;
    else if (outcome === 'still_unpaid') {
      const amount = table.transactionAmount[first]!;
      tally.stillUnpaid += convert(amount, table.currencyOf(invoice), table.transactionDay[first]!);
    }
  });
  return tally;
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
