import { type CustomerAttributes, customerMask, type Filter } from './customer-filter.js';
import { dayNumber } from './days.js';
import { type DerivedCache, derivedCache } from './derived-cache.js';
import { partitionPoint } from './orders.js';
import {
  buildSnapshot,
  type CustomerMoves,
  patchedNumbers,
  patchedList,
  patchSnapshot,
  type Snapshot,
} from './snapshot.js';
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
  /**
   * The patches that led to it, oldest first, back to the last snapshot read whole or at most
   * PATCH_STEPS_KEPT: a table built for the customers of any of them follows the same moves
   * (`movesSince`). Empty for a snapshot read whole.
   */
  patchedFrom: readonly PatchStep[];
}

/** One patch of a snapshot: the customer list it started from, those read again, and where each went. */
export interface PatchStep {
  customers: readonly CustomerView[];
  /** Every fresh customer's key is among them: the fresh views are those read for these keys. */
  changed: readonly CustomerKey[];
  moves: CustomerMoves;
}

/**
 * Patches a snapshot remembers. Each holds a customer list and its moves (about 1 MiB at
 * 100,000 customers); a table more patches behind is patched by keys instead.
 */
const PATCH_STEPS_KEPT = 8;

/** The UTC calendar day of a stored ISO 8601 instant. */
const instantDay = (instant: string | null) => (instant === null ? null : dayNumber(instant.slice(0, 10)));

/** The day a customer started paying: its record's `paid_started`, else its first day with MRR. */
export function paidStartDay(customer: CustomerView): number | null {
  return instantDay(customer.paidStarted) ?? customer.firstPaidDay;
}

/** The day of each funnel stage of a customer, NEVER for a stage not reached. */
const FUNNEL_DAYS: Record<keyof FunnelColumns, (customer: CustomerView) => number | null> = {
  lead: (customer) => instantDay(customer.createdDate),
  trial: (customer) => instantDay(customer.trialStarted),
  paid: paidStartDay,
};

export function funnelColumns(customers: readonly CustomerView[]): FunnelColumns {
  const column = (stage: keyof FunnelColumns) =>
    Int32Array.from(customers, (customer) => FUNNEL_DAYS[stage](customer) ?? NEVER);
  return { lead: column('lead'), trial: column('trial'), paid: column('paid') };
}

/** `previous`'s funnel after a patch: kept customers' days copied, the fresh ones' parsed. */
function patchFunnel(
  previous: FunnelColumns,
  customers: readonly CustomerView[],
  moves: CustomerMoves,
): FunnelColumns {
  const column = (stage: keyof FunnelColumns) =>
    patchedNumbers(
      previous[stage],
      customers.length,
      moves,
      (at) => FUNNEL_DAYS[stage](customers[at]!) ?? NEVER,
    );
  return { lead: column('lead'), trial: column('trial'), paid: column('paid') };
}

/** A customer's identity in a snapshot: its data source and id (a uuid holds no space). */
export function customerKey(dataSourceId: string, id: string): string {
  return `${dataSourceId} ${id}`;
}

/** A customer's key: its data source and id. */
export interface CustomerKey {
  dataSourceId: string;
  id: string;
}

/**
 * The snapshot's customer order, by data source then id as JavaScript compares strings: the
 * same whether a snapshot was read whole or patched, so reports add in the same order.
 */
export function compareCustomers(a: CustomerKey, b: CustomerKey): number {
  if (a.dataSourceId !== b.dataSourceId) return a.dataSourceId < b.dataSourceId ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The first index of `customers` (in snapshot order) not before `key`. */
function lowerBound(customers: readonly CustomerView[], key: CustomerKey): number {
  return partitionPoint(0, customers.length, (index) => compareCustomers(customers[index]!, key) < 0);
}

/** The customers in snapshot order; already in it (the usual case), they are not copied. */
export function inSnapshotOrder(customers: CustomerView[]): CustomerView[] {
  for (let i = 1; i < customers.length; i++) {
    if (compareCustomers(customers[i - 1]!, customers[i]!) > 0) return customers.sort(compareCustomers);
  }
  return customers;
}

/** A snapshot's customers after a patch, and where each went. */
export interface PatchedCustomers {
  customers: CustomerView[];
  /** The customers read again, as asked: distinct keys, as the store's record of changes gives them. */
  changed: readonly CustomerKey[];
  moves: CustomerMoves;
}

/**
 * A snapshot's customers after some were re-derived: every customer in `changed` leaves, and
 * `fresh` (their current views; a deleted customer has none) joins in order. Each is found by a
 * binary search, so the customers that stay are never compared, only copied.
 */
export function patchCustomers(
  customers: readonly CustomerView[],
  changed: readonly CustomerKey[],
  fresh: readonly CustomerView[],
): PatchedCustomers {
  const joining = [...fresh].sort(compareCustomers);
  const leaves = new Uint8Array(customers.length);
  for (const key of changed) {
    const at = lowerBound(customers, key);
    if (at < customers.length && compareCustomers(customers[at]!, key) === 0) leaves[at] = 1;
  }
  // A joining customer goes before the first customer after it, which may be its own old view:
  // that one leaves, listed in `changed` or not.
  const before = joining.map((customer) => lowerBound(customers, customer));
  before.forEach((at, index) => {
    if (at < customers.length && compareCustomers(customers[at]!, joining[index]!) === 0) leaves[at] = 1;
  });
  const customerOf = new Int32Array(customers.length);
  const freshAt: number[] = [];
  let length = 0;
  let next = 0;
  for (let old = 0; old < customers.length; old++) {
    while (next < joining.length && before[next]! <= old) {
      freshAt.push(length++);
      next++;
    }
    customerOf[old] = leaves[old] === 1 ? -1 : length++;
  }
  for (; next < joining.length; next++) freshAt.push(length++);
  const moves = { customerOf, freshAt };
  // patchedList asks for the fresh customers in index order, which is the joining order.
  let joined = 0;
  return { customers: patchedList(customers, length, moves, () => joining[joined++]!), changed, moves };
}

/** Each filter attribute of a customer. */
const ATTRIBUTES: {
  [K in keyof CustomerAttributes]: (customer: CustomerView) => CustomerAttributes[K][number];
} = {
  id: (customer) => customer.id,
  country: (customer) => customer.country,
  state: (customer) => customer.state,
  cancelReason: (customer) => customer.cancelReason,
  currency: (customer) => customer.currency,
  dataSource: (customer) => customer.dataSourceId,
  status: (customer) => customer.status,
  plans: (customer) => customer.plans,
  billingFreqs: (customer) => customer.billingFreqs,
  paidStarted: (customer) => customer.firstPaidDay,
  customVariables: (customer) => customer.customVariables,
  paymentMethods: (customer) => customer.paymentMethods,
  pricingModels: (customer) => customer.pricingModels,
  hasDiscount: (customer) => (customer.hasDiscount ? 'true' : 'false'),
};

/** The attributes of every customer, or only of the fresh ones with the others' copied. */
function attributes(
  customers: readonly CustomerView[],
  patch?: { previous: CustomerAttributes; moves: CustomerMoves },
): CustomerAttributes {
  // Each column has its own value type; built alike, they are typed by ATTRIBUTES.
  const column = (name: keyof CustomerAttributes): readonly unknown[] => {
    const valueOf: (customer: CustomerView) => unknown = ATTRIBUTES[name];
    return patch
      ? patchedList<unknown>(patch.previous[name], customers.length, patch.moves, (at) =>
          valueOf(customers[at]!),
        )
      : customers.map(valueOf);
  };
  return Object.fromEntries(
    (Object.keys(ATTRIBUTES) as (keyof CustomerAttributes)[]).map((name) => [name, column(name)]),
  ) as unknown as CustomerAttributes;
}

/** Each snapshot's filter attributes, once something read them. */
const builtAttributes = new WeakMap<AccountSnapshot, CustomerAttributes>();

/**
 * `snapshot` with its filter attributes built on first use: only filters and a few reports read
 * them, and under a stream of writes most snapshots are replaced before any does.
 */
function withAttributes(
  snapshot: Omit<AccountSnapshot, 'attributes'>,
  build: () => CustomerAttributes,
): AccountSnapshot {
  const complete = snapshot as AccountSnapshot;
  // Dropped once used: a patch's holds the previous snapshot's attributes.
  let pending: (() => CustomerAttributes) | undefined = build;
  Object.defineProperty(complete, 'attributes', {
    enumerable: true,
    get() {
      let built = builtAttributes.get(complete);
      if (built === undefined) {
        built = pending!();
        pending = undefined;
        builtAttributes.set(complete, built);
      }
      return built;
    },
  });
  return complete;
}

export function buildAccountSnapshot(
  version: number,
  customers: readonly CustomerView[],
  readAt = 0,
): AccountSnapshot {
  return withAttributes(
    {
      version,
      readAt,
      customers,
      movements: buildSnapshot(customers),
      funnel: funnelColumns(customers),
      patchedFrom: [],
    },
    () => attributes(customers),
  );
}

/**
 * The snapshot of `version` from `previous` and a patch of its customers: equal to
 * `buildAccountSnapshot(version, patched.customers, readAt)`, but the movements, funnel days and
 * filter attributes of the customers that stayed are copied rather than laid out again
 * (docs/decisions.md, "Snapshots are patched").
 */
export function patchAccountSnapshot(
  previous: AccountSnapshot,
  version: number,
  { customers, changed, moves }: PatchedCustomers,
  readAt: number,
): AccountSnapshot {
  // Patched from the previous snapshot's attributes if they were built (held until this
  // snapshot's are), not from the previous snapshot itself, which this one would keep alive,
  // with its own predecessor, until read.
  const from = builtAttributes.get(previous);
  return withAttributes(
    {
      version,
      readAt,
      customers,
      movements: patchSnapshot(previous.movements, customers, moves),
      funnel: patchFunnel(previous.funnel, customers, moves),
      patchedFrom: [
        ...previous.patchedFrom.slice(Math.max(0, previous.patchedFrom.length - (PATCH_STEPS_KEPT - 1))),
        { customers: previous.customers, changed, moves },
      ],
    },
    () => attributes(customers, from && { previous: from, moves }),
  );
}

/**
 * How `snapshot`'s customers came from an earlier list of `customers`, when the snapshot
 * remembers patches back to it: every patch since composed into one, its changed customers
 * united (each once). Undefined when that list is not among them.
 */
export function movesSince(
  snapshot: AccountSnapshot,
  customers: readonly CustomerView[],
): { changed: readonly CustomerKey[]; moves: CustomerMoves } | undefined {
  const first = snapshot.patchedFrom.findIndex((step) => step.customers === customers);
  if (first < 0) return undefined;
  const steps = snapshot.patchedFrom.slice(first);
  if (steps.length === 1) return steps[0]!;
  const customerOf = Int32Array.from(steps[0]!.moves.customerOf);
  for (const step of steps.slice(1)) {
    for (let index = 0; index < customerOf.length; index++) {
      const at = customerOf[index]!;
      if (at >= 0) customerOf[index] = step.moves.customerOf[at]!;
    }
  }
  // Fresh: every customer of the snapshot no customer of the earlier list became.
  const reached = new Uint8Array(snapshot.customers.length);
  for (const at of customerOf) if (at >= 0) reached[at] = 1;
  const freshAt: number[] = [];
  reached.forEach((was, at) => {
    if (was === 0) freshAt.push(at);
  });
  const changed = new Map<string, CustomerKey>();
  for (const step of steps)
    for (const key of step.changed) changed.set(customerKey(key.dataSourceId, key.id), key);
  return { changed: [...changed.values()], moves: { customerOf, freshAt } };
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

/**
 * A number per customer of the snapshot, kept per customer list under `key` (what else the
 * number depends on). A snapshot patched from lists of which one holds the column under the
 * same key (the latest such) copies the kept customers' numbers and computes only those read
 * again since: a write pays for its own customers, not for every customer of the account.
 */
export function customerNumbers(
  cache: DerivedCache<readonly CustomerView[], Float64Array>,
  snapshot: AccountSnapshot,
  key: string,
  valueOf: (customer: CustomerView, index: number) => number,
): Float64Array {
  const { customers } = snapshot;
  return cache(customers, key, () => {
    const held = heldAlongPatches(snapshot, cache, key);
    return held
      ? patchedNumbers(held.value, customers.length, held.moves, (at) => valueOf(customers[at]!, at))
      : Float64Array.from(customers, valueOf);
  });
}

/**
 * The value `cache` holds under `key` for the latest customer list the snapshot was patched
 * from that has one, with the moves from that list to the snapshot's; undefined when none does.
 */
export function heldAlongPatches<Value>(
  snapshot: AccountSnapshot,
  cache: DerivedCache<readonly CustomerView[], Value>,
  key: string,
): { value: Value; moves: CustomerMoves } | undefined {
  const from = snapshot.patchedFrom.findLast((step) => cache.peek(step.customers, key) !== undefined);
  const since = from && movesSince(snapshot, from.customers);
  return since && { value: cache.peek(from.customers, key)!, moves: since.moves };
}

/**
 * At most four days per list (today, and a report's other days); with the base-currency column
 * and the eight lists a snapshot remembers, at most 64 columns of 800 KB at 100,000 customers.
 */
const mrrsCache = derivedCache<readonly CustomerView[], Float64Array>(4);

/**
 * Every customer's `mrrOn(day)` by snapshot index. Lists and status filters ask for today's on
 * every call; walking every customer's movements once per customer list and day is enough.
 */
export function mrrsOn(snapshot: AccountSnapshot, day: number): Float64Array {
  return customerNumbers(mrrsCache, snapshot, String(day), (customer) => mrrOn(customer, day));
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
 * every customer's movements, so only a status filter pays for it; without filters the
 * snapshot's attributes are not read, so a snapshot that only unfiltered reports read never
 * builds them.
 */
export function filteredCustomers(
  snapshot: AccountSnapshot,
  filters: readonly Filter[],
  day: number,
): Uint8Array | null {
  if (filters.length === 0) return null;
  const attributes = filters.some((filter) => filter.dimension === 'status')
    ? attributesOn(snapshot, day)
    : snapshot.attributes;
  return customerMask(attributes, filters, day);
}
