import { MOVEMENT_KINDS, MOVEMENT_SUBTYPES } from '../vocabulary.js';
import type { AccountSnapshot } from '../account-snapshot.js';
import type { FxTable } from '../fx-table.js';
import { roundCents } from '../rounding.js';
import { firstInOrder } from '../select.js';
import { derivedCache } from '../derived-cache.js';
import { partitionPoint } from '../orders.js';
import { NO_DAY, type Snapshot } from '../snapshot.js';
import type { MovementKind, MovementSubtype } from '../types.js';

export interface ListedMovement {
  day: number;
  customerIndex: number;
  kind: MovementKind;
  subtype: MovementSubtype;
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

/**
 * Each movement's customer MRR just before it, in the customer's currency: one pass over the
 * snapshot's movements, kept with it, so that each list reads only the movements of its own
 * days rather than summing every movement before them again (several lists per write).
 */
const keptBefores = derivedCache<Snapshot, Float64Array>(1);

function mrrBefore(movements: Snapshot): Float64Array {
  return keptBefores(movements, '', () => {
    const before = new Float64Array(movements.movementCount);
    const mrr = new Float64Array(movements.customerIds.length);
    for (let i = 0; i < movements.movementCount; i++) {
      const customerIndex = movements.movementCustomer[i]!;
      before[i] = mrr[customerIndex]!;
      mrr[customerIndex] = before[i]! + movements.movementAmount[i]!;
    }
    return before;
  });
}

/**
 * Calls `visit` with the snapshot position of each movement of `[from, to]` the query keeps, in
 * day order, and the customer's MRR just before it.
 */
function eachListed(
  snapshot: AccountSnapshot,
  query: MovementListQuery,
  visit: (position: number, before: number) => void,
): void {
  const { movements } = snapshot;
  const befores = mrrBefore(movements);
  const first = partitionPoint(0, movements.movementCount, (i) => movements.movementDay[i]! < query.from);
  for (let i = first; i < movements.movementCount; i++) {
    const day = movements.movementDay[i]!;
    if (day > query.to) break;
    const scheduled = movements.movementScheduled[i] === 1;
    if (day > query.today && !(query.committed && scheduled)) continue;
    const customerIndex = movements.movementCustomer[i]!;
    if (query.customers !== null && query.customers[customerIndex] !== 1) continue;
    if (query.kinds !== null && !query.kinds.has(MOVEMENT_KINDS[movements.movementKind[i]!]!)) continue;
    visit(i, befores[i]!);
  }
}

/**
 * The movement at a snapshot position in signed cents of the base currency. Built per query:
 * each currency's converter is looked up once, on its first movement.
 */
function baseAmounts(
  snapshot: AccountSnapshot,
  query: MovementListQuery,
  fx: FxTable,
): (position: number) => number {
  const { movements } = snapshot;
  const converters: ((amount: number, day: number) => number)[] = [];
  return (position) => {
    const currency = movements.customerCurrency[movements.movementCustomer[position]!]!;
    converters[currency] ??= fx.converter(movements.currencies[currency]!, query.baseCurrency);
    const day = query.fixedRateDay ?? movements.movementDay[position]!;
    return roundCents(converters[currency](movements.movementAmount[position]!, day));
  };
}

function listedAt(
  snapshot: AccountSnapshot,
  amountBase: (position: number) => number,
  position: number,
  before: number,
): ListedMovement {
  const { movements } = snapshot;
  const amount = movements.movementAmount[position]!;
  const knownDay = movements.movementKnownDay[position]!;
  return {
    day: movements.movementDay[position]!,
    customerIndex: movements.movementCustomer[position]!,
    kind: MOVEMENT_KINDS[movements.movementKind[position]!]!,
    subtype: MOVEMENT_SUBTYPES[movements.movementSubtype[position]!]!,
    amount,
    amountBase: amountBase(position),
    before,
    after: before + amount,
    scheduled: movements.movementScheduled[position] === 1,
    knownDay: knownDay === NO_DAY ? null : knownDay,
  };
}

/** The individual movements of `[from, to]` with their amounts in the base currency, in day order. */
export function listMovements(
  snapshot: AccountSnapshot,
  query: MovementListQuery,
  fx: FxTable,
): ListedMovement[] {
  const listed: ListedMovement[] = [];
  const amountBase = baseAmounts(snapshot, query, fx);
  eachListed(snapshot, query, (position, before) =>
    listed.push(listedAt(snapshot, amountBase, position, before)),
  );
  return listed;
}

export interface MovementOrder {
  sort: 'date' | 'mrr_change';
  order: 'asc' | 'desc';
}

/**
 * The order of the movement lists: by `key` (the day, or the amount in the base currency) in
 * the order asked, ties by customer, so pages of one list never overlap.
 */
export function byKeyThenCustomer<T>(
  key: (movement: T) => number,
  customer: (movement: T) => number,
  order: 'asc' | 'desc',
): (a: T, b: T) => number {
  const direction = order === 'asc' ? 1 : -1;
  return (a, b) => (key(a) - key(b)) * direction || customer(a) - customer(b);
}

/**
 * The movements a query keeps, in day order, as positions to build one at a time: a long list
 * (an export of every movement) then costs two numbers per movement until it is built.
 */
export interface ListedPositions {
  count: number;
  /** The `n`th kept movement, built on demand. */
  at(n: number): ListedMovement;
  /** Where the `n`th kept movement is in the snapshot's movement columns, to read one of them. */
  position(n: number): number;
  /** The `n`th kept movement's `amountBase`, without building it. */
  amountBase(n: number): number;
}

function keptPositions(
  snapshot: AccountSnapshot,
  query: MovementListQuery,
): { positions: number[]; befores: number[] } {
  const positions: number[] = [];
  const befores: number[] = [];
  eachListed(snapshot, query, (position, before) => {
    positions.push(position);
    befores.push(before);
  });
  return { positions, befores };
}

export function listedPositions(
  snapshot: AccountSnapshot,
  query: MovementListQuery,
  fx: FxTable,
): ListedPositions {
  const { positions, befores } = keptPositions(snapshot, query);
  const amountBase = baseAmounts(snapshot, query, fx);
  return {
    count: positions.length,
    at: (n) => listedAt(snapshot, amountBase, positions[n]!, befores[n]!),
    position: (n) => positions[n]!,
    amountBase: (n) => amountBase(positions[n]!),
  };
}

const CHURNS: ReadonlySet<MovementKind> = new Set(['churn']);

/** The churns of `[from, to]` that have happened, converted at each one's day: the churn reports' list. */
export function listedChurns(
  snapshot: AccountSnapshot,
  query: Pick<MovementListQuery, 'from' | 'to' | 'today' | 'baseCurrency' | 'customers'>,
  fx: FxTable,
): ListedPositions {
  return listedPositions(snapshot, { ...query, fixedRateDay: null, kinds: CHURNS, committed: false }, fx);
}

/**
 * One page of `listMovements` sorted by `order` (ties as a stable sort leaves them): the
 * movements are compared by position and key, and only the page is built.
 */
export function movementPage(
  snapshot: AccountSnapshot,
  query: MovementListQuery,
  fx: FxTable,
  page: MovementOrder & { limit: number; offset: number },
): ListedMovement[] {
  const { movements } = snapshot;
  const { positions, befores } = keptPositions(snapshot, query);
  const amountBase = baseAmounts(snapshot, query, fx);
  const keys =
    page.sort === 'date'
      ? positions.map((position) => movements.movementDay[position]!)
      : positions.map(amountBase);
  const compare = byKeyThenCustomer(
    (n: number) => keys[n]!,
    (n) => movements.movementCustomer[positions[n]!]!,
    page.order,
  );
  // Listed in day order: newest first reads them from the end.
  const fromEnd = page.sort === 'date' && page.order === 'desc';
  return firstInOrder(positions.length, page.offset + page.limit, (a, b) => compare(a, b) || a - b, fromEnd)
    .slice(page.offset)
    .map((n) => listedAt(snapshot, amountBase, positions[n]!, befores[n]!));
}
