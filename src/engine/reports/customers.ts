import {
  type AccountSnapshot,
  type CustomerView,
  mrrOn,
  paidStartDay,
  statusOfMrr,
} from '../account-snapshot.js';
import { compareText } from '../compare-text.js';
import { dayNumber, dayString } from '../days.js';
import type { FxTable } from '../fx-table.js';
import { roundCents } from '../rounding.js';

export const CUSTOMER_SORTS = [
  'created_date',
  'mrr',
  'country',
  'paid_started',
  'cancel_date',
  'trial_started',
  'status',
] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];
export type SelectedType = 'lead' | 'trials' | 'converted';

export interface CustomersQuery {
  today: number;
  baseCurrency: string;
  /** From the shared filters; null keeps everyone. */
  customers: Uint8Array | null;
  status: 'active' | 'cancelled' | 'all';
  /** Lower-case text to find in the name, email or id. */
  search: string | null;
  /** Customers who became leads, trials or paying within `[from, to]`. */
  selected: { type: SelectedType; from: number; to: number } | null;
  sort: CustomerSort;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface CustomerState {
  /** MRR today in the customer's currency. */
  mrr: number;
  status: 'active' | 'cancelled';
  createdDate: string;
  trialStarted: string | null;
  paidStarted: string | null;
  cancelDate: string | null;
}

const dateOf = (instant: string | null) => (instant === null ? null : instant.slice(0, 10));

/**
 * What a customer is today: active while it has MRR, else cancelled. Paid start and
 * cancellation come from the record when it says, else from the movements.
 */
export function customerState(customer: CustomerView, today: number): CustomerState {
  const mrr = mrrOn(customer, today);
  const status = statusOfMrr(mrr);
  const lastChurn = customer.movements.findLast(
    (movement) => movement.day <= today && movement.kind === 'churn',
  );
  const derivedCancel = status === 'cancelled' && lastChurn ? dayString(lastChurn.day) : null;
  const paidDay = paidStartDay(customer);
  return {
    mrr,
    status,
    createdDate: dateOf(customer.createdDate)!,
    trialStarted: dateOf(customer.trialStarted),
    paidStarted: paidDay === null ? null : dayString(paidDay),
    cancelDate: dateOf(customer.cancelDate) ?? derivedCancel,
  };
}

export interface CustomerListItem {
  id: string;
  name: string | null;
  email: string | null;
  created_date: string;
  country: string | null;
  mrr: number;
  trial_started: string | null;
  paid_started: string | null;
  cancel_date: string | null;
  status: 'active' | 'cancelled';
  currency: string;
}

function selectedDay(state: CustomerState, type: SelectedType): string | null {
  if (type === 'lead') return state.createdDate;
  return type === 'trials' ? state.trialStarted : state.paidStarted;
}

function matches(customer: CustomerView, search: string): boolean {
  return [customer.name, customer.email, customer.id].some((field) => field?.toLowerCase().includes(search));
}

function sortValue(item: CustomerListItem, sort: CustomerSort): string | number | null {
  return item[sort];
}

/** The customers view of SPEC 4.5: filtered, searched, sorted, one page, MRR in the base currency. */
export function customersReport(
  snapshot: AccountSnapshot,
  query: CustomersQuery,
  fx: FxTable,
): CustomerListItem[] {
  const items: CustomerListItem[] = [];
  snapshot.customers.forEach((customer, index) => {
    if (query.customers !== null && query.customers[index] !== 1) return;
    if (query.search !== null && !matches(customer, query.search)) return;
    const state = customerState(customer, query.today);
    if (query.status !== 'all' && state.status !== query.status) return;
    if (query.selected !== null) {
      const day = selectedDay(state, query.selected.type);
      if (day === null || dayNumber(day) < query.selected.from || dayNumber(day) > query.selected.to) return;
    }
    items.push({
      id: customer.id,
      name: customer.name,
      email: customer.email,
      created_date: state.createdDate,
      country: customer.country,
      mrr: roundCents(fx.convert(state.mrr, customer.currency, query.baseCurrency, query.today)),
      trial_started: state.trialStarted,
      paid_started: state.paidStarted,
      cancel_date: state.cancelDate,
      status: state.status,
      currency: customer.currency,
    });
  });
  const direction = query.order === 'asc' ? 1 : -1;
  items.sort((a, b) => {
    const x = sortValue(a, query.sort);
    const y = sortValue(b, query.sort);
    // Missing values go last whichever the order; ties fall back to the id.
    if (x === null || y === null) return x === y ? compareText(a.id, b.id) : x === null ? 1 : -1;
    if (x !== y) return (x < y ? -1 : 1) * direction;
    return compareText(a.id, b.id);
  });
  return items.slice(query.offset, query.offset + query.limit);
}
