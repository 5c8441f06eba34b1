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

export function buildSnapshot(customers: readonly SnapshotCustomerInput[]): Snapshot {
  const currencies: string[] = [];
  const currencyIndex = new Map<string, number>();
  const customerCurrency = new Uint16Array(customers.length);
  let count = 0;
  let firstDay = Number.POSITIVE_INFINITY;
  let lastDay = Number.NEGATIVE_INFINITY;
  customers.forEach((customer, index) => {
    let code = currencyIndex.get(customer.currency);
    if (code === undefined) {
      code = currencies.length;
      currencies.push(customer.currency);
      currencyIndex.set(customer.currency, code);
    }
    customerCurrency[index] = code;
    for (const movement of customer.movements) {
      count += 1;
      if (movement.day < firstDay) firstDay = movement.day;
      if (movement.day > lastDay) lastDay = movement.day;
    }
  });

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
