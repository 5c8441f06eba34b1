/**
 * The `k` first of the items `0 .. count - 1` in the order of `compare` (a total order), in
 * that order: what sorting all of them and keeping the first `k` gives, in O(count log k)
 * instead of O(count log count), for a page near the start of a long list. The answer does not
 * depend on `fromEnd`; visiting the items from the last one is faster when they come roughly
 * in reverse order, since then few of them displace one already kept.
 */
export function firstInOrder(
  count: number,
  k: number,
  compare: (a: number, b: number) => number,
  fromEnd = false,
): number[] {
  if (k >= count) return Array.from({ length: count }, (_, index) => index).sort(compare);
  if (k <= 0) return [];
  // A max-heap of the k first seen so far: its root is the one a newcomer has to beat.
  const heap: number[] = [];
  const siftDown = (from: number) => {
    let parent = from;
    for (;;) {
      const left = 2 * parent + 1;
      if (left >= heap.length) return;
      const right = left + 1;
      const larger = right < heap.length && compare(heap[right]!, heap[left]!) > 0 ? right : left;
      if (compare(heap[larger]!, heap[parent]!) <= 0) return;
      [heap[parent], heap[larger]] = [heap[larger]!, heap[parent]!];
      parent = larger;
    }
  };
  for (let n = 0; n < count; n++) {
    const item = fromEnd ? count - 1 - n : n;
    if (heap.length < k) {
      heap.push(item);
      let child = heap.length - 1;
      while (child > 0) {
        const parent = (child - 1) >> 1;
        if (compare(heap[child]!, heap[parent]!) <= 0) break;
        [heap[parent], heap[child]] = [heap[child]!, heap[parent]!];
        child = parent;
      }
    } else if (compare(item, heap[0]!) < 0) {
      heap[0] = item;
      siftDown(0);
    }
  }
  return heap.sort(compare);
}
