import {
  type AccountSnapshot,
  customerNumbers,
  type CustomerView,
  heldAlongPatches,
  mrrsOn,
} from '../account-snapshot.js';
import { compareText } from '../compare-text.js';
import { derivedCache, objectId } from '../derived-cache.js';
import type { FxTable } from '../fx-table.js';
import { mergeOrders, remapOrder } from '../orders.js';
import { roundCents } from '../rounding.js';
import { type CustomerSort, customerItem, customerState } from './customer-item.js';

export interface CustomerOrderQuery {
  today: number;
  baseCurrency: string;
  sort: CustomerSort;
  order: 'asc' | 'desc';
}

const baseMrrsCache = derivedCache<readonly CustomerView[], Float64Array>(4);

/** Every customer's MRR on `today` in whole cents of the base currency, at today's rate. */
export function baseMrrsOn(
  snapshot: AccountSnapshot,
  today: number,
  baseCurrency: string,
  fx: FxTable,
): Float64Array {
  // Read only when a customer's number is computed: a cached column needs none.
  let mrrs: Float64Array | undefined;
  return customerNumbers(
    baseMrrsCache,
    snapshot,
    `${today}|${baseCurrency}|${objectId(fx)}`,
    (customer, index) =>
      roundCents(
        fx.convert((mrrs ??= mrrsOn(snapshot, today))[index]!, customer.currency, baseCurrency, today),
      ),
  );
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

const idRanksCache = derivedCache<AccountSnapshot, Int32Array>(1);

/** Each customer's place in the order of ids (code units), equal ids by index: every list's tie-break. */
function idRanks(snapshot: AccountSnapshot): Int32Array {
  return idRanksCache(snapshot, 'ids', () => {
    // The customers' own ids: the filter attributes would be built, all of them, for one column.
    const ids = snapshot.customers.map((customer) => customer.id);
    const indices = Array.from(ids, (_, index) => index);
    indices.sort((a, b) => compareText(ids[a]!, ids[b]!) || a - b);
    const ranks = new Int32Array(indices.length);
    indices.forEach((index, rank) => {
      ranks[index] = rank;
    });
    return ranks;
  });
}

/**
 * The sort values as numbers that order the same way in `direction`: numbers as they are (times
 * the direction), texts by their place among the distinct texts in code-unit order, and a missing
 * value as +Infinity, last whichever the direction.
 */
function numericKeys(values: ArrayLike<string | number | null>, direction: 1 | -1): Float64Array {
  const texts = new Set<string>();
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    if (typeof value === 'string') texts.add(value);
  }
  const textRank = new Map([...texts].sort(compareText).map((text, rank) => [text, rank]));
  return Float64Array.from({ length: values.length }, (_, index) => {
    const value = values[index] ?? null;
    if (value === null) return Number.POSITIVE_INFINITY;
    return direction * (typeof value === 'string' ? textRank.get(value)! : value);
  });
}

/**
 * Orders per customer list rather than per snapshot: a snapshot remembers the lists it was
 * patched from (at most eight), and a later snapshot's order is patched from theirs; an order
 * goes with the last snapshot that remembers its list. At most eight orders per list (sorts,
 * directions, base currencies): nine lists of 100,000 customers hold at most 29 MB of them.
 */
const orderCache = derivedCache<readonly CustomerView[], Int32Array>(8);

/**
 * Every customer's snapshot index in the order of a sort key and direction: by value, missing
 * values last whichever the direction, ties by id in code units, then by index (the order
 * customers were listed in). Made once per snapshot, day, base currency and rate table, so a
 * page of the list is a walk from the start; the comparison reads numbers only. A patched
 * snapshot's order is the order of a snapshot it was patched from, when that one was made,
 * renumbered, with the customers read again merged in: the customers kept by the patches have
 * the same values and ids, so they keep their order among themselves.
 */
export function customerOrder(snapshot: AccountSnapshot, query: CustomerOrderQuery, fx: FxTable): Int32Array {
  const key = `${query.today}|${query.baseCurrency}|${objectId(fx)}|${query.sort}|${query.order}`;
  return orderCache(snapshot.customers, key, () => {
    const keys = numericKeys(sortValues(snapshot, query, fx), query.order === 'asc' ? 1 : -1);
    return patchedOrder(snapshot, key, keys) ?? sortedOrder(snapshot, keys);
  });
}

function sortedOrder(snapshot: AccountSnapshot, keys: Float64Array): Int32Array {
  const ranks = idRanks(snapshot);
  const indices = Array.from(snapshot.customers, (_, index) => index);
  // Two missing values subtract to NaN, which falls through to the ids like a tie.
  indices.sort((a, b) => keys[a]! - keys[b]! || ranks[a]! - ranks[b]!);
  return Int32Array.from(indices);
}

/** The order patched from the latest list the snapshot was patched from whose order was made. */
function patchedOrder(snapshot: AccountSnapshot, key: string, keys: Float64Array): Int32Array | undefined {
  const held = heldAlongPatches(snapshot, orderCache, key);
  if (!held) return undefined;
  const { customers } = snapshot;
  // The order the ranks of ids give, without sorting every id of the snapshot for them.
  const compare = (a: number, b: number) =>
    keys[a]! - keys[b]! || compareText(customers[a]!.id, customers[b]!.id) || a - b;
  return mergeOrders(
    remapOrder(held.value, held.moves.customerOf),
    Int32Array.from(held.moves.freshAt).sort(compare),
    compare,
  );
}
