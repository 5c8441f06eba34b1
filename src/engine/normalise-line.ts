import { shiftMonths } from './periods.js';
import type { BillingFreq, PlanInput } from './types.js';

/** What normalising a line needs of its plan. */
export type PlanPeriod = Pick<PlanInput, 'billingFreq' | 'billingFreqCount'>;

/** Months in one unit of each billing frequency. */
const MONTHS_PER_UNIT: Record<BillingFreq, number> = {
  day: 12 / 365,
  week: 12 / 52,
  month: 1,
  quarter: 3,
  year: 12,
};

/** The average length of one unit in days, to recognise the interval of a line without a plan. */
const DAYS_PER_UNIT: [BillingFreq, number][] = [
  ['day', 1],
  ['week', 7],
  ['month', 30.4375],
  ['quarter', 91.3125],
  ['year', 365.25],
];

const AVERAGE_MONTH_DAYS = 30.4375;

/** The unit whose average length in days is nearest the period's. */
export function nearestInterval(days: number): BillingFreq {
  let best: BillingFreq = 'month';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [freq, unitDays] of DAYS_PER_UNIT) {
    const distance = Math.abs(days - unitDays);
    if (distance < bestDistance) {
      best = freq;
      bestDistance = distance;
    }
  }
  return best;
}

/** The first day of the whole billing period of `plan` that ends at `end` (exclusive). */
export function wholePeriodStart(plan: PlanPeriod, end: number): number {
  const count = plan.billingFreqCount;
  switch (plan.billingFreq) {
    case 'day':
      return end - count;
    case 'week':
      return end - 7 * count;
    case 'month':
      return shiftMonths(end, -count);
    case 'quarter':
      return shiftMonths(end, -3 * count);
    case 'year':
      return shiftMonths(end, -12 * count);
  }
}

/**
 * Monthly value of one whole billing period's amount under a plan (docs/metrics.md, "Monthly value
 * of an invoice line").
 */
export function monthlyFromPeriodAmount(amount: number, plan: PlanPeriod): number {
  return amount / (MONTHS_PER_UNIT[plan.billingFreq] * plan.billingFreqCount);
}

export interface NormalisableLine {
  amount: number;
  periodStart: number;
  periodEnd: number;
  prorated: boolean;
}

/**
 * The exact (unrounded) monthly value of a subscription line (docs/metrics.md, "Monthly value of an
 * invoice line"):
 * - a whole line: its amount scaled by its plan's interval (month x1, quarter /3, year /12,
 *   week x52/12, day x365/12) and divided by billing_freq_count; without a plan, by the interval
 *   nearest the line's own period length;
 * - a prorated line: first scaled up to the whole billing period of its plan that ends at its
 *   period_end, then normalised; without a plan, amount x 30.4375 / days of the line's period.
 */
export function monthlyValue(line: NormalisableLine, plan: PlanPeriod | undefined): number {
  const lineDays = line.periodEnd - line.periodStart;
  if (line.prorated) {
    if (!plan) return (line.amount * AVERAGE_MONTH_DAYS) / lineDays;
    const wholeDays = line.periodEnd - wholePeriodStart(plan, line.periodEnd);
    return monthlyFromPeriodAmount((line.amount * wholeDays) / lineDays, plan);
  }
  return monthlyFromPeriodAmount(
    line.amount,
    plan ?? { billingFreq: nearestInterval(lineDays), billingFreqCount: 1 },
  );
}
