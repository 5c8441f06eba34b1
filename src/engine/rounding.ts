// Sums of exact fractions in floating point land a hair off their true value (9999.999999999998
// for three thirds of 10000); snapping to this tolerance first makes halves round the same way
// however they were reached.
const TOLERANCE = 1e-7;

/**
 * The engine's one rounding mode: to the nearest whole cent, halves away from zero
 * (2.5 -> 3, -2.5 -> -3), as a person checking the figures by hand would round.
 */
export function roundCents(value: number): number {
  const magnitude = Math.abs(value);
  const whole = Math.floor(magnitude);
  const fraction = magnitude - whole;
  const rounded = fraction >= 0.5 - TOLERANCE ? whole + 1 : whole;
  return value < 0 && rounded !== 0 ? -rounded : rounded;
}

/** A percentage or ratio to two decimals, the precision reports show rates in. */
export function twoDecimals(value: number): number {
  return Math.round(value * 100) / 100;
}
