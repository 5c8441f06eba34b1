import {
  type AccountSnapshot,
  type CustomerView,
  mrrOn,
  paidStartDay,
  statusOn,
} from '../account-snapshot.js';
import { derivedCache } from '../derived-cache.js';
import { dayString } from '../days.js';

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
 * What a customer is today: cancelled once its MRR has ended, else active. Paid start and
 * cancellation come from the record when it says, else from the movements: the last churn of
 * a cancelled customer, the planned churn of an active one. `mrr` may be given when the
 * caller already knows it.
 */
export function customerState(
  customer: CustomerView,
  today: number,
  mrr = mrrOn(customer, today),
): CustomerState {
  const status = statusOn(customer, today, mrr);
  const lastChurn = customer.movements.findLast(
    (movement) => movement.day <= today && movement.kind === 'churn',
  );
  // A paying customer whose subscription records plan a churn will cancel on that day.
  const plannedChurn =
    status === 'active'
      ? customer.movements.find(
          (movement) => movement.day > today && movement.kind === 'churn' && movement.scheduled,
        )
      : undefined;
  const derived = status === 'cancelled' ? lastChurn : plannedChurn;
  const derivedCancel = derived ? dayString(derived.day) : null;
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

/** A customer as the customers view lists it, with `baseMrr` its MRR today in the base currency. */
export function customerItem(
  customer: CustomerView,
  state: CustomerState,
  baseMrr: number,
): CustomerListItem {
  return {
    id: customer.id,
    name: customer.name,
    email: customer.email,
    created_date: state.createdDate,
    country: customer.country,
    mrr: baseMrr,
    trial_started: state.trialStarted,
    paid_started: state.paidStarted,
    cancel_date: state.cancelDate,
    status: state.status,
    currency: customer.currency,
  };
}

// Joins a customer's fields for search, so that no match spans two fields: a search holding it
// reads the fields one by one.
const SEPARATOR = '\u0000';
const searchCache = derivedCache<AccountSnapshot, string[]>(1);

/**
 * Whether lower-case `search` is part of a customer's name, email or id in any case, by
 * snapshot index (everyone without a search). The fields are lower-cased and joined once per
 * snapshot: a search that matches few customers reads all of them, in list order, and one
 * string per customer is what keeps that fast.
 */
export function searchMatcher(snapshot: AccountSnapshot, search: string | null): (index: number) => boolean {
  if (search === null) return () => true;
  if (search.includes(SEPARATOR)) {
    return (index) => {
      const { name, email, id } = snapshot.customers[index]!;
      return [name, email, id].some((field) => field?.toLowerCase().includes(search));
    };
  }
  const texts = searchCache(snapshot, 'text', () =>
    snapshot.customers.map((customer) =>
      [customer.name ?? '', customer.email ?? '', customer.id].join(SEPARATOR).toLowerCase(),
    ),
  );
  return (index) => texts[index]!.includes(search);
}
