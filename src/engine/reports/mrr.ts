import type { RangeQuery } from '../range-query.js';
import { MOVEMENT_KINDS } from '../vocabulary.js';
import { allocate } from '../allocate.js';
import { dayString } from '../days.js';
import { derivedCache, objectId } from '../derived-cache.js';
import type { FxTable } from '../fx-table.js';
import { periodsBetween } from '../periods.js';
import { ratioOrZero } from '../ratio.js';
import { roundCents } from '../rounding.js';
import { type Snapshot } from '../snapshot.js';
import { ALREADY_MARKED, PeriodMarks } from './period-marks.js';

export interface MrrQuery extends RangeQuery {
  /** Movements after today count only when `committed` and scheduled by a subscription record. */
  committed: boolean;
  /**
   * Only movements of this subtype (an index into MOVEMENT_SUBTYPES) count, totals included:
   * the report of that subtype alone, one series of `breakdown=subtype`.
   */
  subtype?: number;
}

/** Whether movement `i` counts in a report of `query`: its customer, its day and its subtype. */
export function movementCounts(snapshot: Snapshot, query: MrrQuery): (i: number) => boolean {
  const { customers, subtype } = query;
  return (i) =>
    (customers === null || customers[snapshot.movementCustomer[i]!] === 1) &&
    (subtype === undefined || snapshot.movementSubtype[i] === subtype) &&
    (snapshot.movementDay[i]! <= query.today || (query.committed && snapshot.movementScheduled[i] === 1));
}

/**
 * Converts a movement's amount to the base currency as the MRR report does: at the rate of its
 * own day, or with fixFx at the rate of the range's last day.
 */
export function baseConverter(
  snapshot: Snapshot,
  query: Pick<MrrQuery, 'fixFx' | 'baseCurrency' | 'to'>,
  fx: FxTable,
): (currency: number, amount: number, day: number) => number {
  const rateOf = snapshot.currencies.map((currency) => fx.converter(currency, query.baseCurrency));
  const fixedRate = snapshot.currencies.map((currency) => fx.rate(currency, query.baseCurrency, query.to));
  return (currency, amount, day) =>
    query.fixFx ? amount * fixedRate[currency]! : rateOf[currency]!(amount, day);
}

export interface MrrRow {
  date: string;
  end_date: string;
  new: number;
  expansion: number;
  contraction: number;
  churn: number;
  reactivation: number;
  mrr_diff: number;
  net_mrr_diff: number;
  fx_adjustment: number;
  customers_diff: number;
  new_customers: number;
  expansion_customers: number;
  contraction_customers: number;
  churn_customers: number;
  reactivation_customers: number;
  total_mrr: number;
  total_arr: number;
  total_customers: number;
  /** 0 without subscribers, as asp without new customers and quick_ratio without losses (ratioOrZero). */
  arpa: number;
  asp: number;
  quick_ratio: number;
  /** Units of the counted customers' subscriptions on the period's last day, or today if that is earlier. */
  quantity: number;
}

const KIND_COUNT = MOVEMENT_KINDS.length;
const [NEW, EXPANSION, CONTRACTION, CHURN, REACTIVATION] = [0, 1, 2, 3, 4] as const;

/**
 * MRR per period with its movements, in the base currency (docs/metrics.md, "MRR report"). For every
 * period, total_mrr = previous total_mrr + the five movements + fx_adjustment, exactly, in
 * whole cents: movements convert at the rate of their own day, totals at the rate of the
 * period's last day, and fx_adjustment is what the rates moving added. With fixFx every
 * amount converts at one rate, so fx_adjustment is 0 and the rounded movements are allocated
 * to add up to the change of the rounded totals. After today only movements a subscription
 * record schedules count, and only in committed mode (docs/metrics.md, "Committed MRR").
 */
export function mrrReport(snapshot: Snapshot, query: MrrQuery, fx: FxTable): readonly Readonly<MrrRow>[] {
  const key = sharedQueryKey(query, fx);
  const make = () => frozenRows(computeMrrReport(snapshot, query, fx));
  return key === null ? make() : keptReports(snapshot, key, make);
}

const keptReports = derivedCache<Snapshot, readonly Readonly<MrrRow>[]>(8);

/**
 * The key under which a report of `query` is kept per snapshot, or null when it is not kept. The
 * MRR report, the subtypes report and the table with subtypes of one unfiltered query read the
 * same series (a dashboard asks them together), made once per snapshot. A filtered query is not
 * kept: its mask is made per request, so no other request would find it, and a breakdown's one
 * query per value would push the shared ones out.
 */
export function sharedQueryKey(query: MrrQuery, fx: FxTable): string | null {
  if (query.customers !== null || query.subtype !== undefined) return null;
  // Every field of the query, so that a field added to it cannot be left out of the key.
  const parts = {
    today: query.today,
    from: query.from,
    to: query.to,
    interval: query.interval,
    baseCurrency: query.baseCurrency,
    fixFx: query.fixFx,
    committed: query.committed,
    customers: 'all',
    subtype: 'any',
  } satisfies Record<keyof MrrQuery, unknown>;
  return `${Object.values(parts).join('|')}|${objectId(fx)}`;
}

/** Rows that several readers share, frozen so that none of them can change another's. */
export function frozenRows<Row extends object>(rows: Row[]): readonly Readonly<Row>[] {
  for (const row of rows) Object.freeze(row);
  return Object.freeze(rows);
}

function computeMrrReport(snapshot: Snapshot, query: MrrQuery, fx: FxTable): MrrRow[] {
  const { customers, fixFx } = query;
  const currencyCount = snapshot.currencies.length;
  const toBase = baseConverter(snapshot, query, fx);

  // Running state while walking the movements in day order.
  const mrrByCurrency = new Float64Array(currencyCount);
  let subscribers = 0;
  const totalOn = (day: number) => {
    let total = 0;
    for (let c = 0; c < currencyCount; c++)
      if (mrrByCurrency[c] !== 0) total += toBase(c, mrrByCurrency[c]!, day);
    return roundCents(total);
  };
  const apply = (i: number) => {
    mrrByCurrency[snapshot.customerCurrency[snapshot.movementCustomer[i]!]!]! += snapshot.movementAmount[i]!;
    const kind = snapshot.movementKind[i]!;
    if (kind === NEW || kind === REACTIVATION) subscribers += 1;
    else if (kind === CHURN) subscribers -= 1;
  };
  const counted = movementCounts(snapshot, query);

  let quantity = 0;
  let q = 0;
  const quantityUntil = (day: number) => {
    // Units belong to customers, not to movements: a subtype's report has none.
    if (query.subtype !== undefined) return 0;
    // Quantities after today are not plans a record schedules, so even committed mode stops at today.
    const last = Math.min(day, query.today);
    for (; q < snapshot.quantityCount && snapshot.quantityDay[q]! <= last; q++) {
      if (customers === null || customers[snapshot.quantityCustomer[q]!] === 1)
        quantity += snapshot.quantityDelta[q]!;
    }
    return quantity;
  };

  let i = 0;
  const count = snapshot.movementCount;
  for (; i < count && snapshot.movementDay[i]! < query.from; i++) if (counted(i)) apply(i);

  const periods = periodsBetween(query.from, query.to, query.interval);
  // Customer counts are of distinct customers.
  const marks = new PeriodMarks(snapshot.customerIds.length, KIND_COUNT);
  let previousTotal = totalOn(query.from - 1);
  let previousSubscribers = subscribers;

  return periods.map((period, index) => {
    const amounts = new Float64Array(KIND_COUNT);
    const customerCounts = new Int32Array(KIND_COUNT);
    for (; i < count && snapshot.movementDay[i]! <= period.end; i++) {
      if (!counted(i)) continue;
      const customer = snapshot.movementCustomer[i]!;
      const kind = snapshot.movementKind[i]!;
      amounts[kind]! += toBase(
        snapshot.customerCurrency[customer]!,
        snapshot.movementAmount[i]!,
        snapshot.movementDay[i]!,
      );
      if (marks.mark(customer, kind, index) !== ALREADY_MARKED) customerCounts[kind]! += 1;
      apply(i);
    }

    const total = totalOn(period.end);
    const mrrDiff = total - previousTotal;
    const kinds = fixFx ? allocate([...amounts], mrrDiff) : [...amounts].map(roundCents);
    const net = kinds.reduce((sum, amount) => sum + amount, 0);
    const row: MrrRow = {
      date: dayString(period.start),
      end_date: dayString(period.end),
      new: kinds[NEW]!,
      expansion: kinds[EXPANSION]!,
      contraction: kinds[CONTRACTION]!,
      churn: kinds[CHURN]!,
      reactivation: kinds[REACTIVATION]!,
      mrr_diff: mrrDiff,
      net_mrr_diff: net,
      fx_adjustment: mrrDiff - net,
      customers_diff: subscribers - previousSubscribers,
      new_customers: customerCounts[NEW]!,
      expansion_customers: customerCounts[EXPANSION]!,
      contraction_customers: customerCounts[CONTRACTION]!,
      churn_customers: customerCounts[CHURN]!,
      reactivation_customers: customerCounts[REACTIVATION]!,
      total_mrr: total,
      total_arr: total * 12,
      total_customers: subscribers,
      arpa: roundCents(ratioOrZero(total, subscribers)),
      asp: roundCents(ratioOrZero(kinds[NEW]!, customerCounts[NEW]!)),
      quick_ratio: ratioOrZero(
        kinds[NEW]! + kinds[EXPANSION]! + kinds[REACTIVATION]!,
        Math.abs(kinds[CONTRACTION]! + kinds[CHURN]!),
      ),
      quantity: quantityUntil(period.end),
    };
    previousTotal = total;
    previousSubscribers = subscribers;
    return row;
  });
}
