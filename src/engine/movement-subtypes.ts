import type { CustomerHistory, MovementKind, MovementSubtype, Segment } from './types.js';
import { CHANGE_SUBTYPES } from './vocabulary.js';

/** What one subscription (one segment key) bills on a day. */
interface ItemState {
  /** Its plans, sorted and joined: a set compared as one string. */
  plans: string;
  quantity: number;
  /** The currency it is billed in; null when its segments bill in several. */
  currency: string | null;
  billedMonthly: number;
  /** Null when a segment does not say. */
  discount: number | null;
  /** In the customer's currency. */
  monthly: number;
}

// Values summed from fractions differ by dust; a cent's hundredth is no change.
const DUST = 1e-2;
const differ = (a: number, b: number) => Math.abs(a - b) > DUST;

function mergeStates(segments: readonly Segment[]): ItemState {
  const plans = [...new Set(segments.map((segment) => segment.planId ?? ''))].sort().join(',');
  const currencies = new Set(segments.map((segment) => segment.billed.currency));
  let discount: number | null = 0;
  for (const segment of segments) {
    discount =
      discount === null || segment.billed.discount === null ? null : discount + segment.billed.discount;
  }
  const sum = (of: (segment: Segment) => number) =>
    segments.reduce((total, segment) => total + of(segment), 0);
  return {
    plans,
    quantity: sum((segment) => segment.quantity),
    currency: currencies.size === 1 ? [...currencies][0]! : null,
    billedMonthly: sum((segment) => segment.billed.monthly),
    discount,
    monthly: sum((segment) => segment.monthly),
  };
}

/**
 * Each subscription's paying segments on `day`, by key. As for quantities (quantity.ts), a
 * credit is no item, and of overlapping segments only the latest-starting describe the
 * subscription: the prorated line of an upgrade, not the plan's line it replaces.
 */
function itemsOn(segments: readonly Segment[], day: number): Map<string, Segment[]> {
  const byKey = new Map<string, Segment[]>();
  for (const segment of segments) {
    if (segment.monthly <= 0 || segment.start > day || segment.end <= day) continue;
    const group = byKey.get(segment.key);
    if (group === undefined) byKey.set(segment.key, [segment]);
    else if (segment.start > group[0]!.start) byKey.set(segment.key, [segment]);
    else if (segment.start === group[0]!.start) group.push(segment);
  }
  return byKey;
}

/** What differs between two states of the same subscription (or of what replaced it). */
function differences(before: ItemState, after: ItemState): MovementSubtype[] {
  const found: MovementSubtype[] = [];
  if (before.plans !== after.plans) found.push('plan_change');
  if (before.quantity !== after.quantity) found.push('quantity_change');
  if (before.discount !== null && after.discount !== null && differ(before.discount, after.discount)) {
    found.push('discount_change');
  }
  const sameCurrency = before.currency !== null && before.currency === after.currency;
  if (!sameCurrency || differ(before.billedMonthly, after.billedMonthly)) found.push('price_change');
  else if (differ(before.monthly, after.monthly)) found.push('fx');
  return found;
}

/**
 * Why a customer's MRR went up or down on `day`: its subscriptions the day before compared with
 * on the day. A subscription present on one side only is an add-on (added, or removed); when
 * some disappear and others appear on the same day, those replaced are compared with what
 * replaced them as one (a plan's line followed by another plan's line). Of several causes the
 * first in CHANGE_SUBTYPES wins; `other` when none shows (docs/metrics.md).
 */
export function changeSubtype(segments: readonly Segment[], day: number): MovementSubtype {
  const before = itemsOn(segments, day - 1);
  const after = itemsOn(segments, day);
  const removed = [...before.keys()].filter((key) => !after.has(key));
  const added = [...after.keys()].filter((key) => !before.has(key));
  const found = new Set<MovementSubtype>();
  if (removed.length > 0 && added.length > 0) {
    const merged = (items: Map<string, Segment[]>, keys: string[]) =>
      mergeStates(keys.flatMap((key) => items.get(key)!));
    for (const cause of differences(merged(before, removed), merged(after, added))) found.add(cause);
  } else if (removed.length > 0 || added.length > 0) {
    found.add('add_on');
  }
  for (const [key, items] of before) {
    const now = after.get(key);
    if (now === undefined) continue;
    for (const cause of differences(mergeStates(items), mergeStates(now))) found.add(cause);
  }
  return CHANGE_SUBTYPES.find((subtype) => found.has(subtype)) ?? 'other';
}

const UNPAID = new Set(['open', 'uncollectible']);

/**
 * Why a customer's MRR fell to zero on `day`: `voluntary` when a subscription ending then was
 * cancelled on request; else `delinquent` when the customer's latest counted invoice with
 * subscription lines, up to that day, is unpaid (open or uncollectible; of several on that
 * latest date, any one); else `voluntary`.
 */
export function churnSubtype(
  segments: readonly Segment[],
  day: number,
  history: CustomerHistory,
): MovementSubtype {
  const ending = new Set(
    [...itemsOn(segments, day - 1).values()].flatMap((items) => items.map((item) => item.subscriptionId)),
  );
  const requested = history.subscriptions.some(
    (record) => ending.has(record.id) && record.cancelRequestedAt !== null && record.cancelRequestedAt <= day,
  );
  if (requested) return 'voluntary';
  // Several counted invoices on the latest day: any of them unpaid makes it delinquent, so the
  // answer does not depend on the order the invoices come in.
  let latestDay = Number.NEGATIVE_INFINITY;
  let unpaid = false;
  for (const invoice of history.invoices) {
    if (invoice.status === 'draft' || invoice.status === 'void' || invoice.date > day) continue;
    if (!invoice.lines.some((line) => line.type === 'subscription')) continue;
    if (invoice.date > latestDay) {
      latestDay = invoice.date;
      unpaid = false;
    }
    if (invoice.date === latestDay && UNPAID.has(invoice.status)) unpaid = true;
  }
  return unpaid ? 'delinquent' : 'voluntary';
}

/** The subtype of a movement of `kind` when nothing more is known of it. */
export function fallbackSubtype(kind: MovementKind): MovementSubtype {
  if (kind === 'new' || kind === 'reactivation') return kind;
  return kind === 'churn' ? 'voluntary' : 'other';
}

/** The subtype of each movement of a customer, from its segments and records. */
export function movementSubtype(
  kind: MovementKind,
  day: number,
  segments: readonly Segment[],
  history: CustomerHistory,
): MovementSubtype {
  if (kind === 'churn') return churnSubtype(segments, day, history);
  if (kind === 'expansion' || kind === 'contraction') return changeSubtype(segments, day);
  return kind;
}
