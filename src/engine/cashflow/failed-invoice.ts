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
  let retries = 0;
  for (let t = first + 1; t < table.transactionStart[invoice + 1]! && days[t]! <= asOf; t++) {
    if (table.isPayment(t)) retries += 1;
  }
  const recovery = table.recovery[invoice]!;
  const churn = customer.movements.find(
    (movement) =>
      movement.kind === 'churn' && !movement.scheduled && movement.day >= day && movement.day <= asOf,
  );
  const outcome: Pick<FailedInvoice, 'outcome' | 'outcomeDay'> =
    recovery >= 0 && days[recovery]! <= asOf
      ? { outcome: 'recovered', outcomeDay: days[recovery]! }
      : churn
        ? { outcome: 'churned', outcomeDay: churn.day }
        : { outcome: 'still_unpaid', outcomeDay: null };
  return { invoice, day, amount: table.transactionAmount[first]!, ...outcome, retries };
}

/**
 * The invoices of the kept customers whose first failed attempt falls in `[from, to]`, judged
 * on `asOf`, in table order (the order sums add them in): a binary search in the failing
 * invoices, newest first, and a sort of the few it finds.
 */
export function failedInvoicesBetween(
  table: CashflowTable,
  customers: Uint8Array | null,
  people: readonly CustomerView[],
  span: { from: number; to: number; asOf: number },
): FailedInvoice[] {
  const order = table.failingNewestFirst;
  const dayOf = (invoice: number) => table.failureDay(invoice);
  const first = firstAtOrBefore(order, dayOf, span.to);
  const end = firstAtOrBefore(order, dayOf, span.from - 1);
  const found: FailedInvoice[] = [];
  for (const invoice of order.slice(first, Math.max(first, end)).sort()) {
    if (!keeps(table, customers, invoice)) continue;
    const failed = failedInvoice(table, invoice, people[table.invoiceCustomer[invoice]!]!, span.asOf);
    if (failed !== null) found.push(failed);
  }
  return found;
}
