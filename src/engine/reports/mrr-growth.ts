import type { AccountSnapshot } from '../account-snapshot.js';
import type { FxTable } from '../fx-table.js';
import { nextPeriodStart, periodStart } from '../periods.js';
import { roundCents } from '../rounding.js';
import type { MovementKind } from '../types.js';
import { listMovements } from './movement-list.js';

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
  cumulative_mrr: number | null;
  cumulative_mrr_compare: number | null;
}

/** Running sums of the month's movements by day of month, null after the month's end or after today. */
function runningSums(
  snapshot: AccountSnapshot,
  month: number,
  query: GrowthFilter,
  fx: FxTable,
): (number | null)[] {
  const first = periodStart(month, 'month');
  const last = nextPeriodStart(first, 'month') - 1;
  const byDay = new Float64Array(last - first + 2);
  const movements = listMovements(
    snapshot,
    { ...query, from: first, to: Math.min(last, query.today), fixedRateDay: null, committed: false },
    fx,
  );
  for (const movement of movements) byDay[movement.day - first + 1]! += movement.amountBase;
  const sums: (number | null)[] = [0];
  let total = 0;
  for (let day = 1; day <= 31; day++) {
    const date = first + day - 1;
    if (date > last || date > query.today) {
      sums.push(null);
      continue;
    }
    total += byDay[day]!;
    sums.push(roundCents(total));
  }
  return sums;
}

/** The month's MRR movements added up day by day, beside the same for a comparison month. */
export function mrrGrowthReport(
  snapshot: AccountSnapshot,
  query: MrrGrowthQuery,
  fx: FxTable,
): MrrGrowthRow[] {
  const current = runningSums(snapshot, query.month, query, fx);
  const compare = runningSums(snapshot, query.compareMonth, query, fx);
  return current.map((value, date) => ({
    date,
    cumulative_mrr: value,
    cumulative_mrr_compare: compare[date] ?? null,
  }));
}

/**
 * The running sums of several months side by side (the mrr-growth export): one array per month,
 * indexed by day of month, 0 the anchor at zero.
 */
export function mrrGrowthByMonth(
  snapshot: AccountSnapshot,
  months: readonly number[],
  query: GrowthFilter,
  fx: FxTable,
): (number | null)[][] {
  return months.map((month) => runningSums(snapshot, month, query, fx));
}
