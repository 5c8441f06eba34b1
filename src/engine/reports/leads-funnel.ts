import { type CustomerView, paidStartDay } from '../account-snapshot.js';
import { dayNumber } from '../days.js';

/**
 * The days a customer reached each stage of the funnel: lead on `created_date`, trial on
 * `trial_started`, paid on `paid_started` (the record's, else the first day with MRR). A
 * stage reached after today, or never, is null: reports count nothing after today.
 */
export interface FunnelDays {
  lead: number | null;
  trial: number | null;
  paid: number | null;
}

const dayOf = (instant: string | null) => (instant === null ? null : dayNumber(instant.slice(0, 10)));
const byToday = (day: number | null, today: number) => (day !== null && day <= today ? day : null);

/** Calls `visit` with the funnel days of each customer the mask keeps (null keeps all), in one pass. */
export function eachFunnel(
  customers: readonly CustomerView[],
  kept: Uint8Array | null,
  today: number,
  visit: (days: FunnelDays) => void,
): void {
  customers.forEach((customer, index) => {
    if (kept !== null && kept[index] !== 1) return;
    visit({
      lead: byToday(dayOf(customer.createdDate), today),
      trial: byToday(dayOf(customer.trialStarted), today),
      paid: byToday(paidStartDay(customer), today),
    });
  });
}

/**
 * Days from one stage to a later one. Records can put paying before the lead's creation (a
 * customer imported long after it started paying); that counts as converting on the same day.
 */
export const daysBetween = (from: number, to: number): number => Math.max(0, to - from);

/** A whole number of days on average, null without anything to average. */
export const averageDays = (totalDays: number, count: number): number | null =>
  count === 0 ? null : Math.round(totalDays / count);
