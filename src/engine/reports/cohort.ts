import type { RangeQuery } from '../range-query.js';
import { MOVEMENT_KINDS } from '../vocabulary.js';
import type { AccountSnapshot } from '../account-snapshot.js';
import { breakdownValue } from '../breakdown.js';
import { dayNumber, dayString } from '../days.js';
import type { FxTable } from '../fx-table.js';
import { type Interval, type Period, periodsBetween, periodStart } from '../periods.js';
import { roundCents, twoDecimals } from '../rounding.js';

/**
 * Cohorts are the whole periods meeting `[from, to]`; figures are read up to `to` or today,
 * whichever comes first. `day` is read as `week`: daily cohorts are aggregated weekly. `fixFx`
 * converts each cohort's figures at the rate of the cohort's first day, not of the day they are read.
 */
export interface CohortQuery extends RangeQuery {
  /** A dimension of engine/breakdown.ts: one cohort per value instead of one per start period. */
  breakdown: string | null;
}

export interface CohortPeriod {
  mrr_retained: number;
  customers_retained: number;
  mrr_retention: number;
  customer_retention: number;
  /** Net revenue retention: mrr_retention under the name the reference's clients read. */
  nrr: number;
  mrr_retention_relative: number;
  customer_retention_relative: number;
  mrr_churn: number;
  customer_churn: number;
  mrr_churn_relative: number;
  customer_churn_relative: number;
}

export interface Cohort {
  cohort_group: string;
  label: string;
  initial_mrr: number;
  initial_customers: number;
  periods: CohortPeriod[];
}

/** The mean cohort: its initial figures are the cohorts' means, so its row reads like theirs. */
export interface AverageCohort extends Omit<Cohort, 'cohort_group'> {
  cohort_group: 'average';
}

export interface Bounds {
  min: number;
  max: number;
}

/** The smallest and largest percentages of the cohorts that have customers, for chart axes. */
export interface CohortLimits {
  retention: Bounds;
  nrr: Bounds;
  churn: Bounds;
  netChurn: Bounds;
}

export interface CohortReport {
  cohorts: Cohort[];
  average: AverageCohort;
  limits: CohortLimits;
}

export const AVERAGE = 'average';

/**
 * The customers who started paying in one period (with one breakdown value): how many, and at
 * each period from their start, their MRR in the base currency (unrounded) and how many pay.
 */
interface Members {
  customers: number;
  mrr: Float64Array;
  paying: Int32Array;
  /** Which running sum (collectMembers) holds each of the members' currencies, by snapshot currency index. */
  sums: number[];
}

/** A row of the report before its figures are worked out. */
interface Row {
  group: string;
  label: string;
  members: Members[];
  length: number;
}

/** `YYYY`, `YYYY-Qn`, `YYYY-MM`, or the ISO 8601 week `YYYY-Www`, of the period starting on `start`. */
function periodLabel(start: number, interval: Interval): string {
  const text = dayString(start);
  switch (interval) {
    case 'year':
      return text.slice(0, 4);
    case 'quarter':
      return `${text.slice(0, 4)}-Q${Math.ceil(Number(text.slice(5, 7)) / 3)}`;
    case 'month':
      return text.slice(0, 7);
    case 'week':
    case 'day': {
      // An ISO week belongs to the year of its Thursday and counts from that year's first one.
      const thursday = start + 3;
      const year = dayString(thursday).slice(0, 4);
      const week = Math.floor((thursday - dayNumber(`${year}-01-01`)) / 7) + 1;
      return `${year}-W${String(week).padStart(2, '0')}`;
    }
  }
}

/** The index of the period holding `day`; the periods are contiguous and `day` lies within them. */
function periodIndex(periods: readonly Period[], day: number): number {
  let low = 0;
  let high = periods.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (periods[middle]!.start <= day) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The index of the first of the day-ordered movements on or after `day`. */
function firstMovementOn(days: Int32Array, count: number, day: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (days[middle]! < day) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** `part` as a percentage of `whole` and 100 minus it, two decimals; both 0 when there is no whole. */
function retentionAndChurn(part: number, whole: number): [number, number] {
  if (whole === 0) return [0, 0];
  const retention = twoDecimals((part / whole) * 100);
  return [retention, twoDecimals(100 - retention)];
}

/**
 * One cohort's periods from its members. Period k counts only the members whose k-th period
 * has begun, and compares them with their own start (retention) and their own period k-1
 * (relative; period 0 compares with the start). Retained figures are divided by `cohortsAt(k)`:
 * 1 for a cohort, the number of cohorts that reached period k for the average.
 */
function poolPeriods(
  members: readonly Members[],
  length: number,
  cohortsAt: (k: number) => number,
): CohortPeriod[] {
  const periods: CohortPeriod[] = [];
  for (let k = 0; k < length; k++) {
    let mrr = 0;
    let initialMrr = 0;
    let previousMrr = 0;
    let paying = 0;
    let initialCustomers = 0;
    let previousPaying = 0;
    for (const group of members) {
      if (group.mrr.length <= k) continue;
      mrr += group.mrr[k]!;
      initialMrr += group.mrr[0]!;
      previousMrr += group.mrr[k === 0 ? 0 : k - 1]!;
      paying += group.paying[k]!;
      initialCustomers += group.customers;
      previousPaying += k === 0 ? group.customers : group.paying[k - 1]!;
    }
    const cohorts = cohortsAt(k);
    const [mrrRetention, mrrChurn] = retentionAndChurn(mrr, initialMrr);
    const [customerRetention, customerChurn] = retentionAndChurn(paying, initialCustomers);
    const [mrrRelative, mrrChurnRelative] = retentionAndChurn(mrr, previousMrr);
    const [customerRelative, customerChurnRelative] = retentionAndChurn(paying, previousPaying);
    periods.push({
      mrr_retained: roundCents(mrr / cohorts),
      customers_retained: twoDecimals(paying / cohorts),
      mrr_retention: mrrRetention,
      customer_retention: customerRetention,
      nrr: mrrRetention,
      mrr_retention_relative: mrrRelative,
      customer_retention_relative: customerRelative,
      mrr_churn: mrrChurn,
      customer_churn: customerChurn,
      mrr_churn_relative: mrrChurnRelative,
      customer_churn_relative: customerChurnRelative,
    });
  }
  return periods;
}

function bounds(values: readonly number[]): Bounds {
  if (values.length === 0) return { min: 0, max: 0 };
  return values.reduce(
    (range, value) => ({ min: Math.min(range.min, value), max: Math.max(range.max, value) }),
    { min: values[0]!, max: values[0]! },
  );
}

function limitsOf(cohorts: readonly Cohort[]): CohortLimits {
  const cells = cohorts.filter((cohort) => cohort.initial_customers > 0).flatMap((cohort) => cohort.periods);
  return {
    retention: bounds(cells.map((cell) => cell.customer_retention)),
    nrr: bounds(cells.map((cell) => cell.mrr_retention)),
    churn: bounds(cells.map((cell) => cell.customer_churn)),
    netChurn: bounds(cells.map((cell) => cell.mrr_churn)),
  };
}

const NEW = MOVEMENT_KINDS.indexOf('new');
const REACTIVATION = MOVEMENT_KINDS.indexOf('reactivation');
const CHURN = MOVEMENT_KINDS.indexOf('churn');

/**
 * The members of every start period and breakdown value (null for none, and for all without a
 * breakdown), filled in one pass over the movements in day order: a running sum per members
 * and currency, converted and recorded at the end of each period, so the work grows with the
 * movements plus the running sums times the periods, not with the customers times the periods.
 */
function collectMembers(
  snapshot: AccountSnapshot,
  query: CohortQuery,
  periods: readonly Period[],
  fx: FxTable,
): Map<string | null, Members[]> {
  const count = periods.length;
  const byValue = new Map<string | null, Members[]>();
  if (count === 0) return byValue;
  const { movements, customers } = snapshot;
  const end = periods[count - 1]!.end;
  // Each running sum's members, start period and currency, and the sum of each member customer.
  const sumMembers: Members[] = [];
  const sumStart: number[] = [];
  const sumCurrency: number[] = [];
  const sumOf = new Int32Array(snapshot.customers.length).fill(-1);

  for (let index = 0; index < customers.length; index++) {
    const first = customers[index]!.firstPaidDay;
    if (first === null || first < periods[0]!.start || first > end) continue;
    if (query.customers !== null && query.customers[index] !== 1) continue;
    const start = periodIndex(periods, first);
    const value =
      query.breakdown === null ? null : breakdownValue(customers[index]!, query.breakdown, query.to);
    let byStart = byValue.get(value);
    if (byStart === undefined) {
      byStart = [];
      byValue.set(value, byStart);
    }
    const members = (byStart[start] ??= {
      customers: 0,
      mrr: new Float64Array(count - start),
      paying: new Int32Array(count - start),
      sums: [],
    });
    members.customers += 1;
    const currency = movements.customerCurrency[index]!;
    let sum = members.sums[currency];
    if (sum === undefined) {
      sum = sumMembers.length;
      members.sums[currency] = sum;
      sumMembers.push(members);
      sumStart.push(start);
      sumCurrency.push(currency);
    }
    sumOf[index] = sum;
  }

  const sumMrr = new Float64Array(sumMembers.length);
  const sumPaying = new Int32Array(sumMembers.length);
  const converters = movements.currencies.map((currency) => fx.converter(currency, query.baseCurrency));
  const record = (period: number) => {
    const day = periods[period]!.end;
    for (let sum = 0; sum < sumMembers.length; sum++) {
      const start = sumStart[sum]!;
      if (start > period) continue;
      const members = sumMembers[sum]!;
      const rateDay = query.fixFx ? periods[start]!.start : day;
      if (sumMrr[sum] !== 0)
        members.mrr[period - start]! += converters[sumCurrency[sum]!]!(sumMrr[sum]!, rateDay);
      members.paying[period - start]! += sumPaying[sum]!;
    }
  };
  const { movementDay, movementCustomer, movementAmount, movementKind } = movements;
  let period = 0;
  for (
    let i = firstMovementOn(movementDay, movements.movementCount, periods[0]!.start);
    i < movements.movementCount;
    i++
  ) {
    const day = movementDay[i]!;
    if (day > end) break;
    const sum = sumOf[movementCustomer[i]!]!;
    // Only members have a sum.
    if (sum < 0) continue;
    for (; periods[period]!.end < day; period++) record(period);
    sumMrr[sum]! += movementAmount[i]!;
    const kind = movementKind[i]!;
    if (kind === NEW || kind === REACTIVATION) sumPaying[sum]! += 1;
    else if (kind === CHURN) sumPaying[sum]! -= 1;
  }
  for (; period < count; period++) record(period);
  return byValue;
}

/** Daily cohorts are aggregated weekly: a triangle of days would be a year of rows per cohort. */
export function cohortInterval(interval: Interval): Interval {
  return interval === 'day' ? 'week' : interval;
}

/**
 * Cohort retention (docs/metrics.md, "Cohorts"). A customer belongs to the cohort of the period
 * holding its first paid day; period k of a cohort is the k-th period from its start, read on
 * its last day (the unfinished one on the end day) and converted at that day's rate, or at the
 * cohort's first day's with fixFx. With a breakdown, a value's cohort pools the start periods
 * of its customers, each counted from its own start. The average is the mean cohort: at period
 * k, the cohorts that reached it added up and divided by their number, so its percentages are
 * weighted by each cohort's size.
 */
export function cohortReport(snapshot: AccountSnapshot, query: CohortQuery, fx: FxTable): CohortReport {
  const interval = cohortInterval(query.interval);
  const end = Math.min(query.to, query.today);
  const periods = query.from > end ? [] : periodsBetween(periodStart(query.from, interval), end, interval);
  const count = periods.length;
  const byValue = collectMembers(snapshot, query, periods, fx);

  const rows: Row[] =
    query.breakdown === null
      ? periods.map((period, start) => {
          const members = byValue.get(null)?.[start];
          return {
            group: dayString(period.start),
            label: periodLabel(period.start, interval),
            members: members === undefined ? [] : [members],
            length: count - start,
          };
        })
      : [...byValue.entries()]
          .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
          .map(([value, byStart]) => {
            const members = byStart.filter((group) => group !== undefined);
            return {
              group: value ?? '',
              label: value ?? 'Not set',
              members,
              // As far as its oldest start period reaches: later periods hold nobody.
              length: members.reduce((length, group) => Math.max(length, group.mrr.length), 0),
            };
          });

  const cohorts = rows.map((row): Cohort => {
    const periodsOfRow = poolPeriods(row.members, row.length, () => 1);
    return {
      cohort_group: row.group,
      label: row.label,
      initial_mrr: roundCents(row.members.reduce((sum, members) => sum + members.mrr[0]!, 0)),
      initial_customers: row.members.reduce((sum, members) => sum + members.customers, 0),
      periods: periodsOfRow,
    };
  });
  const longest = rows.reduce((length, row) => Math.max(length, row.length), 0);
  const reached = Array.from({ length: longest }, (_, k) => rows.filter((row) => row.length > k).length);
  // Periods without a first payment are no cohort to average.
  const started = cohorts.filter((cohort) => cohort.initial_customers > 0);
  const mean = (value: (cohort: Cohort) => number) =>
    started.length === 0 ? 0 : started.reduce((sum, cohort) => sum + value(cohort), 0) / started.length;
  return {
    cohorts,
    average: {
      cohort_group: AVERAGE,
      label: 'Average',
      initial_mrr: roundCents(mean((cohort) => cohort.initial_mrr)),
      initial_customers: Math.round(mean((cohort) => cohort.initial_customers) * 100) / 100,
      periods: poolPeriods(
        rows.flatMap((row) => row.members),
        longest,
        (k) => reached[k]!,
      ),
    },
    limits: limitsOf(cohorts),
  };
}

export interface ChartEntry {
  label: string;
  mrr_retained: number;
  customers_retained: number;
  mrr_retention: number;
  customer_retention: number;
}

export interface ChartPeriod {
  period: number;
  breakdown: Record<string, ChartEntry>;
}

/** The report by period index, each cohort (the average last) keyed by its group, as charts plot it. */
export function cohortChart(report: CohortReport): ChartPeriod[] {
  const series = [...report.cohorts, report.average];
  return report.average.periods.map((_, period) => ({
    period,
    breakdown: Object.fromEntries(
      series.flatMap((cohort) => {
        const cell = cohort.periods[period];
        if (cell === undefined) return [];
        const { mrr_retained, customers_retained, mrr_retention, customer_retention } = cell;
        const entry = {
          label: cohort.label,
          mrr_retained,
          customers_retained,
          mrr_retention,
          customer_retention,
        };
        return [[cohort.cohort_group, entry]];
      }),
    ),
  }));
}
