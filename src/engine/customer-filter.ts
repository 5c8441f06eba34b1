import { ownValue } from './own-value.js';

/**
 * Filters are plain data, parsed and checked once (services/report-query.ts) and applied
 * here to every report the same way. A filter keeps a customer when one of its values is in
 * `include` (or `anyValue` and it has a value, or `notSet` and it has none), and none of its
 * values is in `exclude`. A filter with nothing to include keeps everyone not excluded.
 */
export interface Filter {
  dimension: FilterDimension;
  include: readonly string[];
  exclude: readonly string[];
  anyValue: boolean;
  notSet: boolean;
}

/** Custom variables are `custom:<key>`; `age` values are `M-N` or `M-` month ranges. */
export type FilterDimension =
  | 'country'
  | 'currency'
  | 'data_source'
  | 'plan'
  | 'billing_freq'
  | 'status'
  | 'customer'
  | 'state'
  | 'cancel_reason'
  | 'age'
  | 'payment_method'
  | 'pricing_model'
  | 'has_discount'
  | `custom:${string}`;

/** The attributes filters read, one entry per customer in snapshot order. */
export interface CustomerAttributes {
  id: readonly string[];
  country: readonly (string | null)[];
  state: readonly (string | null)[];
  cancelReason: readonly (string | null)[];
  currency: readonly string[];
  dataSource: readonly string[];
  status: readonly string[];
  /** Plans (as `data_source_id:plan_id`) and billing frequencies the customer has been billed on. */
  plans: readonly (readonly string[])[];
  billingFreqs: readonly (readonly string[])[];
  /** First day with MRR, or null for a customer who never paid. */
  paidStarted: readonly (number | null)[];
  customVariables: readonly Readonly<Record<string, string>>[];
  paymentMethods: readonly (readonly string[])[];
  pricingModels: readonly (readonly string[])[];
  /** 'true' or 'false'. */
  hasDiscount: readonly string[];
}

const NONE: readonly string[] = [];

function valuesOf(
  attributes: CustomerAttributes,
  dimension: FilterDimension,
  index: number,
): readonly string[] {
  const single = (value: string | null | undefined) =>
    value === null || value === undefined ? NONE : [value];
  switch (dimension) {
    case 'country':
      return single(attributes.country[index]);
    case 'currency':
      return single(attributes.currency[index]);
    case 'data_source':
      return single(attributes.dataSource[index]);
    case 'status':
      return single(attributes.status[index]);
    case 'customer':
      return single(attributes.id[index]);
    case 'state':
      return single(attributes.state[index]);
    case 'cancel_reason':
      return single(attributes.cancelReason[index]);
    case 'plan':
      return attributes.plans[index] ?? NONE;
    case 'billing_freq':
      return attributes.billingFreqs[index] ?? NONE;
    case 'payment_method':
      return attributes.paymentMethods[index] ?? NONE;
    case 'pricing_model':
      return attributes.pricingModels[index] ?? NONE;
    case 'has_discount':
      return single(attributes.hasDiscount[index]);
    case 'age':
      return NONE;
    default: {
      const variables = attributes.customVariables[index];
      return single(variables && ownValue(variables, dimension.slice('custom:'.length)));
    }
  }
}

/** Whole months from `from` to `to` (day numbers), counting 30.4375 days a month. */
export function monthsBetween(from: number, to: number): number {
  return Math.floor((to - from) / 30.4375);
}

/** Whether `months` lies in an `M-N` (from M, before N) or `M-` (from M) range. */
export function inAgeRange(range: string, months: number): boolean {
  const [low, high] = range.split('-');
  return months >= Number(low) && (high === '' || high === undefined || months < Number(high));
}

function keeps(filter: Filter, attributes: CustomerAttributes, index: number, asOf: number): boolean {
  if (filter.dimension === 'age') {
    const paid = attributes.paidStarted[index];
    if (paid === null || paid === undefined) return filter.notSet;
    const months = monthsBetween(paid, asOf);
    if (filter.exclude.some((range) => inAgeRange(range, months))) return false;
    return filter.include.length === 0 && !filter.anyValue
      ? true
      : filter.anyValue || filter.include.some((range) => inAgeRange(range, months));
  }
  const values = valuesOf(attributes, filter.dimension, index);
  if (values.some((value) => filter.exclude.includes(value))) return false;
  if (filter.include.length === 0 && !filter.anyValue && !filter.notSet) return true;
  if (values.length === 0) return filter.notSet;
  return filter.anyValue || values.some((value) => filter.include.includes(value));
}

/**
 * The customers every filter keeps, as 1 or 0 by snapshot index, or null when there is no
 * filter (reports then skip the check). `asOf` is the day customer age is measured on.
 */
export function customerMask(
  attributes: CustomerAttributes,
  filters: readonly Filter[],
  asOf: number,
): Uint8Array | null {
  if (filters.length === 0) return null;
  const mask = new Uint8Array(attributes.id.length);
  for (let index = 0; index < mask.length; index++) {
    mask[index] = filters.every((filter) => keeps(filter, attributes, index, asOf)) ? 1 : 0;
  }
  return mask;
}
