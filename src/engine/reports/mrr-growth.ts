import type { AccountSnapshot } from '../account-snapshot.js';
import type { FxTable } from '../fx-table.js';
import { nextPeriodStart, periodStart } from '../periods.js';
import { roundCents } from '../rounding.js';
import type { MovementKind } from '../types.js';
import { listedPositions } from './movement-list.js';

export interface MrrGrowthQuery extends GrowthFilter {
  /** Any day of the month to chart, and of the month to compare it with. */
  month: number;
  compareMonth: number;
}

/** What every month's running sums share: the day, the currency and the movements kept. */
interface GrowthFilter {
  today: number;
  baseCurrency: string;
  customers: Uint8Array | null;
  kinds: ReadonlySet<MovementKind> | null;
}

export interface MrrGrowthRow {
  /** Day of the month; 0 is the anchor at zero. */
  date: number;
  cumulative_mrr: number;
  /** Absent for a day the comparison month does not have, or has not lived yet. */
  cumulative_mrr_compare?: number;
}

/**
 * The running sums of several months' movements by day of month, one array per month: 0 the
 * anchor at zero, then days 1 to 31, null after the month's end or after today. One pass over
 * the movements from the first month to the last, whatever the number of months.
 */
function runningSums(
  snapshot: AccountSnapshot,
  months: readonly number[],
  query: GrowthFilter,
  fx: FxTable,
): (number | null)[][] {
  // The same month asked twice (a month compared with itself) is summed once.
  const firsts = [...new Set(months.map((month) => periodStart(month, 'month')))];
  const lasts = firsts.map((first) => nextPeriodStart(first, 'month') - 1);
  const indexOf = new Map(firsts.map((first, index) => [first, index]));
  const byDay = firsts.map(() => new Float64Array(32));
  if (firsts.length > 0) {
    const listed = listedPositions(
      snapshot,
      {
        ...query,
        from: Math.min(...firsts),
        to: Math.min(Math.max(...lasts), query.today),
        fixedRateDay: null,
        committed: false,
      },
      fx,
    );
    const { movementDay } = snapshot.movements;
    for (let n = 0; n < listed.count; n++) {
      const day = movementDay[listed.position(n)]!;
      const first = periodStart(day, 'month');
      const index = indexOf.get(first);
      if (index !== undefined) byDay[index]![day - first + 1]! += listed.amountBase(n);
    }
  }
  const sums = firsts.map((first, index) => {
    const running: (number | null)[] = [0];
    let total = 0;
    for (let day = 1; day <= 31; day++) {
      const date = first + day - 1;
      if (date > lasts[index]! || date > query.today) {
        running.push(null);
        continue;
      }
      total += byDay[index]![day]!;
      running.push(roundCents(total));
    }
    return running;
  });
  return months.map((month) => sums[indexOf.get(periodStart(month, 'month'))!]!);
}

/**
 * The month's MRR movements added up day by day, beside the same for a comparison month. A day
 * not lived yet, or past the month's end, has no row: the rows stop at the month's last day or
 * today, and the comparison is shown on those days only (docs/decisions.md, "MRR growth stops
 * at today").
 */
export function mrrGrowthReport(
  snapshot: AccountSnapshot,
  query: MrrGrowthQuery,
  fx: FxTable,
): MrrGrowthRow[] {
  const [current, compare] = runningSums(snapshot, [query.month, query.compareMonth], query, fx) as [
    (number | null)[],
    (number | null)[],
  ];
  const rows: MrrGrowthRow[] = [];
  // The nulls of a month's sums come after its last lived day, none before.
  for (let date = 0; date < current.length && current[date] !== null; date++) {
    const compared = compare[date];
    rows.push({
      date,
      cumulative_mrr: current[date]!,
      ...(compared === null || compared === undefined ? {} : { cumulative_mrr_compare: compared }),
    });
  }
  return rows;
}

/** The running sums of several months (the mrr-growth export), as `runningSums` gives them. */
export function mrrGrowthByMonth(
  snapshot: AccountSnapshot,
  months: readonly number[],
  query: GrowthFilter,
  fx: FxTable,
): (number | null)[][] {
  return runningSums(snapshot, months, query, fx);
}
