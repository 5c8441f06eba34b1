import type { RangeQuery } from '../range-query.js';
import type { FxTable } from '../fx-table.js';
import { roundCents } from '../rounding.js';
import type { Snapshot } from '../snapshot.js';
import { totalsOn } from './totals.js';

export const SUMMARY_OFFSETS = [30, 60, 180, 365] as const;
/** Field suffixes of a summary, in the order of `summaryDays`. */
export const SUMMARY_SUFFIXES = ['current', ...SUMMARY_OFFSETS.map(String)] as const;

/** Today and the days 30, 60, 180 and 365 days before it, in the order of SUMMARY_SUFFIXES. */
export function summaryDays(today: number): number[] {
  return [today, ...SUMMARY_OFFSETS.map((offset) => today - offset)];
}

/** `{<metric>_current, <metric>_30, ...}` from values in the order of `summaryDays`. */
export function summaryFields<T>(metric: string, values: readonly T[]): Record<string, T> {
  return Object.fromEntries(SUMMARY_SUFFIXES.map((suffix, index) => [`${metric}_${suffix}`, values[index]!]));
}
const METRICS = ['mrr', 'arr', 'subscribers', 'arpa'] as const;

/** `fixFx` converts every summary day's figure at today's rate. */
export type SummaryQuery = Pick<RangeQuery, 'today' | 'baseCurrency' | 'fixFx' | 'customers'>;

export type Summary = Record<string, number | null>;

/**
 * `<metric>_current`, `<metric>_30`, ... from a figure computed as it stood on each summary day,
 * converted at that day's rates, or all at today's with fixFx.
 */
export function asOfSummary(
  metric: string,
  query: { today: number; fixFx: boolean },
  valueOn: (day: number, rateDay: number) => number,
): Record<string, number> {
  const days = summaryDays(query.today);
  return summaryFields(
    metric,
    days.map((day) => valueOn(day, query.fixFx ? query.today : day)),
  );
}

/** Percentage change from `past` to `now`, two decimals; null when there is nothing to compare with. */
export function percentageChange(now: number | null, past: number | null): number | null {
  if (now === null || past === null || past === 0) return null;
  return Math.round(((now - past) / Math.abs(past)) * 10_000) / 100;
}

/**
 * Headline figures today and as they were 30, 60, 180 and 365 days ago: MRR, ARR = 12 x MRR,
 * subscribers, ARPA = MRR / subscribers (null without subscribers), with percentage changes.
 */
export function summaryReport(snapshot: Snapshot, query: SummaryQuery, fx: FxTable): Summary {
  const totals = totalsOn(
    snapshot,
    summaryDays(query.today),
    {
      baseCurrency: query.baseCurrency,
      customers: query.customers,
      fixedRateDay: query.fixFx ? query.today : null,
    },
    fx,
  );
  const values = totals.map(({ mrr, subscribers }) => ({
    mrr,
    arr: mrr * 12,
    subscribers,
    arpa: subscribers === 0 ? null : roundCents(mrr / subscribers),
  }));
  const summary: Summary = {};
  for (const metric of METRICS) {
    Object.assign(
      summary,
      summaryFields(
        metric,
        values.map((value) => value[metric]),
      ),
    );
  }
  for (const metric of METRICS) {
    SUMMARY_OFFSETS.forEach((offset, index) => {
      summary[`${metric}_percentage_change_${offset}`] = percentageChange(
        values[0]![metric],
        values[index + 1]![metric],
      );
    });
  }
  return summary;
}
