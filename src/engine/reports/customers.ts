import { type AccountSnapshot, mrrsOn, statusOn } from '../account-snapshot.js';
import type { FxTable } from '../fx-table.js';
import {
  type CustomerListItem,
  type CustomerSort,
  customerItem,
  customerState,
  searchMatcher,
} from './customer-item.js';
import { baseMrrsOn, customerOrder } from './customer-order.js';

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

/** The funnel column holding the day each customer became what `type` selects (NEVER if not). */
function selectedDays(snapshot: AccountSnapshot, type: SelectedType): Int32Array {
  const { lead, trial, paid } = snapshot.funnel;
  return type === 'lead' ? lead : type === 'trials' ? trial : paid;
}

export type CustomerRowsQuery = Omit<CustomersQuery, 'limit' | 'offset'>;

/** Every customer the query keeps, in its order, each built on demand. */
export interface CustomerRows {
  count: number;
  at(n: number): CustomerListItem;
}

/** The indices the query keeps in its order, and how to build each one's item. */
function keptInOrder(snapshot: AccountSnapshot, query: CustomerRowsQuery, fx: FxTable, limit: number) {
  const mrrs = mrrsOn(snapshot, query.today);
  const baseMrrs = baseMrrsOn(snapshot, query.today, query.baseCurrency, fx);
  const { customers: mask, status, selected } = query;
  const days = selected === null ? null : selectedDays(snapshot, selected.type);
  const matches = searchMatcher(snapshot, query.search);
  const keeps = (index: number) =>
    (mask === null || mask[index] === 1) &&
    matches(index) &&
    (status === 'all' || statusOn(snapshot.customers[index]!, query.today, mrrs[index]!) === status) &&
    // NEVER, the day of a stage not reached, lies after any range.
    (days === null || (days[index]! >= selected!.from && days[index]! <= selected!.to));
  const order = customerOrder(snapshot, query, fx);
  const kept: number[] = [];
  for (let n = 0; n < order.length && kept.length < limit; n++) {
    if (keeps(order[n]!)) kept.push(order[n]!);
  }
  const item = (index: number) => {
    const customer = snapshot.customers[index]!;
    return customerItem(customer, customerState(customer, query.today, mrrs[index]), baseMrrs[index]!);
  };
  return { kept, item };
}

/**
 * The customers view (docs/metrics.md, "Customers view"): filtered, searched, sorted, one page, MRR
 * in the base currency. Walks the cached order of every customer and builds only the page.
 */
export function customersReport(
  snapshot: AccountSnapshot,
  query: CustomersQuery,
  fx: FxTable,
): CustomerListItem[] {
  const { kept, item } = keptInOrder(snapshot, query, fx, query.offset + query.limit);
  return kept.slice(query.offset).map(item);
}

/** The whole list of the customers view, for an export: one number per customer until built. */
export function customerRows(snapshot: AccountSnapshot, query: CustomerRowsQuery, fx: FxTable): CustomerRows {
  const { kept, item } = keptInOrder(snapshot, query, fx, Number.POSITIVE_INFINITY);
  return { count: kept.length, at: (n) => item(kept[n]!) };
}
