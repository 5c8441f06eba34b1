import { NO_DAY, type Snapshot } from '../snapshot.js';

/**
 * The day a scheduled movement counts as known (docs/metrics.md, "Scheduled churn"): the day its
 * record says the change was asked for, never later than today. When the record does not say, it is
 * news today: it cannot have been known before the record reached us, and counting it as known
 * earlier would put a cancellation into days its subscription did not even exist yet.
 */
export function knownSince(knownDay: number | null, today: number): number {
  return Math.min(knownDay ?? today, today);
}

/** `knownSince` of movement `i`, read from the snapshot's columns. */
export function knownDayOf(snapshot: Snapshot, i: number, today: number): number {
  const known = snapshot.movementKnownDay[i]!;
  return knownSince(known === NO_DAY ? null : known, today);
}

/** Whether movement `i` is a plan for after `day` that was already known on `day`. */
export function pendingOn(snapshot: Snapshot, i: number, day: number, today: number): boolean {
  if (snapshot.movementScheduled[i] !== 1 || snapshot.movementDay[i]! <= day) return false;
  return knownDayOf(snapshot, i, today) <= day;
}
