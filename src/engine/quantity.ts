import { OPEN_END, type QuantityPoint, type Segment } from './types.js';

/**
 * One subscription's quantity as day -> change. A later segment overlapping an earlier one bills
 * the same units again (the prorated line of an upgrade beside the plan's line), so on each day
 * only the latest-starting segments count: several when the subscription bills several items
 * from the same day. Credit segments were left out before.
 */
function keyDeltas(segments: readonly Segment[], deltas: Map<number, number>): void {
  const sorted = [...segments].sort((a, b) => a.start - b.start);
  const days = [...new Set(sorted.flatMap((segment) => [segment.start, segment.end]))]
    .filter((day) => day < OPEN_END)
    .sort((a, b) => a - b);
  let active: Segment[] = [];
  let next = 0;
  let previous = 0;
  for (const day of days) {
    active = active.filter((segment) => segment.end > day);
    while (next < sorted.length && sorted[next]!.start === day) active.push(sorted[next++]!);
    const latest = active.reduce((start, segment) => Math.max(start, segment.start), -Infinity);
    const quantity = active
      .filter((segment) => segment.start === latest)
      .reduce((sum, segment) => sum + segment.quantity, 0);
    if (quantity !== previous) deltas.set(day, (deltas.get(day) ?? 0) + quantity - previous);
    previous = quantity;
  }
}

/** A customer's total subscription quantity over time, one point per day on which it changes. */
export function quantityPoints(segments: readonly Segment[]): QuantityPoint[] {
  const byKey = new Map<string, Segment[]>();
  for (const segment of segments) {
    if (segment.monthly <= 0) continue;
    const group = byKey.get(segment.key);
    if (group) group.push(segment);
    else byKey.set(segment.key, [segment]);
  }
  const deltas = new Map<number, number>();
  for (const group of byKey.values()) keyDeltas(group, deltas);
  const points: QuantityPoint[] = [];
  let quantity = 0;
  for (const day of [...deltas.keys()].sort((a, b) => a - b)) {
    const change = deltas.get(day)!;
    if (change === 0) continue;
    quantity += change;
    points.push({ day, quantity });
  }
  return points;
}
