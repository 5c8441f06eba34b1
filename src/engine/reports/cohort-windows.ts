import { type AccountSnapshot, type CustomerView, heldAlongPatches, mrrOn } from '../account-snapshot.js';
import { allocate } from '../allocate.js';
import { derivedCache } from '../derived-cache.js';
import type { FxTable } from '../fx-table.js';
import { partitionPoint } from '../orders.js';
import { shiftMonths } from '../periods.js';
import { roundCents } from '../rounding.js';
import { patchedNumbers } from '../snapshot.js';
import type { MovementKind } from '../types.js';
import { MOVEMENT_KINDS } from '../vocabulary.js';
import { ALREADY_MARKED, FIRST_IN_PERIOD, PeriodMarks } from './period-marks.js';

/** The customers paying at the end of `baseline`, followed to the end of `target`. */
export interface CohortWindow {
  baseline: number;
  target: number;
}

/** What the customers of one group who paid on a window's baseline day did by its target day. */
export interface CohortFigures {
  /** Whole cents of the base currency. */
  baselineMrr: number;
  targetMrr: number;
  /** The target MRR with each customer capped at its baseline MRR. */
  grrMrr: number;
  /** Customers paying on the baseline day, and those of them still paying on the target day. */
  customers: number;
  retained: number;
  /** The cohort's movements inside the window, by kind in MOVEMENT_KINDS order, whole cents. */
  movements: number[];
  /** Distinct cohort customers with a movement of each kind inside the window. */
  movers: number[];
  /** targetMrr - baselineMrr - the movements: what exchange rates moving added. */
  fxAdjustment: number;
}

export interface CohortQuery {
  /** Movements after today have not happened yet and never count. */
  today: number;
  baseCurrency: string;
  /** Convert everything at this day's rate; null converts each amount at the rate of its own day. */
  fixedRateDay: number | null;
  /** Each customer's group by snapshot index, or -1 to leave it out. */
  groupOf: Int32Array;
  groupCount: number;
}

const KINDS = MOVEMENT_KINDS.length;

/** How a movement of each kind changes the number of paying customers: a cohort's size. */
const JOINS: Record<MovementKind, number> = {
  new: 1,
  expansion: 0,
  contraction: 0,
  churn: -1,
  reactivation: 1,
};
/** `JOINS` by index into MOVEMENT_KINDS, for the snapshot's kind column. */
const JOINS_BY_KIND = Int8Array.from(MOVEMENT_KINDS, (kind) => JOINS[kind]);

/** The last day of the window of `months` months that ends on `target`: Jan 31 for Feb 28 and one month. */
export function baselineOf(target: number, months: number): number {
  return shiftMonths(target + 1, -months) - 1;
}

/** Each customer's state on a day, by snapshot index. */
interface CohortStart {
  /** MRR in its own currency. */
  mrr: Float64Array;
  /** How many times it had joined the paying customers: new and reactivation movements less churns. */
  members: Int32Array;
}

/**
 * Up to four days per customer list: a dashboard's map and retention ask two. With the nine
 * lists a snapshot reaches (its own and the eight it remembers), at most 36 starts of 1.2 MB at
 * 100,000 customers; those on lists a later one also holds are no longer patched from.
 */
const cohortStarts = derivedCache<readonly CustomerView[], CohortStart>(4);

/** A customer's `members` on `day`, counted from its movements. */
function membersOn(customer: CustomerView, day: number): number {
  let count = 0;
  for (const movement of customer.movements) {
    if (movement.day > day) break;
    count += JOINS[movement.kind];
  }
  return count;
}

/**
 * Every customer's state on `day`, kept per customer list: patched from the latest list that
 * holds it with the customers read again since, so that after a write a cohort report walks
 * their history only; else swept from the first movement, as the windows below carry it on.
 */
function cohortStart(snapshot: AccountSnapshot, day: number): CohortStart {
  const key = String(day);
  return cohortStarts(snapshot.customers, key, () => {
    const { customers } = snapshot;
    const held = heldAlongPatches(snapshot, cohortStarts, key);
    if (held) {
      const patched = <Column extends Float64Array | Int32Array>(
        column: Column,
        valueOf: (customer: CustomerView, day: number) => number,
      ) => patchedNumbers(column, customers.length, held.moves, (at) => valueOf(customers[at]!, day));
      return { mrr: patched(held.value.mrr, mrrOn), members: patched(held.value.members, membersOn) };
    }
    const { movementDay, movementCustomer, movementKind, movementAmount, movementCount } = snapshot.movements;
    const mrr = new Float64Array(customers.length);
    const members = new Int32Array(customers.length);
    for (let i = 0; i < movementCount && movementDay[i]! <= day; i++) {
      const customer = movementCustomer[i]!;
      mrr[customer]! += movementAmount[i]!;
      members[customer]! += JOINS_BY_KIND[movementKind[i]!]!;
    }
    return { mrr, members };
  });
}

/**
 * Cohort figures per window and group ([window][group]). Windows come in target order with
 * baselines that never go back, so from the state on the first baseline (`cohortStart`) one
 * sweep carries every customer's MRR from baseline to baseline and each window only reads its
 * own movements. Baselines convert at the rate of the baseline day, targets at the rate of the
 * target day and movements at the rate of their own day, unless a fixed rate day is given; then
 * the rounded movements are allocated to add up to the change of the rounded totals, and the FX
 * adjustment is 0.
 */
export function cohortFigures(
  account: AccountSnapshot,
  windows: readonly CohortWindow[],
  query: CohortQuery,
  fx: FxTable,
): CohortFigures[][] {
  if (windows.length === 0) return [];
  const { movements: snapshot } = account;
  const { groupOf, groupCount } = query;
  const { movementDay, movementCustomer, movementKind, movementAmount, customerCurrency } = snapshot;
  const customerCount = snapshot.customerIds.length;
  const currencyCount = snapshot.currencies.length;
  const converters = snapshot.currencies.map((currency) => fx.converter(currency, query.baseCurrency));
  const toBase = (currency: number, amount: number, day: number) =>
    converters[currency]!(amount, query.fixedRateDay ?? day);
  const last = snapshot.movementCount;
  // Movements after today have not happened, and customers in no group never count.
  const counted = (i: number) => movementDay[i]! <= query.today && groupOf[movementCustomer[i]!]! >= 0;

  // Each customer's MRR on the latest baseline, and per group and currency the MRR and the
  // number of the customers paying then: the cohort. Up to the first baseline, from the columns
  // kept per snapshot; the sweep carries them on from there.
  const firstBaseline = windows[0]!.baseline;
  const start = cohortStart(account, Math.min(firstBaseline, query.today));
  // Per customer, side by side (one memory read for both: movements come in random order of
  // customers): its MRR on the latest baseline, and its change inside the current window.
  const state = new Float64Array(customerCount * 2);
  const mrrAt = (customer: number) => customer * 2;
  const changeAt = (customer: number) => customer * 2 + 1;
  const cohortMrr = new Float64Array(groupCount * currencyCount);
  const cohortSize = new Int32Array(groupCount);
  for (let customer = 0; customer < customerCount; customer++) {
    const group = groupOf[customer]!;
    if (group < 0) continue;
    state[mrrAt(customer)] = start.mrr[customer]!;
    cohortMrr[group * currencyCount + customerCurrency[customer]!]! += start.mrr[customer]!;
    cohortSize[group]! += start.members[customer]!;
  }
  // The kinds each customer was seen with in the current window, so that each list and count
  // takes a customer once.
  const seen = new PeriodMarks(customerCount, KINDS);

  const targetDivisor = new Float64Array(currencyCount);
  const targetMultiplier = new Float64Array(currencyCount);
  const baselineDivisor = new Float64Array(currencyCount);
  const baselineMultiplier = new Float64Array(currencyCount);

  let next = partitionPoint(0, last, (i) => movementDay[i]! <= firstBaseline);
  // A movement inside several windows converts the same way in each: once is enough. Kept for
  // the movements from the first baseline to the last target alone (a range of a year is a
  // fraction of an account's history), NaN until converted.
  const spanStart = next;
  const lastTarget = windows[windows.length - 1]!.target;
  const converted = new Float64Array(
    partitionPoint(spanStart, last, (i) => movementDay[i]! <= lastTarget) - spanStart,
  ).fill(Number.NaN);
  const baseAmount = (i: number) => {
    let amount = converted[i - spanStart]!;
    if (Number.isNaN(amount)) {
      amount = toBase(customerCurrency[movementCustomer[i]!]!, movementAmount[i]!, movementDay[i]!);
      converted[i - spanStart] = amount;
    }
    return amount;
  };
  return windows.map((window, index) => {
    for (; next < last && movementDay[next]! <= window.baseline; next++) {
      if (!counted(next)) continue;
      const customer = movementCustomer[next]!;
      const group = groupOf[customer]!;
      const amount = movementAmount[next]!;
      state[mrrAt(customer)]! += amount;
      cohortMrr[group * currencyCount + customerCurrency[customer]!]! += amount;
      cohortSize[group]! += JOINS_BY_KIND[movementKind[next]!]!;
    }

    const amounts = new Float64Array(groupCount * KINDS);
    const movers = new Int32Array(groupCount * KINDS);
    const touched: number[] = [];
    for (let i = next; i < last && movementDay[i]! <= window.target; i++) {
      const customer = movementCustomer[i]!;
      // Only the cohort counts: customers who joined or came back after the baseline do not.
      if (!counted(i) || state[mrrAt(customer)]! <= 0) continue;
      const kind = movementKind[i]!;
      const slot = groupOf[customer]! * KINDS + kind;
      amounts[slot]! += baseAmount(i);
      const marked = seen.mark(customer, kind, index);
      if (marked !== ALREADY_MARKED) movers[slot]! += 1;
      if (marked === FIRST_IN_PERIOD) touched.push(customer);
      state[changeAt(customer)]! += movementAmount[i]!;
    }

    // Every currency's rate on the window's two days, looked up once: many customers convert at them.
    for (let currency = 0; currency < currencyCount; currency++) {
      const code = snapshot.currencies[currency]!;
      const onTarget = fx.factors(code, query.baseCurrency, query.fixedRateDay ?? window.target);
      const onBaseline = fx.factors(code, query.baseCurrency, query.fixedRateDay ?? window.baseline);
      targetDivisor[currency] = onTarget.divisor;
      targetMultiplier[currency] = onTarget.multiplier;
      baselineDivisor[currency] = onBaseline.divisor;
      baselineMultiplier[currency] = onBaseline.multiplier;
    }
    const atTarget = (currency: number, amount: number) =>
      (amount / targetDivisor[currency]!) * targetMultiplier[currency]!;
    const atBaseline = (currency: number, amount: number) =>
      (amount / baselineDivisor[currency]!) * baselineMultiplier[currency]!;
    // A customer's capped target is min(target, baseline), each at its own day's rate. For the
    // customers without movements that is their baseline MRR times the lower of the two rates,
    // which adds up per currency; the customers who moved correct it one by one.
    const capped = (currency: number, target: number, baseline: number) =>
      Math.min(atTarget(currency, target), atBaseline(currency, baseline));
    const changed = new Float64Array(groupCount * currencyCount);
    const cappedCorrection = new Float64Array(groupCount);
    const lost = new Int32Array(groupCount);
    for (const customer of touched) {
      const group = groupOf[customer]!;
      const currency = customerCurrency[customer]!;
      const before = state[mrrAt(customer)]!;
      const change = state[changeAt(customer)]!;
      const after = before + change;
      changed[group * currencyCount + currency]! += change;
      // capped(after, before) - capped(before, before), converting the baseline once.
      const beforeAtBaseline = atBaseline(currency, before);
      cappedCorrection[group]! +=
        Math.min(atTarget(currency, after), beforeAtBaseline) -
        Math.min(atTarget(currency, before), beforeAtBaseline);
      if (after <= 0) lost[group]! += 1;
      state[changeAt(customer)] = 0;
    }

    return Array.from({ length: groupCount }, (_, group): CohortFigures => {
      let baseline = 0;
      let target = 0;
      let grr = cappedCorrection[group]!;
      for (let currency = 0; currency < currencyCount; currency++) {
        const held = cohortMrr[group * currencyCount + currency]!;
        if (held === 0) continue;
        baseline += atBaseline(currency, held);
        target += atTarget(currency, held + changed[group * currencyCount + currency]!);
        grr += capped(currency, held, held);
      }
      const baselineMrr = roundCents(baseline);
      const targetMrr = roundCents(target);
      const kinds = [...amounts.subarray(group * KINDS, (group + 1) * KINDS)];
      const movements =
        query.fixedRateDay === null ? kinds.map(roundCents) : allocate(kinds, targetMrr - baselineMrr);
      return {
        baselineMrr,
        targetMrr,
        // Capped customer by customer, it is never above either; min() only absorbs float noise.
        grrMrr: Math.min(roundCents(grr), baselineMrr, targetMrr),
        customers: cohortSize[group]!,
        retained: cohortSize[group]! - lost[group]!,
        movements,
        movers: [...movers.subarray(group * KINDS, (group + 1) * KINDS)],
        fxAdjustment: targetMrr - baselineMrr - movements.reduce((sum, amount) => sum + amount, 0),
      };
    });
  });
}

export const RATES = ['nrr', 'grr', 'customerRetention', 'customerChurn', 'mrrChurn', 'netMrrChurn'] as const;
export type Rates = Record<(typeof RATES)[number], number | null>;

/**
 * A cohort's rates as fractions, unrounded: NRR = target / baseline MRR, GRR = capped target /
 * baseline MRR, customer retention and churn = retained and lost / cohort customers, MRR churn =
 * 1 - GRR, net MRR churn = 1 - NRR. Null when there is nothing to divide by.
 */
export function cohortRates(figures: CohortFigures): Rates {
  const ofBaseline = (mrr: number) => (figures.baselineMrr === 0 ? null : mrr / figures.baselineMrr);
  const ofCohort = (customers: number) => (figures.customers === 0 ? null : customers / figures.customers);
  return {
    nrr: ofBaseline(figures.targetMrr),
    grr: ofBaseline(figures.grrMrr),
    customerRetention: ofCohort(figures.retained),
    customerChurn: ofCohort(figures.customers - figures.retained),
    mrrChurn: ofBaseline(figures.baselineMrr - figures.grrMrr),
    netMrrChurn: ofBaseline(figures.baselineMrr - figures.targetMrr),
  };
}
