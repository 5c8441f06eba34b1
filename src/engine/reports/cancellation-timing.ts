import type { AccountSnapshot } from '../account-snapshot.js';
import { percentOf } from '../cashflow/to-date.js';
import { dayString } from '../days.js';
import type { FxTable } from '../fx-table.js';
import type { Movement } from '../types.js';
import { bucketIndex, bucketLabel, type DayBucket } from './day-buckets.js';
import { averageDays } from './leads-funnel.js';
import { listedChurns } from './movement-list.js';

export interface CancellationTimingQuery {
  from: number;
  to: number;
  today: number;
  baseCurrency: string;
  customers: Uint8Array | null;
}

/** Days a customer had been paying when it churned: the first month, the quarter, ..., two years and more. */
export const CANCELLATION_DAY_BUCKETS: readonly DayBucket[] = [
  [0, 30],
  [31, 90],
  [91, 180],
  [181, 365],
  [366, 730],
  [731, null],
];

export interface Cancellation {
  date: string;
  customer_id: string;
  customer_name: string | null;
  customer_email: string | null;
  /** First day of the paid spell the churn ended: the last new or reactivation before it. */
  paid_start_date: string;
  days_active: number;
  /** MRR the churn took, positive cents of the base currency at its day. */
  churned_mrr: number;
  cancel_reason: string | null;
}

export interface CancellationTimingBucket {
  bucket: string;
  min_days: number;
  max_days: number | null;
  cancellations: number;
  churned_mrr: number;
  /** Share of the range's cancellations, in %. */
  percent: number | null;
}

export interface CancellationTiming {
  result: CancellationTimingBucket[];
  summary: { cancellations: number; average_days: number | null };
}

/** The day the paid spell that `churnDay` ends began: the last new or reactivation up to it. */
function spellStart(movements: readonly Movement[], churnDay: number): number {
  let start = churnDay;
  for (const movement of movements) {
    if (movement.day > churnDay) break;
    if (movement.kind === 'new' || movement.kind === 'reactivation') start = movement.day;
  }
  return start;
}

/** The churns of the range, newest first (ties by customer id), with how long each customer had paid. */
export function cancellations(
  snapshot: AccountSnapshot,
  query: CancellationTimingQuery,
  fx: FxTable,
): Cancellation[] {
  const churns = listedChurns(snapshot, query, fx);
  return Array.from({ length: churns.count }, (_, n) => {
    const churn = churns.at(n);
    const customer = snapshot.customers[churn.customerIndex]!;
    const start = spellStart(customer.movements, churn.day);
    return {
      date: dayString(churn.day),
      customer_id: customer.id,
      customer_name: customer.name,
      customer_email: customer.email,
      paid_start_date: dayString(start),
      days_active: churn.day - start,
      churned_mrr: -churn.amountBase,
      cancel_reason: customer.cancelReason,
    };
  }).sort((a, b) =>
    a.date === b.date ? (a.customer_id < b.customer_id ? -1 : 1) : a.date < b.date ? 1 : -1,
  );
}

/** How long the customers who churned in the range had been paying, by bucket of days. */
export function cancellationTimingReport(
  snapshot: AccountSnapshot,
  query: CancellationTimingQuery,
  fx: FxTable,
): CancellationTiming {
  const counts = CANCELLATION_DAY_BUCKETS.map(() => 0);
  const mrr = CANCELLATION_DAY_BUCKETS.map(() => 0);
  // Counted where the churns lie: the list of `cancellations` would be built only to be bucketed.
  const churns = listedChurns(snapshot, query, fx);
  const { movementCustomer, movementDay } = snapshot.movements;
  let totalDays = 0;
  for (let n = 0; n < churns.count; n++) {
    const position = churns.position(n);
    const day = movementDay[position]!;
    const days = day - spellStart(snapshot.customers[movementCustomer[position]!]!.movements, day);
    const index = bucketIndex(CANCELLATION_DAY_BUCKETS, days);
    counts[index]! += 1;
    mrr[index]! -= churns.amountBase(n);
    totalDays += days;
  }
  return {
    result: CANCELLATION_DAY_BUCKETS.map((bounds, index) => ({
      bucket: bucketLabel(bounds),
      min_days: bounds[0],
      max_days: bounds[1],
      cancellations: counts[index]!,
      churned_mrr: mrr[index]!,
      percent: percentOf(counts[index]!, churns.count),
    })),
    summary: { cancellations: churns.count, average_days: averageDays(totalDays, churns.count) },
  };
}
