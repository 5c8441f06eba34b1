/**
 * Orders: arrays of positions sorted by a comparator over some table (a cashflow table's
 * invoices, a snapshot's customers), kept from one version of the table to the next by
 * renumbering, merging and cutting rather than sorting again.
 */

/**
 * The first index of `from` to `to` (excluded) where `isBefore` is false, for a range sorted so
 * that it is true up to some index and false from there on; `to` when it is true throughout.
 */
export function partitionPoint(from: number, to: number, isBefore: (index: number) => boolean): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (isBefore(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** `order` with each position mapped by `to`, leaving out those it maps to -1. */
export function remapOrder(order: Int32Array, to: Int32Array): Int32Array {
  const mapped = new Int32Array(order.length);
  let length = 0;
  for (let index = 0; index < order.length; index++) {
    const next = to[order[index]!]!;
    if (next >= 0) mapped[length++] = next;
  }
  return mapped.slice(0, length);
}

/**
 * Two orders sorted by `compare`, merged into one. `b` is a patch's few added positions: each
 * finds its place in `a` by binary search, and the runs of `a` between are copied whole, so
 * `compare` runs a few times per added position rather than once per position of the table.
 */
export function mergeOrders(
  a: Int32Array,
  b: Int32Array,
  compare: (x: number, y: number) => number,
): Int32Array {
  const merged = new Int32Array(a.length + b.length);
  let from = 0;
  b.forEach((position, added) => {
    // After the positions of `a` that sort before it or tie with it: `a` comes first on ties.
    const low = partitionPoint(from, a.length, (index) => compare(a[index]!, position) <= 0);
    merged.set(a.subarray(from, low), from + added);
    merged[low + added] = position;
    from = low;
  });
  merged.set(a.subarray(from), from + b.length);
  return merged;
}

/**
 * `order` (sorted by `compare`, a total order) without `removed`: each is found by binary search
 * and the runs between are copied whole, so a patch that leaves a few positions out of an order of
 * a million does not read every position.
 */
export function withoutPositions(
  order: Int32Array,
  removed: readonly number[],
  compare: (x: number, y: number) => number,
): Int32Array {
  const at: number[] = [];
  for (const position of removed) {
    const low = partitionPoint(0, order.length, (index) => compare(order[index]!, position) < 0);
    if (order[low] === position) at.push(low);
  }
  at.sort((a, b) => a - b);
  const kept = new Int32Array(order.length - at.length);
  let from = 0;
  at.forEach((index, left) => {
    kept.set(order.subarray(from, index), from - left);
    from = index + 1;
  });
  kept.set(order.subarray(from), from - at.length);
  return kept;
}
