import { dayNumber } from './days.js';

/** One ECB reference rate: `perEur` units of `currency` (lower-case ISO code) buy one euro on `day`. */
export interface FxRate {
  day: string;
  currency: string;
  perEur: number;
}

/** Conversion asked for a currency the table holds no rate for. */
export class UnknownCurrencyError extends Error {
  override name = 'UnknownCurrencyError';
  constructor(readonly currency: string) {
    super(`Unknown currency "${currency}": no exchange rates for it`);
  }
}

/** One currency's rates for every day from its first to its last rate, gaps filled forward. */
interface Series {
  firstDay: number;
  perEur: Float64Array;
}

const EUR = 'eur';
// The base currency needs no array: one day at 1, and the index clamps onto it.
const EUR_SERIES: Series = { firstDay: 0, perEur: Float64Array.of(1) };

/** The rate of a series on `day`: of that day, else the last earlier one, else the first one. */
function perEurOn(series: Series, day: number): number {
  const values = series.perEur;
  const index = day - series.firstDay;
  return values[index < 0 ? 0 : index >= values.length ? values.length - 1 : index]!;
}

/** Into euros at the first currency's rate, then out at the second's, as the ECB quotes them. */
function cross(amountCents: number, from: Series, to: Series, day: number): number {
  return (amountCents / perEurOn(from, day)) * perEurOn(to, day);
}

interface Group {
  days: number[];
  values: number[];
}

function buildSeries({ days, values }: Group): Series {
  let firstDay = days[0]!;
  let lastDay = days[0]!;
  for (const day of days) {
    if (day < firstDay) firstDay = day;
    if (day > lastDay) lastDay = day;
  }
  const perEur = new Float64Array(lastDay - firstDay + 1).fill(Number.NaN);
  // In input order, so a later rate for the same day overwrites: that is how loaded rates win.
  for (let i = 0; i < days.length; i++) perEur[days[i]! - firstDay] = values[i]!;
  for (let i = 1; i < perEur.length; i++) if (Number.isNaN(perEur[i]!)) perEur[i] = perEur[i - 1]!;
  return { firstDay, perEur };
}

/**
 * Immutable exchange rates with O(1) lookup: per currency a dense array indexed by day number,
 * filled forward, so the metrics engine can convert millions of amounts per report. Rules
 * (docs/metrics.md, "Exchange rates"): a day converts at its own rate, else at the last earlier day
 * with a rate for that currency (weekends, holidays, and any day after the last rate); a day before
 * a currency's first rate uses that first rate, so an old record still converts rather than fails.
 * Crosses go through EUR, the base of the ECB rates. Currencies are lower-case ISO codes and days
 * are integer day numbers (engine/days.ts); the engine trusts both.
 */
export class FxTable {
  private constructor(
    private readonly series: ReadonlyMap<string, Series>,
    private readonly first: number,
    private readonly last: number,
  ) {
    Object.freeze(this);
  }

  /** Builds from rates in any order; when two give the same currency and day, the later wins. */
  static build(...sources: readonly (readonly FxRate[])[]): FxTable {
    const groups = new Map<string, Group>();
    for (const rates of sources) {
      for (const { day, currency, perEur } of rates) {
        if (currency === EUR) throw new RangeError('EUR is the base of the rates and has none of its own');
        let group = groups.get(currency);
        if (group === undefined) {
          group = { days: [], values: [] };
          groups.set(currency, group);
        }
        group.days.push(dayNumber(day));
        group.values.push(perEur);
      }
    }
    if (groups.size === 0) throw new RangeError('An exchange-rate table needs at least one rate');
    const series = new Map<string, Series>([[EUR, EUR_SERIES]]);
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    for (const [currency, group] of groups) {
      const built = buildSeries(group);
      series.set(currency, built);
      first = Math.min(first, built.firstDay);
      last = Math.max(last, built.firstDay + built.perEur.length - 1);
    }
    return new FxTable(series, first, last);
  }

  has(currency: string): boolean {
    return this.series.has(currency);
  }

  /** Every currency with rates, EUR included, sorted. */
  currencies(): string[] {
    return [...this.series.keys()].sort();
  }

  /** The earliest day with any rate, as a day number. */
  firstDay(): number {
    return this.first;
  }

  /** The latest day with any rate, as a day number. */
  lastDay(): number {
    return this.last;
  }

  private lookup(currency: string): Series {
    const series = this.series.get(currency);
    if (series === undefined) throw new UnknownCurrencyError(currency);
    return series;
  }

  /** How many `to` one `from` buys on `day`. */
  rate(from: string, to: string, day: number): number {
    const fromSeries = this.lookup(from);
    const toSeries = this.lookup(to);
    return from === to ? 1 : perEurOn(toSeries, day) / perEurOn(fromSeries, day);
  }

  /**
   * `amountCents` of `from` in cents of `to` on `day`, unrounded: the engine sums a customer's
   * amounts and rounds once per customer and day. The same currency returns the amount exactly.
   */
  convert(amountCents: number, from: string, to: string, day: number): number {
    // The same currency needs no rate, so a currency the ECB does not quote still works on its own.
    if (from === to) return amountCents;
    return cross(amountCents, this.lookup(from), this.lookup(to), day);
  }

  /**
   * The two factors of converting from one currency to another on one day, for loops over many
   * amounts of one pair and day: `convert(amount, from, to, day)` is exactly
   * `(amount / divisor) * multiplier` (both 1 for the same currency, which keeps amounts exact).
   */
  factors(from: string, to: string, day: number): { divisor: number; multiplier: number } {
    if (from === to) return { divisor: 1, multiplier: 1 };
    return { divisor: perEurOn(this.lookup(from), day), multiplier: perEurOn(this.lookup(to), day) };
  }

  /**
   * `convert` with the currencies looked up once, for loops over many amounts of one pair:
   * the returned function only indexes two arrays.
   */
  converter(from: string, to: string): (amountCents: number, day: number) => number {
    if (from === to) return (amountCents) => amountCents;
    const fromSeries = this.lookup(from);
    const toSeries = this.lookup(to);
    return (amountCents, day) => cross(amountCents, fromSeries, toSeries, day);
  }
}
