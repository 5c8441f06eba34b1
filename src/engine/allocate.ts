/**
 * Whole numbers near `values` that add up to `total` exactly: each value is rounded down, and
 * the units still missing (or in excess) go to the values with the largest (or smallest)
 * fractional parts. Used where rounded parts must sum to a rounded whole, as in the MRR bridge.
 */
export function allocate(values: readonly number[], total: number): number[] {
  const parts = values.map((value) => Math.floor(value));
  let missing = total - parts.reduce((sum, part) => sum + part, 0);
  const byFraction = values
    .map((value, index) => ({ index, fraction: value - Math.floor(value) }))
    .sort((a, b) => b.fraction - a.fraction || a.index - b.index);
  for (let i = 0; missing !== 0 && byFraction.length > 0; i = (i + 1) % byFraction.length) {
    if (missing > 0) {
      parts[byFraction[i]!.index]! += 1;
      missing -= 1;
    } else {
      parts[byFraction[byFraction.length - 1 - i]!.index]! -= 1;
      missing += 1;
    }
  }
  return parts;
}
