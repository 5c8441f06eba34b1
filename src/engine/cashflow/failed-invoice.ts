import type { CustomerView } from '../account-snapshot.js';
import type { CashflowInvoice } from './cashflow-data.js';

export type FailedOutcome = 'recovered' | 'still_unpaid' | 'churned';
export const FAILED_OUTCOMES: readonly FailedOutcome[] = ['recovered', 'still_unpaid', 'churned'];

/** An invoice with a failed payment attempt, as things stood on a given day. */
export interface FailedInvoice {
  invoice: CashflowInvoice;
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
 * DESIGN 4.9 judged on `asOf`: the invoice is `recovered` once a payment after its first
 * failed attempt succeeds, `churned` when, still unpaid, its customer churned (a churn
 * movement, not a scheduled one) on or after that attempt, else `still_unpaid`. Null when the
 * invoice had no failed attempt by `asOf`.
 */
export function failedInvoice(
  invoice: CashflowInvoice,
  customer: CustomerView,
  asOf: number,
): FailedInvoice | null {
  // Most invoices never fail: decide that before copying anything.
  if (
    !invoice.transactions.some(
      (transaction) => transaction.type === 'payment' && !transaction.successful && transaction.day <= asOf,
    )
  ) {
    return null;
  }
  const payments = invoice.transactions.filter(
    (transaction) => transaction.type === 'payment' && transaction.day <= asOf,
  );
  const first = payments.findIndex((transaction) => !transaction.successful);
  if (first < 0) return null;
  const failed = payments[first]!;
  const later = payments.slice(first + 1);
  const recovery = later.find((transaction) => transaction.successful);
  const churn = customer.movements.find(
    (movement) =>
      movement.kind === 'churn' && !movement.scheduled && movement.day >= failed.day && movement.day <= asOf,
  );
  const outcome: Pick<FailedInvoice, 'outcome' | 'outcomeDay'> = recovery
    ? { outcome: 'recovered', outcomeDay: recovery.day }
    : churn
      ? { outcome: 'churned', outcomeDay: churn.day }
      : { outcome: 'still_unpaid', outcomeDay: null };
  return { invoice, day: failed.day, amount: failed.amount, ...outcome, retries: later.length };
}

/** The invoices whose first failed attempt falls in `[from, to]`, judged on `asOf`. */
export function failedInvoicesBetween(
  invoices: readonly CashflowInvoice[],
  customers: readonly CustomerView[],
  from: number,
  to: number,
  asOf: number,
): FailedInvoice[] {
  return invoices.flatMap((invoice) => {
    const failed = failedInvoice(invoice, customers[invoice.customer]!, asOf);
    return failed !== null && failed.day >= from && failed.day <= to ? [failed] : [];
  });
}
