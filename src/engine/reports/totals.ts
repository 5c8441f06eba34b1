import { MOVEMENT_KINDS } from '../vocabulary.js';
import type { FxTable } from '../fx-table.js';
import { roundCents } from '../rounding.js';
import { type Snapshot } from '../snapshot.js';

export interface Totals {
  /** MRR of the counted customers, whole cents of the base currency. */
  mrr: number;
  /** Customers with MRR above zero. */
  subscribers: number;
}

export interface TotalsQuery {
  baseCurrency: string;
  customers: Uint8Array | null;
  /** Convert at this one day's rate; null converts each day's MRR at that day's rate. */
  fixedRateDay: number | null;
}

const NEW = MOVEMENT_KINDS.indexOf('new');
const REACTIVATION = MOVEMENT_KINDS.indexOf('reactivation');
const CHURN = MOVEMENT_KINDS.indexOf('churn');

/**
 * Amounts summed per currency (indexed like `snapshot.currencies`) in whole cents of the base
 * currency at the rate of `day`: converted per currency and rounded once, so a total never
 * carries one rounding per customer.
 */
export function convertSums(
  byCurrency: Float64Array,
  snapshot: Snapshot,
  baseCurrency: string,
  day: number,
  fx: FxTable,
): number {
  let total = 0;
  byCurrency.forEach((amount, currency) => {
    if (amount !== 0) total += fx.convert(amount, snapshot.currencies[currency]!, baseCurrency, day);
  });
  return roundCents(total);
}

/** MRR and subscribers on each of `days` (any order), in one pass over the movements. */
export function totalsOn(
  snapshot: Snapshot,
  days: readonly number[],
  query: TotalsQuery,
  fx: FxTable,
): Totals[] {
  const order = days.map((day, index) => ({ day, index })).sort((a, b) => a.day - b.day);
  const byCurrency = new Float64Array(snapshot.currencies.length);
  const results: Totals[] = new Array<Totals>(days.length);
  let subscribers = 0;
  let i = 0;
  for (const { day, index } of order) {
    for (; i < snapshot.movementCount && snapshot.movementDay[i]! <= day; i++) {
      const customer = snapshot.movementCustomer[i]!;
      if (query.customers !== null && query.customers[customer] !== 1) continue;
      byCurrency[snapshot.customerCurrency[customer]!]! += snapshot.movementAmount[i]!;
      const kind = snapshot.movementKind[i]!;
      if (kind === NEW || kind === REACTIVATION) subscribers += 1;
      else if (kind === CHURN) subscribers -= 1;
    }
    const mrr = convertSums(byCurrency, snapshot, query.baseCurrency, query.fixedRateDay ?? day, fx);
    results[index] = { mrr, subscribers };
  }
  return results;
}
