/**
 * Whole numbers near `values` that add up to `total` exactly: each value is rounded down, and
 * the units still missing (or in excess) go to the values with the largest (or smallest)
 * fractional parts. Used where rounded parts must sum to a rounded whole, as in the MRR bridge.
 * The work does not grow with the units to hand out, and an amount that is not a number fails
 * rather than leaving units that can never be handed out (a report that never answers).
 */
export function allocate(values: readonly number[], total: number): number[] {
  if (!Number.isInteger(total) || !values.every(Number.isFinite))
    throw new RangeError(`allocate: ${total} is not whole cents, or a part is not a number`);
  const parts = values.map((value) => Math.floor(value));
  if (parts.length === 0) return parts;
  let missing = total - parts.reduce((sum, part) => sum + part, 0);
  // As many units to every part as the whole rounds the missing units make, then the rest in turn.
  const rounds = Math.trunc(missing / parts.length);
  if (rounds !== 0) {
    for (let index = 0; index < parts.length; index++) parts[index]! += rounds;
    missing -= rounds * parts.length;
  }
  const byFraction = values
    .map((value, index) => ({ index, fraction: value - Math.floor(value) }))
    .sort((a, b) => b.fraction - a.fraction || a.index - b.index);
  for (let i = 0; missing !== 0; i++) {
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
