/**
 * `numerator / denominator`, or 0 when the denominator is 0. The reports the hosted service's
 * clients read type their ratios, rates and averages as plain numbers, so "nothing to divide"
 * is 0 there; the count beside each figure (customers, attempts, leads) tells it from a true 0
 * (docs/decisions.md, "Ratios over nothing are 0").
 */
export function ratioOrZero(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}
