import { dayNumber } from '../../src/engine/days.js';
import { fallbackSubtype } from '../../src/engine/movement-subtypes.js';
import type { Movement, MovementKind, MovementSubtype } from '../../src/engine/types.js';

/**
 * A past (unscheduled) movement on a `YYYY-MM-DD` day, for engine report fixtures; its subtype
 * the kind's fallback unless given.
 */
export function move(
  day: string,
  kind: MovementKind,
  amount: number,
  subtype: MovementSubtype = fallbackSubtype(kind),
): Movement {
  return { day: dayNumber(day), kind, subtype, amount, scheduled: false, knownDay: null };
}

/**
 * The movements of a customer whose MRR becomes `mrr` on each `day` (any order; of two steps on
 * one day the first counts), classified as the engine does: 0 to more is new the first time and
 * reactivation after, up is expansion, down to more than 0 contraction, down to 0 churn. For
 * property tests over random histories.
 */
export function movementsOf(steps: readonly { day: number; mrr: number }[]): Movement[] {
  const movements: Movement[] = [];
  let mrr = 0;
  let paidBefore = false;
  let lastDay: number | null = null;
  for (const step of [...steps].sort((a, b) => a.day - b.day)) {
    if (step.day === lastDay) continue;
    lastDay = step.day;
    if (step.mrr === mrr) continue;
    const kind: MovementKind =
      mrr === 0
        ? paidBefore
          ? 'reactivation'
          : 'new'
        : step.mrr === 0
          ? 'churn'
          : step.mrr > mrr
            ? 'expansion'
            : 'contraction';
    movements.push({
      day: step.day,
      kind,
      subtype: fallbackSubtype(kind),
      amount: step.mrr - mrr,
      scheduled: false,
      knownDay: null,
    });
    paidBefore = true;
    mrr = step.mrr;
  }
  return movements;
}
