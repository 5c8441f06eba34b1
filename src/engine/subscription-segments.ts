import { monthlyValue } from './normalise-line.js';
import {
  type CustomerHistory,
  type CurrencyConverter,
  OPEN_END,
  type Segment,
  type SubscriptionInput,
} from './types.js';

/** A change a subscription record plans for a day: its end (cancel_at) or a scheduled change. */
export interface ScheduledEvent {
  day: number;
  knownDay: number | null;
}

export interface Segments {
  /** Revenue that only invoice lines describe: it ends with the last period, after the grace days. */
  lines: Segment[];
  /** Revenue a subscription record governs: alive until the record ends it. */
  governed: Segment[];
  scheduled: ScheduledEvent[];
}

const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due']);

function lineKey(subscriptionId: string | null, planId: string | null, invoiceId: string): string {
  if (subscriptionId !== null) return `sub:${subscriptionId}`;
  return planId !== null ? `plan:${planId}` : `invoice:${invoiceId}`;
}

/**
 * Every counted subscription line as a segment in the customer's currency (docs/metrics.md, "Monthly
 * value of an invoice line").
 */
function lineSegments(history: CustomerHistory, fx: CurrencyConverter): Segment[] {
  const segments: Segment[] = [];
  for (const invoice of history.invoices) {
    if (invoice.status === 'draft' || invoice.status === 'void') continue;
    for (const line of invoice.lines) {
      const { periodStart, periodEnd } = line;
      if (
        line.type !== 'subscription' ||
        periodStart === null ||
        periodEnd === null ||
        periodEnd <= periodStart
      ) {
        continue;
      }
      const plan = line.planId === null ? undefined : history.plans.get(line.planId);
      const monthlyOf = (amount: number) =>
        monthlyValue({ amount, periodStart, periodEnd, prorated: line.prorated }, plan);
      const monthly = monthlyOf(line.amount);
      segments.push({
        key: lineKey(line.subscriptionId, line.planId, invoice.id),
        subscriptionId: line.subscriptionId,
        planId: line.planId,
        start: periodStart,
        end: periodEnd,
        // An invoice amount is an amount of its invoice day: converted once, at that day's rate, so
        // exchange rates moving later never show as movements in the customer's own currency.
        monthly: fx.convert(monthly, invoice.currency, history.currency, invoice.date),
        quantity: line.quantity,
        billed: { currency: invoice.currency, monthly, discount: monthlyOf(line.discount) },
      });
    }
  }
  return segments;
}

/**
 * The value running up to `from` carried on over `[from, to)`: copies of the segments that end
 * exactly at `from`, which are the ones counting on the day before it. Several may end together
 * (a plan's line with the credit and the prorated line of an upgrade), so all are copied.
 */
export function carryForward(segments: readonly Segment[], from: number, to: number): Segment[] {
  return segments
    .filter((segment) => segment.end === from && segment.start < from)
    .map((segment) => ({ ...segment, start: from, end: to }));
}

/** The day the record says the subscription stops, OPEN_END while nothing stops it, or null when it says nothing. */
function recordEnd(record: SubscriptionInput): number | null {
  if (record.endedAt !== null) return record.endedAt;
  if (LIVE_STATUSES.has(record.status)) return record.cancelAt ?? OPEN_END;
  return record.cancelAt;
}

/**
 * A record keeps its subscription alive from its first segment to the record's end: segments
 * are cut at that end, gaps between them are bridged with the earlier value, and the last value
 * runs on to the end. Scheduled changes replace the value from their day on.
 */
function governedSegments(
  record: SubscriptionInput,
  end: number,
  own: Segment[],
  history: CustomerHistory,
  fx: CurrencyConverter,
): Segment[] {
  const key = `sub:${record.id}`;
  const recordCurrency = record.currency ?? history.currency;
  const toCustomerCurrency = (mrr: number, day: number) =>
    fx.convert(mrr, recordCurrency, history.currency, day);
  // A record's value says nothing of a discount.
  const billed = (mrr: number) => ({ currency: recordCurrency, monthly: mrr, discount: null });

  let pieces = own
    .filter((segment) => segment.start < end)
    .map((segment) => ({ ...segment, end: Math.min(segment.end, end) }))
    .sort((a, b) => a.start - b.start);
  if (pieces.length === 0 && record.mrr !== null && record.startedAt < end) {
    const monthly = toCustomerCurrency(record.mrr, record.startedAt);
    pieces = [
      {
        key,
        subscriptionId: record.id,
        planId: record.planId,
        start: record.startedAt,
        end,
        monthly,
        quantity: record.quantity,
        billed: billed(record.mrr),
      },
    ];
  }
  const result: Segment[] = [];
  let reach = Number.POSITIVE_INFINITY;
  for (const piece of pieces) {
    if (piece.start > reach) result.push(...carryForward(result, reach, piece.start));
    result.push(piece);
    reach = reach === Number.POSITIVE_INFINITY ? piece.end : Math.max(reach, piece.end);
  }
  if (reach < end) result.push(...carryForward(result, reach, end));

  const changes = [...record.scheduledChanges]
    .filter((change) => change.day < end)
    .sort((a, b) => a.day - b.day);
  if (changes.length === 0) return result;
  // From the first change on, the changes alone describe the subscription.
  const before = result
    .filter((segment) => segment.start < changes[0]!.day)
    .map((segment) => ({ ...segment, end: Math.min(segment.end, changes[0]!.day) }));
  const after = changes.flatMap((change, index) => {
    const until = changes[index + 1]?.day ?? end;
    if (until <= change.day) return [];
    const planId = change.planId ?? record.planId;
    return [
      {
        key,
        subscriptionId: record.id,
        planId,
        start: change.day,
        end: until,
        monthly: toCustomerCurrency(change.mrr, change.day),
        quantity: change.quantity,
        billed: billed(change.mrr),
      },
    ];
  });
  return [...before, ...after];
}

/** Splits a customer's recurring revenue into line-described and record-governed segments. */
export function subscriptionSegments(history: CustomerHistory, fx: CurrencyConverter): Segments {
  const all = lineSegments(history, fx);
  const governedIds = new Set<string>();
  const governed: Segment[] = [];
  const scheduled: ScheduledEvent[] = [];
  for (const record of history.subscriptions) {
    const end = recordEnd(record);
    if (end === null) continue;
    governedIds.add(record.id);
    const own = all.filter((segment) => segment.subscriptionId === record.id);
    governed.push(...governedSegments(record, end, own, history, fx));
    if (record.endedAt === null && record.cancelAt !== null && end === record.cancelAt) {
      scheduled.push({ day: end, knownDay: record.cancelRequestedAt });
    }
    for (const change of record.scheduledChanges) {
      if (change.day < end) scheduled.push({ day: change.day, knownDay: null });
    }
  }
  const lines = all.filter(
    (segment) => segment.subscriptionId === null || !governedIds.has(segment.subscriptionId),
  );
  return { lines, governed, scheduled };
}
