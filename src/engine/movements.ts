import { fallbackSubtype } from './movement-subtypes.js';
import type { Movement, MovementKind, MovementSubtype, MrrPoint } from './types.js';

/**
 * Movements from a customer's MRR points (docs/metrics.md, "Movements"): 0 to more is `new` the
 * first time and `reactivation` after; up is `expansion`; down to more than 0 is `contraction`; to
 * 0 is `churn`. Amounts are the signed change, so MRR(end) = MRR(start) + the movements between.
 * `scheduled` maps the days a subscription record plans a change for to the day it became known;
 * `subtypeOf` tells why a movement happened (movement-subtypes.ts).
 */
export function classifyMovements(
  points: readonly MrrPoint[],
  scheduled: ReadonlyMap<number, number | null> = new Map(),
  subtypeOf: (kind: MovementKind, day: number) => MovementSubtype = fallbackSubtype,
): Movement[] {
  const movements: Movement[] = [];
  let previous = 0;
  let hadRevenue = false;
  for (const { day, mrr } of points) {
    if (mrr === previous) continue;
    let kind: MovementKind;
    if (previous === 0) kind = hadRevenue ? 'reactivation' : 'new';
    else if (mrr === 0) kind = 'churn';
    else kind = mrr > previous ? 'expansion' : 'contraction';
    const isScheduled = scheduled.has(day);
    movements.push({
      day,
      kind,
      subtype: subtypeOf(kind, day),
      amount: mrr - previous,
      scheduled: isScheduled,
      knownDay: isScheduled ? (scheduled.get(day) ?? null) : null,
    });
    hadRevenue = true;
    previous = mrr;
  }
  return movements;
}
