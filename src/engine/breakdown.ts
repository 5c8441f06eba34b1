import type { CustomerView } from './account-snapshot.js';
import { inAgeRange, monthsBetween } from './customer-filter.js';
import { marketOf } from './markets.js';
import { ownValue } from './own-value.js';

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

const byValue = (a: string | null, b: string | null) =>
  a === null ? (b === null ? 0 : 1) : b === null ? -1 : a.localeCompare(b);

/**
 * The breakdown values of the customers `within` keeps, sorted (null, no value, last), and each
 * customer's group: its value's index, or -1 when left out. One array for every group, so a
 * report can add up all the groups in one pass over the movements.
 */
export function breakdownGroups(
  customers: readonly CustomerView[],
  dimension: string,
  within: Uint8Array | null,
  asOf: number,
): { values: (string | null)[]; groupOf: Int32Array } {
  const firstSeen = new Map<string | null, number>();
  const seenGroup = new Int32Array(customers.length).fill(-1);
  customers.forEach((customer, index) => {
    if (within !== null && within[index] !== 1) return;
    const value = breakdownValue(customer, dimension, asOf);
    let group = firstSeen.get(value);
    if (group === undefined) {
      group = firstSeen.size;
      firstSeen.set(value, group);
    }
    seenGroup[index] = group;
  });
  const values = [...firstSeen.keys()].sort(byValue);
  const sortedGroup = new Int32Array(values.length);
  values.forEach((value, sorted) => {
    sortedGroup[firstSeen.get(value)!] = sorted;
  });
  return { values, groupOf: seenGroup.map((group) => (group < 0 ? -1 : sortedGroup[group]!)) };
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
