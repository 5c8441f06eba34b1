import type { AccountSnapshot } from '../account-snapshot.js';
import type { RangeQuery } from '../range-query.js';
import { MOVEMENT_KINDS } from '../vocabulary.js';
import { twoDecimals } from '../rounding.js';
import { dayString } from '../days.js';
import type { FxTable } from '../fx-table.js';
import { periodStart, periodsBetween, shiftMonths } from '../periods.js';
import { ratioOrZero } from '../ratio.js';
import { roundCents } from '../rounding.js';
import {
  baselineOf,
  type CohortWindow,
  cohortFigures,
  cohortRates,
  RATES,
  type Rates,
} from './cohort-windows.js';

/** How far back the `_avg` fields look: the rows of the trailing year. */
export const AVERAGE_MONTHS = 12;

/** `fixFx` converts everything at the rate of `to`. Customers come in groups, not as one mask. */
export interface RetentionQuery extends Omit<RangeQuery, 'customers'> {
  /** How many months before each row's date its baseline lies. */
  trailingMonths: number;
  /** Each customer's group by snapshot index, or -1 to leave it out. */
  groupOf: Int32Array;
  groupCount: number;
}

export interface RetentionRow {
  date: string;
  baseline_date: string;
  baseline_mrr: number;
  target_mrr: number;
  grr_mrr: number;
  cohort_customers: number;
  retained_customers: number;
  churned_customers: number;
  expansion: number;
  expansion_customers: number;
  contraction: number;
  contraction_customers: number;
  churn: number;
  churn_customers: number;
  reactivation: number;
  reactivation_customers: number;
  fx_adjustment: number;
  /** Rates and averages are 0 where there is nothing to divide by or average (ratioOrZero). */
  nrr: number;
  grr: number;
  customer_retention_rate: number;
  customer_churn_rate: number;
  mrr_churn_rate: number;
  net_mrr_churn_rate: number;
  nrr_avg: number;
  grr_avg: number;
  customer_retention_avg: number;
  customer_churn_avg: number;
  mrr_churn_avg: number;
  net_mrr_churn_avg: number;
  arpa: number;
  ltv: number;
  customer_lifetime: number;
}

export interface RetentionReport {
  /** One series per group, a row per period of the range. */
  rows: RetentionRow[][];
  /** First day of the period holding the first row's baseline, and of the last row's period. */
  baselinePeriod: string;
  targetPeriod: string;
}

const [EXPANSION, CONTRACTION, CHURN, REACTIVATION] = (
  ['expansion', 'contraction', 'churn', 'reactivation'] as const
).map((kind) => MOVEMENT_KINDS.indexOf(kind)) as [number, number, number, number];

/**
 * A rate as a percentage. The rates stay null inside the engine, so that the trailing means skip
 * the windows without a cohort; the rows carry 0 for them, as for every ratio over nothing.
 */
const percent = (ratio: number | null) => twoDecimals((ratio ?? 0) * 100);

/** The churn rate of one month that, repeated `months` times, loses as much as `rate` does. */
export function monthlyRate(rate: number | null, months: number): number | null {
  return rate === null ? null : 1 - (1 - rate) ** (1 / months);
}

/** The mean of the non-null values from `starts[k]` to k, for every k; null when there are none. */
function trailingMeans(values: readonly (number | null)[], starts: readonly number[]): (number | null)[] {
  const sums = [0];
  const counts = [0];
  values.forEach((value, index) => {
    sums.push(sums[index]! + (value ?? 0));
    counts.push(counts[index]! + (value === null ? 0 : 1));
  });
  return values.map((_, index) => {
    const count = counts[index + 1]! - counts[starts[index]!]!;
    return count === 0 ? null : (sums[index + 1]! - sums[starts[index]!]!) / count;
  });
}

/**
 * Retention per period of the range (one series per group): each row follows the customers
 * paying `trailingMonths` months before the period's last day (cut to the range) to that day.
 * NRR, GRR, customer retention and the churn rates are over that window; their `_avg` twins
 * are the means of the rows of the trailing AVERAGE_MONTHS months, so the rows of the year
 * before the range are computed too. ARPA is per retained customer, and LTV = ARPA / the monthly
 * customer churn rate equivalent to customer_churn_avg; with no churn LTV and the customer
 * lifetime are 0, not infinite, as every ratio over nothing (churned_customers tells).
 */
export function retentionReport(
  snapshot: AccountSnapshot,
  query: RetentionQuery,
  fx: FxTable,
): RetentionReport {
  const periods = periodsBetween(shiftMonths(query.from, -AVERAGE_MONTHS), query.to, query.interval);
  const windows: CohortWindow[] = periods.map((period) => ({
    baseline: baselineOf(period.end, query.trailingMonths),
    target: period.end,
  }));
  const first = windows.findIndex((window) => window.target >= query.from);
  const figures = cohortFigures(
    snapshot,
    windows,
    { ...query, fixedRateDay: query.fixFx ? query.to : null },
    fx,
  );
  // The first window of each row's trailing year.
  const starts: number[] = [];
  let start = 0;
  for (const window of windows) {
    const before = baselineOf(window.target, AVERAGE_MONTHS);
    while (windows[start]!.target <= before) start += 1;
    starts.push(start);
  }

  const rows = Array.from({ length: query.groupCount }, (_, group) => {
    const rates = figures.map((perGroup) => cohortRates(perGroup[group]!));
    const means = Object.fromEntries(
      RATES.map((rate) => [
        rate,
        trailingMeans(
          rates.map((row) => row[rate]),
          starts,
        ),
      ]),
    ) as Record<keyof Rates, (number | null)[]>;
    return windows.slice(first).map((window, shown): RetentionRow => {
      const index = first + shown;
      const cohort = figures[index]![group]!;
      const rate = rates[index]!;
      const arpa = roundCents(ratioOrZero(cohort.targetMrr, cohort.retained));
      const monthlyChurn = monthlyRate(means.customerChurn[index]!, query.trailingMonths) ?? 0;
      return {
        date: dayString(window.target),
        baseline_date: dayString(window.baseline),
        baseline_mrr: cohort.baselineMrr,
        target_mrr: cohort.targetMrr,
        grr_mrr: cohort.grrMrr,
        cohort_customers: cohort.customers,
        retained_customers: cohort.retained,
        churned_customers: cohort.customers - cohort.retained,
        expansion: cohort.movements[EXPANSION]!,
        expansion_customers: cohort.movers[EXPANSION]!,
        contraction: cohort.movements[CONTRACTION]!,
        contraction_customers: cohort.movers[CONTRACTION]!,
        churn: cohort.movements[CHURN]!,
        churn_customers: cohort.movers[CHURN]!,
        reactivation: cohort.movements[REACTIVATION]!,
        reactivation_customers: cohort.movers[REACTIVATION]!,
        fx_adjustment: cohort.fxAdjustment,
        nrr: percent(rate.nrr),
        grr: percent(rate.grr),
        customer_retention_rate: percent(rate.customerRetention),
        customer_churn_rate: percent(rate.customerChurn),
        mrr_churn_rate: percent(rate.mrrChurn),
        net_mrr_churn_rate: percent(rate.netMrrChurn),
        nrr_avg: percent(means.nrr[index]!),
        grr_avg: percent(means.grr[index]!),
        customer_retention_avg: percent(means.customerRetention[index]!),
        customer_churn_avg: percent(means.customerChurn[index]!),
        mrr_churn_avg: percent(means.mrrChurn[index]!),
        net_mrr_churn_avg: percent(means.netMrrChurn[index]!),
        arpa,
        ltv: roundCents(ratioOrZero(arpa, monthlyChurn)),
        customer_lifetime: twoDecimals(ratioOrZero(1, monthlyChurn)),
      };
    });
  });

  const firstWindow = windows[first]!;
  const lastWindow = windows[windows.length - 1]!;
  return {
    rows,
    baselinePeriod: dayString(periodStart(firstWindow.baseline, query.interval)),
    targetPeriod: dayString(Math.max(periodStart(lastWindow.target, query.interval), query.from)),
  };
}
