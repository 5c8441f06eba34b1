/** One day's row of the MRR report at a daily interval: the figures alerts are judged on. */
export interface AlertDay {
  /** YYYY-MM-DD */
  date: string;
  /** Cents of the base currency; the churn movements of the day, negative or 0. */
  churn: number;
  /** MRR at the end of the day. */
  total_mrr: number;
}

export interface AlertThresholds {
  /** Churned MRR in one day, cents of the base currency; 0 turns the alert off. */
  churn_threshold: number;
  /** Fall of MRR from the day before, in percent; 0 turns the alert off. */
  mrr_drop_threshold: number;
}

export type AlertKind = 'churn' | 'mrr_drop';

export interface Alert {
  kind: AlertKind;
  /** The day the measure crossed its threshold. */
  date: string;
  /** Cents churned, or percent fallen. */
  value: number;
  threshold: number;
}

/** Churned MRR of a day, as a positive number of cents. */
const churned = (day: AlertDay) => -day.churn;

/** Percent MRR fell from `before` to `day`; 0 when it grew or there was none to fall from. */
export function mrrDropPercent(before: AlertDay, day: AlertDay): number {
  if (before.total_mrr <= 0 || day.total_mrr >= before.total_mrr) return 0;
  return ((before.total_mrr - day.total_mrr) / before.total_mrr) * 100;
}

/**
 * The alerts whose measure crossed its threshold on the last of three consecutive days: above
 * it that day (strictly: the threshold is the most still allowed) and not above it the day
 * before. A measure that stays above sends nothing more until it has come back down.
 */
export function crossedAlerts(
  days: readonly [AlertDay, AlertDay, AlertDay],
  thresholds: AlertThresholds,
): Alert[] {
  const [first, before, day] = days;
  const alerts: Alert[] = [];
  const check = (kind: AlertKind, threshold: number, previous: number, current: number) => {
    if (threshold > 0 && current > threshold && !(previous > threshold))
      alerts.push({ kind, date: day.date, value: current, threshold });
  };
  check('churn', thresholds.churn_threshold, churned(before), churned(day));
  check(
    'mrr_drop',
    thresholds.mrr_drop_threshold,
    mrrDropPercent(first, before),
    mrrDropPercent(before, day),
  );
  return alerts;
}
