import type { CustomerView } from '../account-snapshot.js';
import { keeps } from './cashflow-data.js';
import { type CashflowTable, firstAtOrBefore } from './cashflow-table.js';

export type FailedOutcome = 'recovered' | 'still_unpaid' | 'churned';

export const FAILED_OUTCOMES: readonly FailedOutcome[] = ['recovered', 'still_unpaid', 'churned'];

/** An invoice with a failed payment attempt, as things stood on a given day. */
export interface FailedInvoice {
  /** The invoice's index in the cashflow table. */
  invoice: number;
  /** The first failed attempt: its day and amount (cents of the invoice's currency). */
  day: number;
  amount: number;
  outcome: FailedOutcome;
  /** When it was recovered or the customer churned; null while still unpaid. */
  outcomeDay: number | null;
  /** Payment attempts after the first failed one, whatever their result. */
  retries: number;
}

/** The day the customer churned (a churn movement, not a scheduled one) from `from` to `to`, or null. */
function churnDay(customer: CustomerView, from: number, to: number): number | null {
  for (const movement of customer.movements) {
    if (movement.kind === 'churn' && !movement.scheduled && movement.day >= from && movement.day <= to)
      return movement.day;
  }
  return null;
}

/** The outcome on `asOf` of an invoice whose first failed attempt, on `day`, is on or before it. */
function outcomeOf(
  table: CashflowTable,
  invoice: number,
  customer: CustomerView,
  day: number,
  asOf: number,
): FailedOutcome {
  const recovery = table.recovery[invoice]!;
  if (recovery >= 0 && table.transactionDay[recovery]! <= asOf) return 'recovered';
  return churnDay(customer, day, asOf) === null ? 'still_unpaid' : 'churned';
}

/**
 * A failed invoice's outcome (docs/metrics.md, "Cashflow") judged on `asOf`: the invoice is
 * `recovered` once a payment after its first failed attempt succeeds, `churned` when, still unpaid,
 * its customer churned (a churn movement, not a scheduled one) on or after that attempt, else
 * `still_unpaid`. Null when the invoice had no failed attempt by `asOf`.
 */
export function failedInvoice(
  table: CashflowTable,
  invoice: number,
  customer: CustomerView,
  asOf: number,
): FailedInvoice | null {
  const first = table.firstFailure[invoice]!;
  if (first < 0) return null;
  const days = table.transactionDay;
  const day = days[first]!;
  if (day > asOf) return null;
  const outcome = outcomeOf(table, invoice, customer, day, asOf);
  const outcomeDay =
    outcome === 'recovered'
      ? days[table.recovery[invoice]!]!
      : outcome === 'churned'
        ? churnDay(customer, day, asOf)
        : null;
  const retries = retriesOf(table, invoice, asOf);
  return { invoice, day, amount: table.transactionAmount[first]!, outcome, outcomeDay, retries };
}

/** Payment attempts after the invoice's first failed one, by `asOf`. */
export function retriesOf(table: CashflowTable, invoice: number, asOf: number): number {
  const days = table.transactionDay;
  let retries = 0;
  for (
    let t = table.firstFailure[invoice]! + 1;
    t < table.transactionStart[invoice + 1]! && days[t]! <= asOf;
    t++
  ) {
    if (table.isPayment(t)) retries += 1;
  }
  return retries;
}

/**
 * Calls `visit`, in table order (the order sums add them in), with each invoice of the kept
 * customers whose first failed attempt falls in `[from, to]` and is on or before `asOf`, that
 * attempt, and the invoice's outcome judged on `asOf`; no object is made for each.
 */
export function eachFailedInvoice(
  table: CashflowTable,
  customers: Uint8Array | null,
  people: readonly CustomerView[],
  span: { from: number; to: number; asOf: number },
  visit: (invoice: number, first: number, outcome: FailedOutcome) => void,
): void {
  for (const invoice of failingBetween(table, customers, span)) {
    const first = table.firstFailure[invoice]!;
    const day = table.transactionDay[first]!;
    if (day > span.asOf) continue;
    visit(
      invoice,
      first,
      outcomeOf(table, invoice, people[table.invoiceCustomer[invoice]!]!, day, span.asOf),
    );
  }
}

/**
 * The invoices of the kept customers whose first failed attempt falls in `[from, to]`, in table
 * order: a binary search in the failing invoices, newest first, and a sort of the few it finds.
 */
function failingBetween(
  table: CashflowTable,
  customers: Uint8Array | null,
  span: { from: number; to: number },
): Int32Array {
  const order = table.failingNewestFirst;
  const dayOf = (invoice: number) => table.failureDay(invoice);
  const first = firstAtOrBefore(order, dayOf, span.to);
  const end = firstAtOrBefore(order, dayOf, span.from - 1);
  const found = order.slice(first, Math.max(first, end)).sort();
  return found.filter((invoice) => keeps(table, customers, invoice));
}
