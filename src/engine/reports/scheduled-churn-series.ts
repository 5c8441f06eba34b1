import type { RangeQuery } from '../range-query.js';
import { MOVEMENT_KINDS } from '../vocabulary.js';
import { dayString } from '../days.js';
import type { FxTable } from '../fx-table.js';
import { periodsBetween } from '../periods.js';
import { roundCents } from '../rounding.js';
import { type Snapshot } from '../snapshot.js';
import { pendingOn } from './scheduled.js';

/** `fixFx` converts at the rate of `to` instead of each movement's own day. */
export type ScheduledChurnSeriesQuery = RangeQuery;

export interface ScheduledChurnRow {
  date: string;
  churn: number;
  contraction: number;
  churn_customers: number;
  contraction_customers: number;
  /** churn + contraction: all the MRR scheduled to be lost in the period. */
  total_mrr: number;
  total_customers: number;
}

const CHURN = MOVEMENT_KINDS.indexOf('churn');
const CONTRACTION = MOVEMENT_KINDS.indexOf('contraction');

/**
 * Per period of `[from, to]`, the MRR losses subscription records schedule after today
 * (docs/metrics.md, "Scheduled churn"): cancellations as `churn`, scheduled downgrades as
 * `contraction`, negative cents of the base currency at the rate of each movement's day, with
 * distinct customers counted. Periods up to today hold zeros: what was scheduled for them has
 * happened or not.
 */
export function scheduledChurnSeries(
  snapshot: Snapshot,
  query: ScheduledChurnSeriesQuery,
  fx: FxTable,
): ScheduledChurnRow[] {
  const rateOf = snapshot.currencies.map((currency) => fx.converter(currency, query.baseCurrency));
  let i = 0;
  return periodsBetween(query.from, query.to, query.interval).map((period) => {
    let churn = 0;
    let contraction = 0;
    const churned = new Set<number>();
    const contracted = new Set<number>();
    for (; i < snapshot.movementCount && snapshot.movementDay[i]! <= period.end; i++) {
      const day = snapshot.movementDay[i]!;
      const kind = snapshot.movementKind[i]!;
      const customer = snapshot.movementCustomer[i]!;
      if (day < period.start || (kind !== CHURN && kind !== CONTRACTION)) continue;
      if (!pendingOn(snapshot, i, query.today, query.today)) continue;
      if (query.customers !== null && query.customers[customer] !== 1) continue;
      const amount = rateOf[snapshot.customerCurrency[customer]!]!(
        snapshot.movementAmount[i]!,
        query.fixFx ? query.to : day,
      );
      if (kind === CHURN) {
        churn += amount;
        churned.add(customer);
      } else {
        contraction += amount;
        contracted.add(customer);
      }
    }
    const row = { churn: roundCents(churn), contraction: roundCents(contraction) };
    return {
      date: dayString(period.start),
      ...row,
      churn_customers: churned.size,
      contraction_customers: contracted.size,
      total_mrr: row.churn + row.contraction,
      total_customers: new Set([...churned, ...contracted]).size,
    };
  });
}
