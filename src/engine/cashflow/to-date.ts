import { type Interval, type Period, periodStart, shiftMonths } from '../periods.js';
import { ratioOrZero } from '../ratio.js';
import { percentageChange } from '../reports/summary.js';
import { twoDecimals } from '../rounding.js';

export type ToDate = 'mtd' | 'qtd' | 'ytd';

const SPANS: Record<ToDate, { interval: Interval; months: number }> = {
  mtd: { interval: 'month', months: 1 },
  qtd: { interval: 'quarter', months: 3 },
  ytd: { interval: 'year', months: 12 },
};

/**
 * Month, quarter or year to date, and its twin: the same span of the month, quarter or year
 * before (Mar 1-31 is twinned with Feb 1-28, the shorter month's end clamping the day).
 */
export function toDateSpan(today: number, name: ToDate): { current: Period; previous: Period } {
  const { interval, months } = SPANS[name];
  const start = periodStart(today, interval);
  return {
    current: { start, end: today },
    previous: { start: shiftMonths(start, -months), end: shiftMonths(today, -months) },
  };
}

/** Every day a to-date summary of `layout` reads: from the earliest twin's start to today. */
export function toDateRange(today: number, layout: ToDateLayout): { from: number; to: number } {
  return { from: Math.min(...layout.spans.map((name) => toDateSpan(today, name).previous.start)), to: today };
}

/** `part` as a percentage of `whole`, two decimals; null when `whole` is 0, so never NaN. */
export function percentOf(part: number, whole: number): number | null {
  return whole === 0 ? null : percentOrZero(part, whole);
}

/** `part` as a percentage of `whole`, two decimals; 0 when `whole` is 0 (ratioOrZero). */
export function percentOrZero(part: number, whole: number): number {
  return twoDecimals(ratioOrZero(part, whole) * 100);
}

/** Absolute change of a rate, two decimals; null when either side is null. */
export function pointChange(now: number | null, past: number | null): number | null {
  return now === null || past === null ? null : twoDecimals(now - past);
}

export type Figures = Record<string, number | null>;
export type Summary = Record<string, number | null>;

/** Which spans a to-date summary covers, its figures, and which figures get which change. */
export interface ToDateLayout {
  spans: readonly ToDate[];
  figures: readonly string[];
  /** Figures with `<span>_<figure>_change_pct`, the percentage change from the twin. */
  percent: readonly string[];
  /** Figures with `<span>_<figure>_change`, the absolute change from the twin (rates). */
  point: readonly string[];
}

/** The field names of a to-date summary, in the order it writes them. */
export function toDateFields(layout: ToDateLayout): string[] {
  return layout.spans.flatMap((name) => [
    ...layout.figures.flatMap((key) => [`${name}_${key}`, `prev_${name}_${key}`]),
    ...layout.percent.map((key) => `${name}_${key}_change_pct`),
    ...layout.point.map((key) => `${name}_${key}_change`),
  ]);
}

/**
 * The layout's figures for each to-date span and its twin, named `<span>_<figure>` and
 * `prev_<span>_<figure>`, with their changes. `figures` gets the span; outcomes in it are
 * judged on its last day.
 */
export function toDateSummary(
  today: number,
  layout: ToDateLayout,
  figures: (span: Period) => Figures,
): Summary {
  const summary: Summary = {};
  for (const name of layout.spans) {
    const { current, previous } = toDateSpan(today, name);
    const now = figures(current);
    const past = figures(previous);
    for (const key of layout.figures) {
      summary[`${name}_${key}`] = now[key]!;
      summary[`prev_${name}_${key}`] = past[key]!;
    }
    for (const key of layout.percent) {
      summary[`${name}_${key}_change_pct`] = percentageChange(now[key]!, past[key]!);
    }
    for (const key of layout.point) {
      summary[`${name}_${key}_change`] = pointChange(now[key]!, past[key]!);
    }
  }
  return summary;
}
