import { dictionaryCoder } from './dictionary-coder.js';
import type { Movement, QuantityPoint } from './types.js';
import { MOVEMENT_KINDS, MOVEMENT_SUBTYPES } from './vocabulary.js';

/** What the snapshot needs of one customer: its currency, movements and quantities. */
export interface SnapshotCustomerInput {
  id: string;
  currency: string;
  movements: readonly Movement[];
  /** Absent for a customer without subscription quantities. */
  quantities?: readonly QuantityPoint[];
}

/**
 * An account's derived data laid out for scans (docs/decisions.md, "Derived metrics: recomputed per
 * customer at write time, read from an in-memory snapshot"): customers by index, and every movement
 * of every customer in day order as parallel typed arrays. Reports are pure functions over it.
 */
export interface Snapshot {
  customerIds: readonly string[];
  /** Dictionary of the customers' currencies, and each customer's index into it. */
  currencies: readonly string[];
  customerCurrency: Uint16Array;
  movementCount: number;
  movementCustomer: Int32Array;
  movementDay: Int32Array;
  /** Index into MOVEMENT_KINDS. */
  movementKind: Uint8Array;
  /** Index into MOVEMENT_SUBTYPES. */
  movementSubtype: Uint8Array;
  /** Signed cents of the customer's currency. */
  movementAmount: Float64Array;
  movementScheduled: Uint8Array;
  /** For scheduled movements, the day they became known, else NO_DAY. */
  movementKnownDay: Int32Array;
  /** Every change of a customer's subscription quantity, in day order. */
  quantityCount: number;
  quantityCustomer: Int32Array;
  quantityDay: Int32Array;
  quantityDelta: Float64Array;
}

/** Marks "no day" in day columns. */
export const NO_DAY = -2_147_483_648;

/** The customers' currencies in order of first appearance, and each customer's index into them. */
function currencyCodes(customers: readonly SnapshotCustomerInput[]) {
  const currencies: string[] = [];
  const codeOf = dictionaryCoder(currencies);
  const customerCurrency = Uint16Array.from(customers, (customer) => codeOf(customer.currency));
  return { currencies, customerCurrency };
}

export function buildSnapshot(customers: readonly SnapshotCustomerInput[]): Snapshot {
  const { currencies, customerCurrency } = currencyCodes(customers);
  let count = 0;
  let firstDay = Number.POSITIVE_INFINITY;
  let lastDay = Number.NEGATIVE_INFINITY;
  for (const customer of customers) {
    for (const movement of customer.movements) {
      count += 1;
      if (movement.day < firstDay) firstDay = movement.day;
      if (movement.day > lastDay) lastDay = movement.day;
    }
  }

  const quantityChanges = customers
    .flatMap((customer, index) =>
      (customer.quantities ?? []).map((point, n, points) => ({
        customer: index,
        day: point.day,
        delta: point.quantity - (points[n - 1]?.quantity ?? 0),
      })),
    )
    .sort((a, b) => a.day - b.day || a.customer - b.customer);

  const snapshot: Snapshot = {
    customerIds: customers.map((customer) => customer.id),
    currencies,
    customerCurrency,
    movementCount: count,
    movementCustomer: new Int32Array(count),
    movementDay: new Int32Array(count),
    movementKind: new Uint8Array(count),
    movementSubtype: new Uint8Array(count),
    movementAmount: new Float64Array(count),
    movementScheduled: new Uint8Array(count),
    movementKnownDay: new Int32Array(count),
    quantityCount: quantityChanges.length,
    quantityCustomer: Int32Array.from(quantityChanges, (change) => change.customer),
    quantityDay: Int32Array.from(quantityChanges, (change) => change.day),
    quantityDelta: Float64Array.from(quantityChanges, (change) => change.delta),
  };
  if (count === 0) return snapshot;

  // Day order, then customer order, then each customer's own order: a counting sort on the
  // day, filled customer by customer, gives that in two passes (a comparison sort of a
  // million movements took most of a snapshot's build).
  const next = new Int32Array(lastDay - firstDay + 1);
  for (const customer of customers)
    for (const movement of customer.movements) next[movement.day - firstDay]! += 1;
  let start = 0;
  for (let day = 0; day < next.length; day++) {
    const movements = next[day]!;
    next[day] = start;
    start += movements;
  }
  const kindIndex = new Map(MOVEMENT_KINDS.map((kind, index) => [kind, index]));
  const subtypeIndex = new Map(MOVEMENT_SUBTYPES.map((subtype, index) => [subtype, index]));
  customers.forEach((customer, index) => {
    for (const movement of customer.movements) {
      const i = next[movement.day - firstDay]!++;
      snapshot.movementCustomer[i] = index;
      snapshot.movementDay[i] = movement.day;
      snapshot.movementKind[i] = kindIndex.get(movement.kind) ?? -1;
      snapshot.movementSubtype[i] = subtypeIndex.get(movement.subtype) ?? -1;
      snapshot.movementAmount[i] = movement.amount;
      snapshot.movementScheduled[i] = movement.scheduled ? 1 : 0;
      snapshot.movementKnownDay[i] = movement.knownDay ?? NO_DAY;
    }
  });
  return snapshot;
}

/**
 * How a patch moves a snapshot's customers: each previous index's new one (-1: the customer
 * changed or left), and the new indexes, ascending, of the customers read again.
 */
export interface CustomerMoves {
  customerOf: Int32Array;
  freshAt: readonly number[];
}

/**
 * Fills `target`, which must start as a copy of `previous` (as far as both reach), with a
 * per-customer column after a patch: each kept customer's value moved to its new index, each
 * fresh one's computed. Where a customer kept its index, as all do when none joined or left
 * before it, there is nothing to write: a write that re-derives one customer costs one copy.
 */
function fillPatched<T>(
  target: { [index: number]: T },
  previous: ArrayLike<T>,
  length: number,
  { customerOf, freshAt }: CustomerMoves,
  freshValue: (at: number) => T,
): void {
  let old = 0;
  let next = 0;
  for (let at = 0; at < length; at++) {
    if (freshAt[next] === at) {
      next++;
      target[at] = freshValue(at);
      continue;
    }
    while (customerOf[old]! < 0) old++;
    if (old !== at) target[at] = previous[old]!;
    old++;
  }
}

/** A per-customer list after a patch: the kept customers' values copied, the fresh ones' computed. */
export function patchedList<T>(
  previous: readonly T[],
  length: number,
  moves: CustomerMoves,
  freshValue: (at: number) => T,
): T[] {
  // A copy of a packed array, overwritten where needed, fills faster than pushes or `new Array(n)`.
  const list = previous.slice();
  list.length = length;
  fillPatched(list, previous, length, moves, freshValue);
  return list;
}

/** A per-customer column of numbers (integers or not) after a patch, as `patchedList`. */
export function patchedNumbers<Column extends Int32Array | Float64Array>(
  previous: Column,
  length: number,
  moves: CustomerMoves,
  freshValue: (at: number) => number,
): Column {
  const column = new (previous.constructor as new (length: number) => Column)(length);
  column.set(previous.subarray(0, length));
  fillPatched(column, previous, length, moves, freshValue);
  return column;
}

/**
 * `currencyCodes` after a patch: the kept customers' codes copied, then the dictionary put back
 * in order of first appearance (a currency may have left with its first customer, or joined
 * before it) by renumbering, without reading the customers again.
 */
function patchCurrencyCodes(
  previous: Snapshot,
  customers: readonly SnapshotCustomerInput[],
  moves: CustomerMoves,
) {
  const dictionary = [...previous.currencies];
  const codeOf = dictionaryCoder(dictionary);
  const codes = new Uint16Array(customers.length);
  codes.set(previous.customerCurrency.subarray(0, customers.length));
  fillPatched(codes, previous.customerCurrency, customers.length, moves, (at) =>
    codeOf(customers[at]!.currency),
  );
  const renumbered = new Int32Array(dictionary.length).fill(-1);
  const currencies: string[] = [];
  for (const code of codes) {
    if (renumbered[code] !== -1) continue;
    renumbered[code] = currencies.length;
    currencies.push(dictionary[code]!);
    if (currencies.length === dictionary.length) break;
  }
  if (!currencies.every((currency, code) => dictionary[code] === currency))
    for (let at = 0; at < codes.length; at++) codes[at] = renumbered[codes[at]!]!;
  return { currencies, customerCurrency: codes };
}

/** Rows in day order, then customer order: movements or quantity changes. */
interface DayRows {
  count: number;
  customer: Int32Array;
  day: Int32Array;
}

/** How many of the rows belong to customers that stay. */
function keptRows(rows: DayRows, customerOf: Int32Array): number {
  let kept = 0;
  for (let i = 0; i < rows.count; i++) if (customerOf[rows.customer[i]!]! >= 0) kept++;
  return kept;
}

type RowColumn = Int32Array | Uint8Array | Float64Array;

/** One column of the rows besides their customer: where the merge writes it, and its two sources. */
interface MergedColumn {
  into: RowColumn;
  previous: RowColumn;
  added: RowColumn;
}

/**
 * Lays out the rows of `previous` whose customer stays and those of `added` (rows of the fresh
 * customers alone, indexed into `freshAt`) in the order a full build lays them out, day then
 * customer: each row's new customer index goes into `customerColumn`, and each of `columns` is
 * copied along. Kept rows come in runs that land in one piece, so each run is one copy per
 * column rather than one per row: a write re-derives few customers, and a patch of thousands
 * was no slower than the row-by-row copy it replaced. A customer is either kept or fresh, so
 * rows of one day and customer never come from both.
 */
function mergeRows(
  previous: DayRows,
  added: DayRows,
  { customerOf, freshAt }: CustomerMoves,
  customerColumn: Int32Array,
  columns: readonly MergedColumn[],
): void {
  let at = 0;
  // The kept rows from `runStart` on land from `runAt` on, until a row is dropped or added.
  let runStart = 0;
  let runAt = 0;
  const copyRun = (end: number) => {
    if (end > runStart)
      for (const column of columns) column.into.set(column.previous.subarray(runStart, end), runAt);
  };
  let next = 0;
  const addedBefore = (day: number, customer: number) => {
    if (next === added.count) return false;
    const addedDay = added.day[next]!;
    return addedDay < day || (addedDay === day && freshAt[added.customer[next]!]! < customer);
  };
  const putAdded = () => {
    customerColumn[at] = freshAt[added.customer[next]!]!;
    for (const column of columns) column.into[at] = column.added[next]!;
    at++;
    next++;
  };
  for (let i = 0; i < previous.count; i++) {
    const customer = customerOf[previous.customer[i]!]!;
    if (customer < 0) {
      copyRun(i);
      runStart = i + 1;
      runAt = at;
      continue;
    }
    const day = previous.day[i]!;
    if (addedBefore(day, customer)) {
      copyRun(i);
      do putAdded();
      while (addedBefore(day, customer));
      runStart = i;
      runAt = at;
    }
    customerColumn[at++] = customer;
  }
  copyRun(previous.count);
  while (next < added.count) putAdded();
}

const movementRows = (snapshot: Snapshot): DayRows => ({
  count: snapshot.movementCount,
  customer: snapshot.movementCustomer,
  day: snapshot.movementDay,
});

const quantityRows = (snapshot: Snapshot): DayRows => ({
  count: snapshot.quantityCount,
  customer: snapshot.quantityCustomer,
  day: snapshot.quantityDay,
});

/** The `keys` columns of `merged`, each with its sources in `previous` and `added`. */
function columnsOf<Key extends string>(
  keys: readonly Key[],
  merged: Record<Key, RowColumn>,
  previous: Record<Key, RowColumn>,
  added: Record<Key, RowColumn>,
): MergedColumn[] {
  return keys.map((key) => ({ into: merged[key], previous: previous[key], added: added[key] }));
}

function mergeMovements(previous: Snapshot, added: Snapshot, moves: CustomerMoves) {
  const count = keptRows(movementRows(previous), moves.customerOf) + added.movementCount;
  const merged = {
    movementCount: count,
    movementCustomer: new Int32Array(count),
    movementDay: new Int32Array(count),
    movementKind: new Uint8Array(count),
    movementSubtype: new Uint8Array(count),
    movementAmount: new Float64Array(count),
    movementScheduled: new Uint8Array(count),
    movementKnownDay: new Int32Array(count),
  };
  const columns = columnsOf(
    [
      'movementDay',
      'movementKind',
      'movementSubtype',
      'movementAmount',
      'movementScheduled',
      'movementKnownDay',
    ],
    merged,
    previous,
    added,
  );
  mergeRows(movementRows(previous), movementRows(added), moves, merged.movementCustomer, columns);
  return merged;
}

function mergeQuantities(previous: Snapshot, added: Snapshot, moves: CustomerMoves) {
  const count = keptRows(quantityRows(previous), moves.customerOf) + added.quantityCount;
  const merged = {
    quantityCount: count,
    quantityCustomer: new Int32Array(count),
    quantityDay: new Int32Array(count),
    quantityDelta: new Float64Array(count),
  };
  const columns = columnsOf(['quantityDay', 'quantityDelta'], merged, previous, added);
  mergeRows(quantityRows(previous), quantityRows(added), moves, merged.quantityCustomer, columns);
  return merged;
}

/**
 * `previous` after some customers were read again: `customers` is the patched list, and
 * `moves` says where each previous customer went and where the fresh ones are. Equal to
 * `buildSnapshot(customers)`, but only the fresh customers' movements are laid out anew; the
 * rest is copied in one merge, so a write does not pay for the whole account's build.
 */
export function patchSnapshot(
  previous: Snapshot,
  customers: readonly SnapshotCustomerInput[],
  moves: CustomerMoves,
): Snapshot {
  const added = buildSnapshot(moves.freshAt.map((index) => customers[index]!));
  return {
    customerIds: patchedList(previous.customerIds, customers.length, moves, (at) => customers[at]!.id),
    ...patchCurrencyCodes(previous, customers, moves),
    ...mergeMovements(previous, added, moves),
    ...mergeQuantities(previous, added, moves),
  };
}
