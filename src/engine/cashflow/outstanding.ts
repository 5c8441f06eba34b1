import type { FxTable } from '../fx-table.js';
import { roundCents } from '../rounding.js';
import { type CashflowInvoice, toBase } from './cashflow-data.js';

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
function owed(invoice: CashflowInvoice, today: number): number {
  let paid = 0;
  for (const transaction of invoice.transactions) {
    if (!transaction.successful || transaction.day > today) continue;
    paid += transaction.type === 'payment' ? transaction.amount : -transaction.amount;
  }
  return Math.max(0, invoice.total - paid);
}

/**
 * DESIGN 4.9: open invoices past their due date, aged by it. `outstanding_<age>` is the amount
 * owed on invoices at least that many days past due (so `outstanding_current` holds all of
 * them) and `invoices_<age>` their number. An invoice without a due date is never past due.
 * Amounts convert at today's rate: it is what they are worth now.
 */
export function outstandingSummary(
  invoices: readonly CashflowInvoice[],
  query: { today: number; baseCurrency: string },
  fx: FxTable,
): OutstandingSummary {
  const convert = toBase(fx, { baseCurrency: query.baseCurrency, fixedRateDay: query.today });
  const sums = OUTSTANDING_AGES.map(() => ({ amount: 0, count: 0 }));
  for (const invoice of invoices) {
    if (invoice.status !== 'open' || invoice.dueDay === null) continue;
    const age = query.today - invoice.dueDay;
    const amount = convert(owed(invoice, query.today), invoice.currency, query.today);
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
