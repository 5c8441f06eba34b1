import type { RangeQuery } from '../range-query.js';
import type { FunnelColumns } from '../account-snapshot.js';
import { percentOf } from '../cashflow/to-date.js';
import { bucketIndex, bucketLabel, type DayBucket } from './day-buckets.js';
import { averageDays, daysBetween, eachFunnel } from './leads-funnel.js';

/** The leads created in `[from, to]` are counted. */
export type LeadsDaysQuery = Pick<RangeQuery, 'today' | 'from' | 'to' | 'customers'>;

/**
 * Days from lead to paid, bounds inclusive: the same day, the first week, the second, the
 * rest of the first month, then the second and third months, the half year, the year, and
 * longer (no upper bound).
 */
export const LEAD_DAY_BUCKETS: readonly DayBucket[] = [
  [0, 0],
  [1, 7],
  [8, 14],
  [15, 30],
  [31, 60],
  [61, 90],
  [91, 180],
  [181, 365],
  [366, null],
];

export interface LeadDaysBucket {
  /** `0`, `1-7`, ..., `366+`. */
  bucket: string;
  min_days: number;
  max_days: number | null;
  customers: number;
  /** Share of the converted leads, in percent with two decimals; null when none converted. */
  percent: number | null;
}

export interface LeadsDaysReport {
  result: LeadDaysBucket[];
  summary: { leads: number; converted: number; average_days: number | null };
}

/**
 * How long the leads created in the range took to start paying, by bucket of days. These are
 * the leads that `leads_converted` counts over the same range in /reports/leads.
 */
export function leadsDaysReport(funnel: FunnelColumns, query: LeadsDaysQuery): LeadsDaysReport {
  const counts = LEAD_DAY_BUCKETS.map(() => 0);
  let leads = 0;
  let converted = 0;
  let totalDays = 0;
  eachFunnel(funnel, query.customers, query.today, ({ lead, paid }) => {
    if (lead === null || lead < query.from || lead > query.to) return;
    leads += 1;
    if (paid === null) return;
    const days = daysBetween(lead, paid);
    converted += 1;
    totalDays += days;
    counts[bucketIndex(LEAD_DAY_BUCKETS, days)]! += 1;
  });
  return {
    result: LEAD_DAY_BUCKETS.map((bounds, index) => ({
      bucket: bucketLabel(bounds),
      min_days: bounds[0],
      max_days: bounds[1],
      customers: counts[index]!,
      percent: percentOf(counts[index]!, converted),
    })),
    summary: { leads, converted, average_days: averageDays(totalDays, converted) },
  };
}
