import { type AccountSnapshot, type CustomerView, heldAlongPatches } from './account-snapshot.js';
import { inAgeRange, monthsBetween } from './customer-filter.js';
import { compareText } from './compare-text.js';
import { derivedCache } from './derived-cache.js';
import { dictionaryCoder } from './dictionary-coder.js';
import { marketOf } from './markets.js';
import { ownValue } from './own-value.js';
import { patchedNumbers } from './snapshot.js';

export const BREAKDOWNS = [
  'plan',
  'currency',
  'country',
  'state',
  'billing_freq',
  'data_source',
  'customer',
  'industry',
  'channel',
  'size',
  'cancel_reason',
  'payment_method',
  'pricing_model',
  'age',
  'market',
] as const;

/** The values of the `age` breakdown, in the notation of the `age` filter, which keeps the same customers. */
export const AGE_BUCKETS = ['0-3', '3-6', '6-12', '12-24', '24-'] as const;

/** The age bucket of a customer who first paid on `firstPaidDay`, as of `asOf`; null before it or never. */
function ageBucket(firstPaidDay: number | null, asOf: number): string | null {
  if (firstPaidDay === null) return null;
  const months = monthsBetween(firstPaidDay, asOf);
  return AGE_BUCKETS.find((bucket) => inAgeRange(bucket, months)) ?? null;
}

/** Whether a `breakdown` parameter names a dimension: one of BREAKDOWNS or `custom_<key>`. */
export function isBreakdown(dimension: string): boolean {
  return (BREAKDOWNS as readonly string[]).includes(dimension) || /^custom_.+/.test(dimension);
}

/**
 * The one value a customer has for a breakdown, or null when it has none. A customer on several
 * plans is counted under the plan of its latest revenue, so the series add up to the total.
 * `asOf` is the day `age` is measured on, as the `age` filter measures it: the range's end.
 */
export function breakdownValue(customer: CustomerView, dimension: string, asOf: number): string | null {
  switch (dimension) {
    case 'plan':
      return customer.primaryPlan === null
        ? null
        : customer.primaryPlan.slice(customer.primaryPlan.indexOf(':') + 1);
    case 'billing_freq':
      return customer.primaryBillingFreq;
    case 'currency':
      return customer.currency;
    case 'country':
      return customer.country;
    case 'state':
      return customer.state;
    case 'cancel_reason':
      return customer.cancelReason;
    case 'data_source':
      return customer.dataSourceId;
    case 'customer':
      return customer.id;
    case 'payment_method':
      return customer.latestPaymentMethod;
    case 'pricing_model':
      return customer.primaryPricingModel;
    case 'age':
      return ageBucket(customer.firstPaidDay, asOf);
    case 'market':
      return marketOf(customer.country);
    default: {
      const key = dimension.startsWith('custom_') ? dimension.slice('custom_'.length) : dimension;
      return ownValue(customer.customVariables, key) ?? null;
    }
  }
}

/**
 * Values in the reader's order, null last. Values localeCompare finds equal (one word in two
 * Unicode forms) are ordered by code units, so the order never depends on which came first.
 */
const byValue = (a: string | null, b: string | null) =>
  a === null ? (b === null ? 0 : 1) : b === null ? -1 : a.localeCompare(b) || compareText(a, b);

/** Each customer's value of one breakdown, as a code into the values seen. */
interface ValueCodes {
  /** Each value once, in order of first appearance; some may no longer be any customer's. */
  dictionary: (string | null)[];
  /** By snapshot index. */
  codes: Int32Array;
}

/**
 * A few breakdowns per customer list: a dashboard's map asks for one (country). With the nine
 * lists a snapshot reaches (its own and the eight it remembers), at most 36 columns of 400 KB at
 * 100,000 customers, and their dictionaries.
 */
const valueCodes = derivedCache<readonly CustomerView[], ValueCodes>(4);

/**
 * Every customer's value of the breakdown, kept per customer list: patched from the latest list
 * that holds it, so that after a write only the re-read customers' values are looked at (a
 * breakdown of 100,000 customers by country took about 50 ms, mostly looking their values up).
 */
function valueCodesOf(snapshot: AccountSnapshot, dimension: string, asOf: number): ValueCodes {
  // Only the age depends on the day it is taken on.
  const key = dimension === 'age' ? `age ${asOf}` : dimension;
  return valueCodes(snapshot.customers, key, () => {
    const { customers } = snapshot;
    const held = heldAlongPatches(snapshot, valueCodes, key);
    const dictionary = held ? [...held.value.dictionary] : [];
    const codeOfValue = dictionaryCoder(dictionary);
    const codeOf = (customer: CustomerView) => codeOfValue(breakdownValue(customer, dimension, asOf));
    const codes = held
      ? patchedNumbers(held.value.codes, customers.length, held.moves, (at) => codeOf(customers[at]!))
      : Int32Array.from(customers, codeOf);
    return { dictionary, codes };
  });
}

/**
 * The breakdown values of the customers `within` keeps, sorted (null, no value, last), and each
 * customer's group: its value's index, or -1 when left out. One array for every group, so a
 * report can add up all the groups in one pass over the movements.
 */
export function breakdownGroups(
  snapshot: AccountSnapshot,
  dimension: string,
  within: Uint8Array | null,
  asOf: number,
): { values: (string | null)[]; groupOf: Int32Array } {
  const { dictionary, codes } = valueCodesOf(snapshot, dimension, asOf);
  const kept = (index: number) => within === null || within[index] === 1;
  const present = new Uint8Array(dictionary.length);
  for (let index = 0; index < codes.length; index++) if (kept(index)) present[codes[index]!] = 1;
  const sortedCodes = dictionary
    .map((_, code) => code)
    .filter((code) => present[code] === 1)
    .sort((a, b) => byValue(dictionary[a]!, dictionary[b]!));
  const groupOfCode = new Int32Array(dictionary.length);
  sortedCodes.forEach((code, group) => {
    groupOfCode[code] = group;
  });
  return {
    values: sortedCodes.map((code) => dictionary[code]!),
    groupOf: codes.map((code, index) => (kept(index) ? groupOfCode[code]! : -1)),
  };
}

/** Each group of `breakdownGroups` with the customers in it, as masks over the snapshot. */
export function breakdownMasks(groups: {
  values: (string | null)[];
  groupOf: Int32Array;
}): { value: string | null; customers: Uint8Array }[] {
  return groups.values.map((value, group) => ({
    value,
    customers: Uint8Array.from(groups.groupOf, (of) => (of === group ? 1 : 0)),
  }));
}

/** The customers `within` keeps whose value for the breakdown is `wanted`, as a mask. */
export function breakdownMask(
  customers: readonly CustomerView[],
  dimension: string,
  within: Uint8Array | null,
  wanted: string,
  asOf: number,
): Uint8Array {
  return Uint8Array.from(customers, (customer, index) =>
    (within === null || within[index] === 1) && breakdownValue(customer, dimension, asOf) === wanted ? 1 : 0,
  );
}
