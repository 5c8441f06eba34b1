import { dayNumber } from '../../src/engine/days.js';
import type { Movement, MovementKind } from '../../src/engine/types.js';

/** A past (unscheduled) movement on a `YYYY-MM-DD` day, for engine report fixtures. */
export function move(day: string, kind: MovementKind, amount: number): Movement {
  return { day: dayNumber(day), kind, amount, scheduled: false, knownDay: null };
}
