import { type CustomerAttributes, customerMask, type Filter } from './customer-filter.js';
import { dayNumber } from './days.js';
import { derivedCache } from './derived-cache.js';
import { buildSnapshot, type Snapshot } from './snapshot.js';
import type { Movement, QuantityPoint } from './types.js';

/** A customer as reports and `/customers` show it, with what the engine derived for it. */
export interface CustomerView {
  id: string;
  dataSourceId: string;
  name: string | null;
  email: string | null;
  /** ISO 8601 instants as stored. */
  createdDate: string;
  trialStarted: string | null;
  paidStarted: string | null;
  cancelDate: string | null;
  country: string | null;
  /** US or Canadian state code, lower case. */
  state: string | null;
  status: string;
  cancelReason: string | null;
  customVariables: Readonly<Record<string, string>>;
  currency: string;
  /** First day with MRR above zero, or null. */
  firstPaidDay: number | null;
  plans: readonly string[];
  billingFreqs: readonly string[];
  /** The plan of the customer's latest revenue and its billing frequency, for breakdowns. */
  primaryPlan: string | null;
  primaryBillingFreq: string | null;
  /** Lower-case payment methods of the customer's transactions. */
  paymentMethods: readonly string[];
  /** The lower-case payment method of its latest successful payment, for breakdowns. */
  latestPaymentMethod: string | null;
  /** Pricing models (licensed, metered) of the plans billed on. */
  pricingModels: readonly string[];
  /** The pricing model of `primaryPlan`, for breakdowns. */
  primaryPricingModel: string | null;
  /** Whether the latest subscription invoice gives a discount. */
  hasDiscount: boolean;
  quantities: readonly QuantityPoint[];
  movements: readonly Movement[];
}

/** A funnel stage never reached: later than any day, so `day <= today` tells whether it was. */
export const NEVER = 2 ** 31 - 1;

/**
 * The day each customer reached each stage of the lead funnel, by snapshot index (docs/metrics.md,
 * "Leads, trials and conversions"):
 * lead on `created_date`, trial on `trial_started`, paid from `paidStartDay`; NEVER without one.
 * Parsed from the stored instants once per snapshot, so the lead reports scan integers.
 */
export interface FunnelColumns {
  lead: Int32Array;
  trial: Int32Array;
  paid: Int32Array;
}

/** Everything reports read about one account, built once per data version. */
export interface AccountSnapshot {
  version: number;
  /**
   * When its data version was read (ms since the epoch): how far back the store's record of
   * changes must reach for a later snapshot, or a table built for this one, to be patched from
   * it. 0 when unknown, which is too old to patch from.
   */
  readAt: number;
  customers: readonly CustomerView[];
  attributes: CustomerAttributes;
  movements: Snapshot;
  funnel: FunnelColumns;
}

/** The UTC calendar day of a stored ISO 8601 instant. */
const instantDay = (instant: string | null) => (instant === null ? null : dayNumber(instant.slice(0, 10)));

/** The day a customer started paying: its record's `paid_started`, else its first day with MRR. */
export function paidStartDay(customer: CustomerView): number | null {
  return instantDay(customer.paidStarted) ?? customer.firstPaidDay;
}

export function funnelColumns(customers: readonly CustomerView[]): FunnelColumns {
  const column = (dayOf: (customer: CustomerView) => number | null) =>
    Int32Array.from(customers, (customer) => dayOf(customer) ?? NEVER);
  return {
    lead: column((customer) => instantDay(customer.createdDate)),
    trial: column((customer) => instantDay(customer.trialStarted)),
    paid: column(paidStartDay),
  };
}

/** A customer's identity in a snapshot: its data source and id (a uuid holds no space). */
export function customerKey(dataSourceId: string, id: string): string {
  return `${dataSourceId} ${id}`;
}

/**
 * The snapshot's customer order, by data source then id as JavaScript compares strings: the
 * same whether a snapshot was read whole or patched, so reports add in the same order.
 */
export function compareCustomers(a: CustomerView, b: CustomerView): number {
  if (a.dataSourceId !== b.dataSourceId) return a.dataSourceId < b.dataSourceId ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The customers in snapshot order; already in it (the usual case), they are not copied. */
export function inSnapshotOrder(customers: CustomerView[]): CustomerView[] {
  for (let i = 1; i < customers.length; i++) {
    if (compareCustomers(customers[i - 1]!, customers[i]!) > 0) return customers.sort(compareCustomers);
  }
  return customers;
}

/**
 * A snapshot's customers after some were re-derived: every customer whose key is in `changed`
 * leaves, and `fresh` (their current views; a deleted customer has none) joins in order.
 */
export function patchCustomers(
  customers: readonly CustomerView[],
  changed: ReadonlySet<string>,
  fresh: readonly CustomerView[],
): CustomerView[] {
  const joining = [...fresh].sort(compareCustomers);
  const patched: CustomerView[] = [];
  let next = 0;
  for (const customer of customers) {
    if (changed.has(customerKey(customer.dataSourceId, customer.id))) continue;
    while (next < joining.length && compareCustomers(joining[next]!, customer) < 0)
      patched.push(joining[next++]!);
    patched.push(customer);
  }
  while (next < joining.length) patched.push(joining[next++]!);
  return patched;
}

export function buildAccountSnapshot(
  version: number,
  customers: readonly CustomerView[],
  readAt = 0,
): AccountSnapshot {
  return {
    version,
    readAt,
    customers,
    attributes: {
      id: customers.map((customer) => customer.id),
      country: customers.map((customer) => customer.country),
      state: customers.map((customer) => customer.state),
      cancelReason: customers.map((customer) => customer.cancelReason),
      currency: customers.map((customer) => customer.currency),
      dataSource: customers.map((customer) => customer.dataSourceId),
      status: customers.map((customer) => customer.status),
      plans: customers.map((customer) => customer.plans),
      billingFreqs: customers.map((customer) => customer.billingFreqs),
      paidStarted: customers.map((customer) => customer.firstPaidDay),
      customVariables: customers.map((customer) => customer.customVariables),
      paymentMethods: customers.map((customer) => customer.paymentMethods),
      pricingModels: customers.map((customer) => customer.pricingModels),
      hasDiscount: customers.map((customer) => (customer.hasDiscount ? 'true' : 'false')),
    },
    movements: buildSnapshot(customers),
    funnel: funnelColumns(customers),
  };
}

/** A customer's MRR on `day` in its own currency: the sum of its movements up to that day. */
export function mrrOn(customer: CustomerView, day: number): number {
  let mrr = 0;
  for (const movement of customer.movements) {
    if (movement.day > day) break;
    mrr += movement.amount;
  }
  return mrr;
}

/**
 * Cancelled once a customer that had MRR has none left on `day`; a lead or trial that has not
 * paid yet has cancelled nothing, so it is active (docs/decisions.md, "Customer status").
 */
export function statusOn(customer: CustomerView, day: number, mrr: number): 'active' | 'cancelled' {
  if (mrr > 0) return 'active';
  const paid = paidStartDay(customer);
  const firstMrr = customer.movements[0]?.day;
  return (paid !== null && paid <= day) || (firstMrr !== undefined && firstMrr <= day)
    ? 'cancelled'
    : 'active';
}

const mrrsCache = derivedCache<AccountSnapshot, Float64Array>();

/**
 * Every customer's `mrrOn(day)` by snapshot index. Lists and status filters ask for today's on
 * every call; walking every customer's movements once per snapshot and day is enough.
 */
export function mrrsOn(snapshot: AccountSnapshot, day: number): Float64Array {
  return mrrsCache(snapshot, String(day), () =>
    Float64Array.from(snapshot.customers, (customer) => mrrOn(customer, day)),
  );
}

/** The filter attributes with each customer's status as of `day`, for the `status` filter of reports. */
export function attributesOn(snapshot: AccountSnapshot, day: number): CustomerAttributes {
  const mrrs = mrrsOn(snapshot, day);
  return {
    ...snapshot.attributes,
    status: snapshot.customers.map((customer, index) => statusOn(customer, day, mrrs[index]!)),
  };
}

/**
 * The customers the filters keep as of `day` (null without filters). Status on a day walks
 * every customer's movements, so only a status filter pays for it.
 */
export function filteredCustomers(
  snapshot: AccountSnapshot,
  filters: readonly Filter[],
  day: number,
): Uint8Array | null {
  const attributes = filters.some((filter) => filter.dimension === 'status')
    ? attributesOn(snapshot, day)
    : snapshot.attributes;
  return customerMask(attributes, filters, day);
}
