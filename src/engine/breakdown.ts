import type { CustomerView } from './account-snapshot.js';

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
] as const;

/** Whether a `breakdown` parameter names a dimension: one of BREAKDOWNS or `custom_<key>`. */
export function isBreakdown(dimension: string): boolean {
  return (BREAKDOWNS as readonly string[]).includes(dimension) || /^custom_.+/.test(dimension);
}

/**
 * The one value a customer has for a breakdown, or null when it has none. A customer on several
 * plans is counted under the plan of its latest revenue, so the series add up to the total.
 */
export function breakdownValue(customer: CustomerView, dimension: string): string | null {
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
    default: {
      const key = dimension.startsWith('custom_') ? dimension.slice('custom_'.length) : dimension;
      return customer.customVariables[key] ?? null;
    }
  }
}

/** Each breakdown value with the customers holding it, as masks over the snapshot, values sorted. */
export function breakdownMasks(
  customers: readonly CustomerView[],
  dimension: string,
  within: Uint8Array | null,
): { value: string | null; customers: Uint8Array }[] {
  const groups = new Map<string | null, Uint8Array>();
  customers.forEach((customer, index) => {
    if (within !== null && within[index] !== 1) return;
    const value = breakdownValue(customer, dimension);
    let mask = groups.get(value);
    if (!mask) {
      mask = new Uint8Array(customers.length);
      groups.set(value, mask);
    }
    mask[index] = 1;
  });
  return [...groups.entries()]
    .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
    .map(([value, mask]) => ({ value, customers: mask }));
}
