import type { FxTable } from '../fx-table.js';
import { roundCents } from '../rounding.js';
import type { Snapshot } from '../snapshot.js';
import { totalsOn } from './totals.js';

export const SUMMARY_OFFSETS = [30, 60, 180, 365] as const;
const METRICS = ['mrr', 'arr', 'subscribers', 'arpa'] as const;

export interface SummaryQuery {
  today: number;
  baseCurrency: string;
  fixFx: boolean;
  customers: Uint8Array | null;
}

export type Summary = Record<string, number | null>;

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
  const days = [query.today, ...SUMMARY_OFFSETS.map((offset) => query.today - offset)];
  const totals = totalsOn(
    snapshot,
    days,
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
  const suffixes = ['current', ...SUMMARY_OFFSETS.map(String)];
  for (const metric of METRICS) {
    suffixes.forEach((suffix, index) => {
      summary[`${metric}_${suffix}`] = values[index]![metric];
    });
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
