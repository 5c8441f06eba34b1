import type { AccountSnapshot } from '../account-snapshot.js';
import type { FxTable } from '../fx-table.js';
import { percentOf } from '../cashflow/to-date.js';
import { listedChurns } from './movement-list.js';

export interface ChurnReasonsQuery {
  from: number;
  to: number;
  today: number;
  baseCurrency: string;
  customers: Uint8Array | null;
}

export interface ChurnReason {
  /** The customers' `cancel_reason`; null for the cancellations that give none. */
  reason: string | null;
  cancellations: number;
  /** MRR the cancellations took, positive cents of the base currency at each one's day. */
  churned_mrr: number;
  /** Share of all cancellations of the range, in %. */
  share_pct: number | null;
}

export interface ChurnReasons {
  reasons: ChurnReason[];
  total_cancellations: number;
  /** Cancellations that give a reason. */
  comment_count: number;
}

/**
 * The churn movements of the range grouped by the cancel reason their customer records, most
 * frequent first (ties: the larger churned MRR, then the reason's name); the cancellations that
 * give no reason come last. Counted from the data alone: no text is interpreted.
 */
export function churnReasonsReport(
  snapshot: AccountSnapshot,
  query: ChurnReasonsQuery,
  fx: FxTable,
): ChurnReasons {
  // Made at every request: the churns are read where they lie, none is built as an object.
  const churns = listedChurns(snapshot, query, fx);
  const { movementCustomer } = snapshot.movements;
  const byReason = new Map<string | null, ChurnReason>();
  for (let n = 0; n < churns.count; n++) {
    const reason = snapshot.customers[movementCustomer[churns.position(n)]!]!.cancelReason;
    const entry = byReason.get(reason) ?? { reason, cancellations: 0, churned_mrr: 0, share_pct: null };
    entry.cancellations += 1;
    entry.churned_mrr -= churns.amountBase(n);
    byReason.set(reason, entry);
  }
  const reasons = [...byReason.values()]
    .map((entry) => ({ ...entry, share_pct: percentOf(entry.cancellations, churns.count) }))
    .sort(
      (a, b) =>
        Number(a.reason === null) - Number(b.reason === null) ||
        b.cancellations - a.cancellations ||
        b.churned_mrr - a.churned_mrr ||
        (a.reason ?? '').localeCompare(b.reason ?? ''),
    );
  return {
    reasons,
    total_cancellations: churns.count,
    comment_count: churns.count - (byReason.get(null)?.cancellations ?? 0),
  };
}
