import type { AccountSnapshot } from '../account-snapshot.js';
import type { FxTable } from '../fx-table.js';
import { searchMatcher } from './customer-item.js';
import { baseMrrsOn, customerOrder } from './customer-order.js';

export interface ConcentrationQuery {
  today: number;
  baseCurrency: string;
  customers: Uint8Array | null;
  /** Lower-case text to find in the name, email or id. */
  search: string | null;
}

export interface ParetoRow {
  rank: number;
  id: string;
  name: string | null;
  mrr: number;
  cumulative_mrr: number;
  cumulative_pct: number | null;
}

export interface ConcentrationRow {
  id: string;
  name: string | null;
  email: string | null;
  country: string | null;
  currency: string;
  mrr: number;
  share_pct: number | null;
}

export const TOP_COUNTS = [1, 5, 10, 20] as const;

export interface ConcentrationReport {
  pareto: ParetoRow[];
  concentration: Record<string, number | null>;
  list: ConcentrationRow[];
  count: number;
  summary: { total_mrr: number; customers: number };
}

/** Share of `part` in `total` in percent, two decimals; null when there is no total. */
function share(part: number, total: number): number | null {
  return total === 0 ? null : Math.round((part / total) * 10_000) / 100;
}

/**
 * Paying customers ranked by today's MRR in the base currency, with each one's share and the
 * running share (the Pareto curve), and how much of all MRR the top 1, 5, 10 and 20 customers
 * and the top 10 % of customers bring.
 */
export function concentrationReport(
  snapshot: AccountSnapshot,
  query: ConcentrationQuery,
  fx: FxTable,
): ConcentrationReport {
  const mrrs = baseMrrsOn(snapshot, query.today, query.baseCurrency, fx);
  const order = customerOrder(snapshot, { ...query, sort: 'mrr', order: 'desc' }, fx);
  const matches = searchMatcher(snapshot, query.search);
  const rows: ConcentrationRow[] = [];
  for (const index of order) {
    const mrr = mrrs[index]!;
    // The rest of the order pays nothing.
    if (mrr <= 0) break;
    if ((query.customers !== null && query.customers[index] !== 1) || !matches(index)) continue;
    const { id, name, email, country, currency } = snapshot.customers[index]!;
    rows.push({ id, name, email, country, currency, mrr, share_pct: null });
  }
  const total = rows.reduce((sum, row) => sum + row.mrr, 0);
  let cumulative = 0;
  const pareto = rows.map((row, index) => {
    row.share_pct = share(row.mrr, total);
    cumulative += row.mrr;
    return {
      rank: index + 1,
      id: row.id,
      name: row.name,
      mrr: row.mrr,
      cumulative_mrr: cumulative,
      cumulative_pct: share(cumulative, total),
    };
  });
  const topShare = (n: number) => share(pareto[Math.min(n, pareto.length) - 1]?.cumulative_mrr ?? 0, total);
  const concentration: Record<string, number | null> = Object.fromEntries(
    TOP_COUNTS.map((n) => [`top_${n}_pct`, topShare(n)]),
  );
  concentration.top_10_percent_pct = topShare(Math.ceil(rows.length / 10));
  return {
    pareto,
    concentration,
    list: rows,
    count: rows.length,
    summary: { total_mrr: total, customers: rows.length },
  };
}
