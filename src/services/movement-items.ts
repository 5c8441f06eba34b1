import type { AccountSnapshot } from '../engine/account-snapshot.js';
import { dayString } from '../engine/days.js';
import {
  byKeyThenCustomer,
  type ListedMovement,
  type MovementOrder,
} from '../engine/reports/movement-list.js';
import type { MovementKind, MovementSubtype } from '../engine/types.js';

/** A movement as /reports/movement-table and /reports/churn-scheduled-movements list it. */
export interface MovementItem {
  date: string;
  currency: string;
  customer_id: string;
  customer_name: string | null;
  customer_email: string | null;
  type: MovementKind;
  subtype: MovementSubtype;
  mrr_change: number;
  mrr_change_base_currency: number;
  description: string;
}

const KIND_LABELS: Record<MovementKind, string> = {
  new: 'New customer',
  expansion: 'Expansion',
  contraction: 'Contraction',
  churn: 'Churn',
  reactivation: 'Reactivation',
};

const major = (cents: number) => (cents / 100).toFixed(2);

/** One listed movement with its customer, and a line such as `Churn: MRR 80.00 -> 0.00 USD`. */
export function movementItem(snapshot: AccountSnapshot, movement: ListedMovement): MovementItem {
  const customer = snapshot.customers[movement.customerIndex]!;
  const label = `${movement.scheduled ? 'Scheduled ' : ''}${KIND_LABELS[movement.kind]}`;
  return {
    date: dayString(movement.day),
    currency: customer.currency,
    customer_id: customer.id,
    customer_name: customer.name,
    customer_email: customer.email,
    type: movement.kind,
    subtype: movement.subtype,
    mrr_change: movement.amount,
    mrr_change_base_currency: movement.amountBase,
    description: `${label}: MRR ${major(movement.before)} -> ${major(movement.after)} ${customer.currency.toUpperCase()}`,
  };
}

/** Groups in text order, the group of no value (null) last. */
function compareGroups(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  return b === null ? -1 : a.localeCompare(b);
}

/** Sorts movements in place by day or by base-currency amount, after `groupOf` when given. */
export function sortMovements(
  listed: ListedMovement[],
  { sort, order }: MovementOrder,
  groupOf: (movement: ListedMovement) => string | null = () => null,
): void {
  const compare = byKeyThenCustomer(
    (movement: ListedMovement) => (sort === 'date' ? movement.day : movement.amountBase),
    (movement) => movement.customerIndex,
    order,
  );
  listed.sort((a, b) => compareGroups(groupOf(a), groupOf(b)) || compare(a, b));
}
