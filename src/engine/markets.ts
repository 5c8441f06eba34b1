import { REGIONS } from './regions.js';

/**
 * The markets of the `market` breakdown, built from the named regions. Regions overlap and a
 * breakdown needs one value per customer, so a country listed in several goes to the first of
 * them in this order: Mexico to latam (north_america is then US and CA), Cyprus to europe and
 * Egypt to africa rather than middle_east.
 */
const MARKETS = ['latam', 'north_america', 'europe', 'africa', 'middle_east', 'apac'] as const;

const MARKET_OF_COUNTRY: ReadonlyMap<string, string> = (() => {
  const marketOf = new Map<string, string>();
  for (const market of MARKETS) {
    for (const country of REGIONS.get(market) ?? []) {
      if (!marketOf.has(country)) marketOf.set(country, market);
    }
  }
  return marketOf;
})();

/** The market of an upper-case ISO 3166-1 alpha-2 code, or null for none or a country in none. */
export function marketOf(country: string | null): string | null {
  return country === null ? null : (MARKET_OF_COUNTRY.get(country) ?? null);
}
