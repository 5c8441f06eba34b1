import type { FunnelColumns } from '../account-snapshot.js';

/**
 * The days one customer reached each stage of the funnel (see FunnelColumns); null for a
 * stage reached after today, or never: reports count nothing after today.
 */
export interface FunnelDays {
  lead: number | null;
  trial: number | null;
  paid: number | null;
}

/** Calls `visit` with the funnel days of each customer the mask keeps (null keeps all), in one pass. */
export function eachFunnel(
  funnel: FunnelColumns,
  kept: Uint8Array | null,
  today: number,
  visit: (days: FunnelDays) => void,
): void {
  const byToday = (day: number) => (day <= today ? day : null);
  for (let index = 0; index < funnel.lead.length; index++) {
    if (kept !== null && kept[index] !== 1) continue;
    visit({
      lead: byToday(funnel.lead[index]!),
      trial: byToday(funnel.trial[index]!),
      paid: byToday(funnel.paid[index]!),
    });
  }
}

/**
 * Days from one stage to a later one. Records can put paying before the lead's creation (a
 * customer imported long after it started paying); that counts as converting on the same day.
 */
export const daysBetween = (from: number, to: number): number => Math.max(0, to - from);

/** A whole number of days on average, null without anything to average. */
export const averageDays = (totalDays: number, count: number): number | null =>
  count === 0 ? null : Math.round(totalDays / count);
