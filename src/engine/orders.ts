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
 * `order` (sorted by `compare`, a total order) without `removed` and with `added` (sorted by
 * `compare`) merged in, in one new array: a patch's few positions are each found by binary
 * search and the runs of `order` between are copied whole, so `compare` runs a few times per
 * changed position rather than once per position of the table.
 */
export function patchedOrder(
  order: Int32Array,
  removed: readonly number[],
  added: Int32Array,
  compare: (x: number, y: number) => number,
): Int32Array {
  const cuts: number[] = [];
  for (const position of removed) {
    const at = partitionPoint(0, order.length, (index) => compare(order[index]!, position) < 0);
    if (order[at] === position) cuts.push(at);
  }
  cuts.sort((a, b) => a - b);
  const patched = new Int32Array(order.length - cuts.length + added.length);
  let from = 0;
  let length = 0;
  let cut = 0;
  /** Copies `order[from..end)`, less the cut indexes. */
  const copyTo = (end: number) => {
    for (; cut < cuts.length && cuts[cut]! < end; cut++) {
      patched.set(order.subarray(from, cuts[cut]), length);
      length += cuts[cut]! - from;
      from = cuts[cut]! + 1;
    }
    patched.set(order.subarray(from, end), length);
    length += end - from;
    from = end;
  };
  for (const position of added) {
    // After the positions of `order` that sort before it or tie with it: `order` comes first on ties.
    copyTo(partitionPoint(from, order.length, (index) => compare(order[index]!, position) <= 0));
    patched[length++] = position;
  }
  copyTo(order.length);
  return patched;
}

/** Two orders sorted by `compare`, merged into one; `b` is a patch's few added positions. */
export const mergeOrders = (a: Int32Array, b: Int32Array, compare: (x: number, y: number) => number) =>
  patchedOrder(a, [], b, compare);
