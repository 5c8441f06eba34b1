// How the record of an item removed from a live subscription stops carrying MRR (docs/connectors.md,
// "Removed items"): the same rule for every connector. An `active` record with no `ended_at`
// keeps its subscription in MRR (docs/metrics.md), so a record left as it was last imported
// would carry the removed item's MRR for ever.

/** What the rule reads of one invoice line that bills a subscription item. */
export interface BilledItem {
  /** The subscription at the billing system the line bills. */
  subscription: string;
  /** The id of our record of the item it bills. */
  record: string;
  planId: string | null;
  quantity: number;
  /** When the period billed ends. */
  end: Date;
  /** A credit (unused time given back) bills no period. */
  credit: boolean;
}

/** What a subscription's records share besides their item. */
export interface SubscriptionFields {
  customer_id: string | null;
  started_at: string;
  currency: string | null;
}

/**
 * The records of one subscription that its fresh read no longer names but the invoice lines
 * billed: each ends (`canceled`) at the end of the last period it was billed for, with that
 * line's plan and quantity and no scheduled change, so its invoices decide its MRR up to then
 * and nothing carries it on.
 * `billed` says what a line bills (undefined for a line that bills no subscription item).
 */
export function removedItemRecords<Line>(
  subscription: { id: string; named: ReadonlySet<string>; fields: SubscriptionFields },
  lines: readonly Line[],
  billed: (line: Line) => BilledItem | undefined,
) {
  const last = new Map<string, BilledItem>();
  for (const line of lines) {
    const item = billed(line);
    if (
      item === undefined ||
      item.credit ||
      item.subscription !== subscription.id ||
      subscription.named.has(item.record)
    )
      continue;
    const known = last.get(item.record);
    if (known === undefined || item.end > known.end) last.set(item.record, item);
  }
  return [...last.values()].map((item) => ({
    id: item.record,
    ...subscription.fields,
    plan_id: item.planId,
    quantity: item.quantity,
    status: 'canceled',
    cancel_requested_at: null,
    cancel_at: null,
    ended_at: item.end.toISOString(),
    scheduled_changes: [],
  }));
}
