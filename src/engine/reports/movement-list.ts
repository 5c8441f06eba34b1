import type { AccountSnapshot } from '../account-snapshot.js';
import type { FxTable } from '../fx-table.js';
import { roundCents } from '../rounding.js';
import { MOVEMENT_KINDS, NO_DAY } from '../snapshot.js';
import type { MovementKind } from '../types.js';

export interface ListedMovement {
  day: number;
  customerIndex: number;
  kind: MovementKind;
  /** Signed cents of the customer's currency. */
  amount: number;
  /** Signed cents of the base currency, at the rate of the movement's day (or the fixed day). */
  amountBase: number;
  /** The customer's MRR before and after, in its own currency. */
  before: number;
  after: number;
  scheduled: boolean;
  /** When a scheduled movement became known, if the record says. */
  knownDay: number | null;
}

export interface MovementListQuery {
  from: number;
  to: number;
  baseCurrency: string;
  /** Convert at this day's rate instead of each movement's own. */
  fixedRateDay: number | null;
  customers: Uint8Array | null;
  kinds: ReadonlySet<MovementKind> | null;
  /** Movements after this day count only when scheduled by a subscription record and `committed`. */
  today: number;
  committed: boolean;
}

/** The individual movements of `[from, to]` with their amounts in the base currency, in day order. */
export function listMovements(
  snapshot: AccountSnapshot,
  query: MovementListQuery,
  fx: FxTable,
): ListedMovement[] {
  const { movements } = snapshot;
  const mrr = new Float64Array(snapshot.customers.length);
  const listed: ListedMovement[] = [];
  for (let i = 0; i < movements.movementCount; i++) {
    const day = movements.movementDay[i]!;
    if (day > query.to) break;
    const customerIndex = movements.movementCustomer[i]!;
    const amount = movements.movementAmount[i]!;
    const before = mrr[customerIndex]!;
    mrr[customerIndex] = before + amount;
    const kind = MOVEMENT_KINDS[movements.movementKind[i]!]!;
    const scheduled = movements.movementScheduled[i] === 1;
    if (day < query.from || (day > query.today && !(query.committed && scheduled))) continue;
    if (query.customers !== null && query.customers[customerIndex] !== 1) continue;
    if (query.kinds !== null && !query.kinds.has(kind)) continue;
    const currency = snapshot.customers[customerIndex]!.currency;
    listed.push({
      day,
      customerIndex,
      kind,
      amount,
      amountBase: roundCents(fx.convert(amount, currency, query.baseCurrency, query.fixedRateDay ?? day)),
      before,
      after: before + amount,
      scheduled,
      knownDay: movements.movementKnownDay[i] === NO_DAY ? null : movements.movementKnownDay[i]!,
    });
  }
  return listed;
}
