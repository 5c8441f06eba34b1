import { MOVEMENT_KINDS } from '../vocabulary.js';
import type { FxTable } from '../fx-table.js';
import { type Snapshot } from '../snapshot.js';
import { pendingOn } from './scheduled.js';
import { asOfSummary, type SummaryQuery } from './summary.js';
import { convertSums } from './totals.js';

const CHURN = MOVEMENT_KINDS.indexOf('churn');

/**
 * Scheduled churn as it stood on `day` (docs/metrics.md, "Scheduled churn"): the churn movements
 * known on that day and effective after it, in negative whole cents of the base currency at the
 * rate of `rateDay`.
 */
export function scheduledChurnOn(
  snapshot: Snapshot,
  day: number,
  query: SummaryQuery,
  rateDay: number,
  fx: FxTable,
): number {
  const byCurrency = new Float64Array(snapshot.currencies.length);
  for (let i = 0; i < snapshot.movementCount; i++) {
    if (snapshot.movementKind[i] !== CHURN || !pendingOn(snapshot, i, day, query.today)) continue;
    const customer = snapshot.movementCustomer[i]!;
    if (query.customers !== null && query.customers[customer] !== 1) continue;
    byCurrency[snapshot.customerCurrency[customer]!]! += snapshot.movementAmount[i]!;
  }
  return convertSums(byCurrency, snapshot, query.baseCurrency, rateDay, fx);
}

/**
 * `churn_current`, `churn_30`, ... `churn_365`: scheduled churn now and as it stood 30, 60, 180
 * and 365 days ago, each at the rates of its own day (of today with fixFx).
 */
export function scheduledChurnSummary(
  snapshot: Snapshot,
  query: SummaryQuery,
  fx: FxTable,
): Record<string, number> {
  return asOfSummary('churn', query, (day, rateDay) => scheduledChurnOn(snapshot, day, query, rateDay, fx));
}
