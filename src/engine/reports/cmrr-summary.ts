import type { FxTable } from '../fx-table.js';
import type { Snapshot } from '../snapshot.js';
import { pendingOn } from './scheduled.js';
import { asOfSummary, type SummaryQuery } from './summary.js';
import { convertSums } from './totals.js';

/**
 * Committed MRR on `day` (docs/metrics.md, "Committed MRR"): each customer's MRR on that day plus
 * its movements known on that day and effective after it, in whole cents of the base currency at
 * the rate of `rateDay`. A customer's committed MRR never goes below zero: a cancellation ends what
 * the customer will pay then, which can exceed what it pays on `day` when revenue not yet known on
 * `day` arrives first.
 */
export function committedMrrOn(
  snapshot: Snapshot,
  day: number,
  query: SummaryQuery,
  rateDay: number,
  fx: FxTable,
): number {
  const perCustomer = new Float64Array(snapshot.customerIds.length);
  for (let i = 0; i < snapshot.movementCount; i++) {
    const customer = snapshot.movementCustomer[i]!;
    if (query.customers !== null && query.customers[customer] !== 1) continue;
    if (snapshot.movementDay[i]! <= day || pendingOn(snapshot, i, day, query.today))
      perCustomer[customer]! += snapshot.movementAmount[i]!;
  }
  const byCurrency = new Float64Array(snapshot.currencies.length);
  perCustomer.forEach((mrr, customer) => {
    if (mrr > 0) byCurrency[snapshot.customerCurrency[customer]!]! += mrr;
  });
  return convertSums(byCurrency, snapshot, query.baseCurrency, rateDay, fx);
}

/** `cmrr_current`, `cmrr_30`, ... `cmrr_365`: committed MRR now and as it stood N days ago. */
export function cmrrSummary(snapshot: Snapshot, query: SummaryQuery, fx: FxTable): Record<string, number> {
  return asOfSummary('cmrr', query, (day, rateDay) => committedMrrOn(snapshot, day, query, rateDay, fx));
}
