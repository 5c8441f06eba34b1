import type { AccountSnapshot } from '../account-snapshot.js';
import type { FxTable } from '../fx-table.js';
import { type ListedMovement, listMovements } from './movement-list.js';

export interface ScheduledChurnMovementsQuery {
  today: number;
  /** The days of scheduled churn to list, inclusive; only days after today have any. */
  from: number;
  to: number;
  baseCurrency: string;
  fixedRateDay: number | null;
  customers: Uint8Array | null;
}

const CHURN_ONLY = new Set(['churn'] as const);

/**
 * The cancellations subscription records schedule after today (docs/metrics.md, "Scheduled churn"),
 * one per customer and day, in day order. Every scheduled movement after today is known today
 * (scheduled.ts), so committed movements from tomorrow on are exactly the pending ones.
 */
export function scheduledChurnMovements(
  snapshot: AccountSnapshot,
  query: ScheduledChurnMovementsQuery,
  fx: FxTable,
): ListedMovement[] {
  return listMovements(
    snapshot,
    { ...query, from: Math.max(query.from, query.today + 1), kinds: CHURN_ONLY, committed: true },
    fx,
  );
}
