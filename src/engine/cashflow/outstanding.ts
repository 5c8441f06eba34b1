import type { FxTable } from '../fx-table.js';
import { roundCents } from '../rounding.js';
import { keeps } from './cashflow-data.js';
import { type CashflowTable, REFUND, SUCCESSFUL } from './cashflow-table.js';

/** Days past due that each figure needs at least; `current` is every invoice past due today. */
export const OUTSTANDING_AGES = [
  ['current', 1],
  ['30', 30],
  ['60', 60],
  ['180', 180],
  ['365', 365],
] as const;

export type OutstandingSummary = Record<string, number>;

/** What an invoice still asks for: its total less what was paid, net of refunds, never below 0. */
function owed(table: CashflowTable, invoice: number, today: number): number {
  let paid = 0;
  for (let t = table.transactionStart[invoice]!; t < table.transactionStart[invoice + 1]!; t++) {
    const flags = table.transactionFlags[t]!;
    if ((flags & SUCCESSFUL) === 0 || table.transactionDay[t]! > today) continue;
    paid += (flags & REFUND) === 0 ? table.transactionAmount[t]! : -table.transactionAmount[t]!;
  }
  return Math.max(0, table.invoiceTotal[invoice]! - paid);
}

/**
 * Outstanding unpaid (docs/metrics.md, "Cashflow"): open invoices past their due date, aged by it.
 * `outstanding_<age>` is the amount owed on invoices at least that many days past due (so
 * `outstanding_current` holds all of them) and `invoices_<age>` their number. An invoice without a
 * due date is never past due. Amounts convert at today's rate: it is what they are worth now.
 */
export function outstandingSummary(
  table: CashflowTable,
  customers: Uint8Array | null,
  query: { today: number; baseCurrency: string },
  fx: FxTable,
): OutstandingSummary {
  const converters = table.currencies.map((currency) => fx.converter(currency, query.baseCurrency));
  const sums = OUTSTANDING_AGES.map(() => ({ amount: 0, count: 0 }));
  for (const invoice of table.openAndDue) {
    if (!keeps(table, customers, invoice)) continue;
    const age = query.today - table.dueDay[invoice]!;
    const amount = converters[table.invoiceCurrency[invoice]!]!(
      owed(table, invoice, query.today),
      query.today,
    );
    OUTSTANDING_AGES.forEach(([, days], index) => {
      if (age < days) return;
      sums[index]!.amount += amount;
      sums[index]!.count += 1;
    });
  }
  const summary: OutstandingSummary = {};
  OUTSTANDING_AGES.forEach(([name], index) => {
    summary[`outstanding_${name}`] = roundCents(sums[index]!.amount);
    summary[`invoices_${name}`] = sums[index]!.count;
  });
  return summary;
}
