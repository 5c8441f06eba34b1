import { movementSubtype } from './movement-subtypes.js';
import { classifyMovements } from './movements.js';
import { quantityPoints } from './quantity.js';
import { roundCents } from './rounding.js';
import { carryForward, subscriptionSegments } from './subscription-segments.js';
import {
  type CurrencyConverter,
  type CustomerHistory,
  type CustomerTimeline,
  type MrrPoint,
  OPEN_END,
  type Segment,
} from './types.js';

export const DEFAULT_GRACE_DAYS = 3;

export interface TimelineOptions {
  fx: CurrencyConverter;
  graceDays?: number;
}

interface Step {
  day: number;
  /** Exact sum of the segments counting from this day on. */
  value: number;
}

// Adding and then subtracting the same fractions leaves dust of about 1e-12 behind.
const DUST = 1e-6;

/** The exact value of a set of segments as a step function: one step per day on which it changes. */
function steps(segments: readonly Segment[]): Step[] {
  const deltas = new Map<number, number>();
  for (const segment of segments) {
    deltas.set(segment.start, (deltas.get(segment.start) ?? 0) + segment.monthly);
    // An open end is never reached.
    if (segment.end < OPEN_END) deltas.set(segment.end, (deltas.get(segment.end) ?? 0) - segment.monthly);
  }
  let value = 0;
  return [...deltas.keys()]
    .sort((a, b) => a - b)
    .map((day) => {
      value += deltas.get(day)!;
      return { day, value: Math.abs(value) < DUST ? 0 : value };
    });
}

/**
 * Without a record to say otherwise, revenue stops at the end of its last period,
 * but keeps counting for the grace days after it, so a late invoice causes no false churn.
 * Whenever line-described revenue falls to zero, the value before is carried on over the
 * gap, for the grace days at most (docs/metrics.md, "When revenue stops: subscription records and
 * grace days").
 */
function graceSegments(lines: readonly Segment[], graceDays: number): Segment[] {
  if (graceDays <= 0) return [];
  const lineSteps = steps(lines);
  return lineSteps.flatMap((step, index) => {
    const before = lineSteps[index - 1];
    if (step.value !== 0 || before === undefined || before.value <= 0) return [];
    const gapEnd = lineSteps[index + 1]?.day ?? Number.POSITIVE_INFINITY;
    return carryForward(lines, step.day, Math.min(gapEnd, step.day + graceDays));
  });
}

/** Rounds once per customer and day, never below zero, keeping only the days MRR changes. */
function toPoints(allSteps: readonly Step[]): MrrPoint[] {
  const points: MrrPoint[] = [];
  let previous = 0;
  for (const { day, value } of allSteps) {
    const mrr = Math.max(0, roundCents(value));
    if (mrr !== previous) points.push({ day, mrr });
    previous = mrr;
  }
  return points;
}

/**
 * A customer's MRR over time and its movements, in the customer's currency (docs/metrics.md, from
 * "Monthly value of an invoice line" to "Movements").
 * Days after today are included: a cancel_at in the future is a scheduled churn there, and
 * the end of a prepaid period is where MRR would stop if no renewal arrived.
 */
export function customerTimeline(history: CustomerHistory, options: TimelineOptions): CustomerTimeline {
  const { lines, governed, scheduled } = subscriptionSegments(history, options.fx);
  const segments = [...lines, ...graceSegments(lines, options.graceDays ?? DEFAULT_GRACE_DAYS), ...governed];
  const points = toPoints(steps(segments));
  const scheduledDays = new Map(scheduled.map((event) => [event.day, event.knownDay]));
  return {
    currency: history.currency,
    points,
    quantities: quantityPoints(segments),
    movements: classifyMovements(points, scheduledDays, (kind, day) =>
      movementSubtype(kind, day, segments, history),
    ),
    segments,
  };
}
