import { type AccountSnapshot, mrrsOn } from '../account-snapshot.js';
import { compareText } from '../compare-text.js';
import { derivedCache, objectId } from '../derived-cache.js';
import type { FxTable } from '../fx-table.js';
import { roundCents } from '../rounding.js';
import { type CustomerSort, customerItem, customerState } from './customer-item.js';

export interface CustomerOrderQuery {
  today: number;
  baseCurrency: string;
  sort: CustomerSort;
  order: 'asc' | 'desc';
}

const baseMrrsCache = derivedCache<AccountSnapshot, Float64Array>();

/** Every customer's MRR on `today` in whole cents of the base currency, at today's rate. */
export function baseMrrsOn(
  snapshot: AccountSnapshot,
  today: number,
  baseCurrency: string,
  fx: FxTable,
): Float64Array {
  return baseMrrsCache(snapshot, `${today}|${baseCurrency}|${objectId(fx)}`, () => {
    const mrrs = mrrsOn(snapshot, today);
    return Float64Array.from(snapshot.customers, (customer, index) =>
      roundCents(fx.convert(mrrs[index]!, customer.currency, baseCurrency, today)),
    );
  });
}

/** Each customer's value of the sort key, as its list item shows it. */
function sortValues(
  snapshot: AccountSnapshot,
  query: CustomerOrderQuery,
  fx: FxTable,
): readonly (string | number | null)[] | Float64Array {
  const baseMrrs = baseMrrsOn(snapshot, query.today, query.baseCurrency, fx);
  if (query.sort === 'mrr') return baseMrrs;
  const mrrs = mrrsOn(snapshot, query.today);
  return snapshot.customers.map((customer, index) => {
    const state = customerState(customer, query.today, mrrs[index]);
    return customerItem(customer, state, baseMrrs[index]!)[query.sort];
  });
}

/**
 * Comparator of snapshot indices: by value in `direction`, missing values last whichever the
 * direction, ties by id in code units, then by index (the order customers were listed in).
 */
export function compareCustomers(
  values: ArrayLike<string | number | null>,
  ids: readonly string[],
  direction: 1 | -1,
): (a: number, b: number) => number {
  return (a, b) => {
    const x = values[a] ?? null;
    const y = values[b] ?? null;
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
    } else if (x !== y) return (x < y ? -1 : 1) * direction;
    return compareText(ids[a]!, ids[b]!) || a - b;
  };
}

const orderCache = derivedCache<AccountSnapshot, Int32Array>(32);

/**
 * Every customer's snapshot index in the order of a sort key and direction. Sorted once per
 * snapshot, day, base currency and rate table, so a page of the list is a walk from the start.
 */
export function customerOrder(snapshot: AccountSnapshot, query: CustomerOrderQuery, fx: FxTable): Int32Array {
  const key = `${query.today}|${query.baseCurrency}|${objectId(fx)}|${query.sort}|${query.order}`;
  return orderCache(snapshot, key, () => {
    const values = sortValues(snapshot, query, fx);
    const indices = Array.from(snapshot.customers, (_, index) => index);
    indices.sort(compareCustomers(values, snapshot.attributes.id, query.order === 'asc' ? 1 : -1));
    return Int32Array.from(indices);
  });
}
