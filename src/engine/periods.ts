import { dayNumber, dayString } from './days.js';

export type Interval = 'day' | 'week' | 'month' | 'quarter' | 'year';

export interface Period {
  /** First day of the period. */
  start: number;
  /** Last day of the period, inclusive. */
  end: number;
}

function ymd(day: number): [number, number, number] {
  const text = dayString(day);
  return [Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10))];
}

function firstOfMonth(year: number, month: number): number {
  const total = year * 12 + month - 1;
  const y = Math.floor(total / 12);
  const m = total - y * 12 + 1;
  return dayNumber(`${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01`);
}

/** The first day of the period of `interval` holding `day`; weeks start on Monday (ISO 8601). */
export function periodStart(day: number, interval: Interval): number {
  switch (interval) {
    case 'day':
      return day;
    case 'week':
      // Day 0 (1970-01-01) was a Thursday: Monday is three days later in the cycle.
      return day - ((((day + 3) % 7) + 7) % 7);
    case 'month': {
      const [year, month] = ymd(day);
      return firstOfMonth(year, month);
    }
    case 'quarter': {
      const [year, month] = ymd(day);
      return firstOfMonth(year, month - ((month - 1) % 3));
    }
    case 'year':
      return firstOfMonth(ymd(day)[0], 1);
  }
}

/** The first day of the period after the one starting at `start`. */
export function nextPeriodStart(start: number, interval: Interval): number {
  switch (interval) {
    case 'day':
      return start + 1;
    case 'week':
      return start + 7;
    case 'month':
    case 'quarter':
    case 'year': {
      const [year, month] = ymd(start);
      return firstOfMonth(year, month + (interval === 'month' ? 1 : interval === 'quarter' ? 3 : 12));
    }
  }
}

/** The periods of `interval` that meet `[from, to]`, the first and last cut to the range. */
export function periodsBetween(from: number, to: number, interval: Interval): Period[] {
  const periods: Period[] = [];
  for (let start = periodStart(from, interval); start <= to; start = nextPeriodStart(start, interval)) {
    periods.push({ start: Math.max(start, from), end: Math.min(nextPeriodStart(start, interval) - 1, to) });
  }
  return periods;
}

/** The same day of the month `months` earlier or later, clamped to the month's last day. */
export function shiftMonths(day: number, months: number): number {
  const [year, month, dayOfMonth] = ymd(day);
  const first = firstOfMonth(year, month + months);
  const lastOfMonth = nextPeriodStart(first, 'month') - first;
  return first + Math.min(dayOfMonth, lastOfMonth) - 1;
}
