import type { Interval } from './periods.js';

/**
 * What every report is asked before its own parameters: the days it covers, how they are
 * grouped, the currency, the exchange rates and which customers count. Each report's query
 * extends it, or picks the part it reads.
 *
 * `fixFx` is the request's choice to convert at one rate instead of each amount's own day's;
 * each report says which day that is (the range's end, today, a cohort's first day). The
 * building blocks under the reports take that day itself, as `fixedRateDay`.
 */
export interface RangeQuery {
  /** Movements after today have not happened, unless a report says otherwise. */
  today: number;
  /** First and last day of the range, inclusive. */
  from: number;
  to: number;
  interval: Interval;
  baseCurrency: string;
  fixFx: boolean;
  /** Customers to count (1) or leave out (0), by snapshot index; null counts everyone. */
  customers: Uint8Array | null;
}
