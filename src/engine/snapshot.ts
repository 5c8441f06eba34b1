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
 * An account's derived data laid out for scans (DESIGN 2): customers by index, and every
 * movement of every customer in day order as parallel typed arrays. Reports are pure
 * functions over it.
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
  const flat: { customer: number; movement: Movement }[] = [];
  customers.forEach((customer, index) => {
    let code = currencyIndex.get(customer.currency);
    if (code === undefined) {
      code = currencies.length;
      currencies.push(customer.currency);
      currencyIndex.set(customer.currency, code);
    }
    customerCurrency[index] = code;
    for (const movement of customer.movements) flat.push({ customer: index, movement });
  });
  flat.sort((a, b) => a.movement.day - b.movement.day || a.customer - b.customer);

  const quantityChanges = customers
    .flatMap((customer, index) =>
      (customer.quantities ?? []).map((point, n, points) => ({
        customer: index,
        day: point.day,
        delta: point.quantity - (points[n - 1]?.quantity ?? 0),
      })),
    )
    .sort((a, b) => a.day - b.day || a.customer - b.customer);

  const count = flat.length;
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
  flat.forEach(({ customer, movement }, i) => {
    snapshot.movementCustomer[i] = customer;
    snapshot.movementDay[i] = movement.day;
    snapshot.movementKind[i] = MOVEMENT_KINDS.indexOf(movement.kind);
    snapshot.movementSubtype[i] = MOVEMENT_SUBTYPES.indexOf(movement.subtype);
    snapshot.movementAmount[i] = movement.amount;
    snapshot.movementScheduled[i] = movement.scheduled ? 1 : 0;
    snapshot.movementKnownDay[i] = movement.knownDay ?? NO_DAY;
  });
  return snapshot;
}
