import { type AccountSnapshot, type CustomerView, mrrOn } from './account-snapshot.js';
import { type CashflowTable, NO_CUSTOMER } from './cashflow/cashflow-table.js';
import { dayNumber, dayString } from './days.js';
import type { FxTable } from './fx-table.js';
import { listMovements, type ListedMovement } from './reports/movement-list.js';
import { knownSince } from './reports/scheduled.js';
import type { RevenueEvent, RevenueEventKind } from './revenue-event.js';
import { roundCents } from './rounding.js';
import { type MovementKind, OPEN_END } from './types.js';

/** A detected event and the data source its customer comes from, which the flood rule reads. */
export interface DetectedEvent {
  event: RevenueEvent;
  dataSourceId: string;
}

export interface DetectionQuery {
  accountId: string;
  baseCurrency: string;
  today: number;
  /** Events before this day are not looked at: they could never be published. */
  from: number;
}

const MOVEMENT_EVENTS: Record<MovementKind, RevenueEventKind> = {
  new: 'new_customer',
  expansion: 'expansion',
  contraction: 'contraction',
  churn: 'churn',
  reactivation: 'reactivation',
};

function customerOf(customer: CustomerView): RevenueEvent['customer'] {
  return { id: customer.id, name: customer.name, email: customer.email };
}

/**
 * The key of an event: its kind, the customer's record key and what makes it unique for the
 * customer (a movement's day, an invoice's id). Recomputing the customer gives the same keys.
 */
function eventKey(kind: RevenueEventKind, customer: CustomerView, what: string): string {
  return `${kind}:${customer.dataSourceId}:${customer.id}:${what}`;
}

/** Cents of the customer's currency in the base currency on `day`, rounded as the reports round. */
function inBase(fx: FxTable, query: DetectionQuery, customer: CustomerView, cents: number, day: number) {
  return roundCents(fx.convert(cents, customer.currency, query.baseCurrency, day));
}

function movementEvent(
  snapshot: AccountSnapshot,
  movement: ListedMovement,
  query: DetectionQuery,
  fx: FxTable,
): DetectedEvent | null {
  const customer = snapshot.customers[movement.customerIndex]!;
  const base = (kind: RevenueEventKind, occurredOn: number, mrr: number): DetectedEvent => ({
    dataSourceId: customer.dataSourceId,
    event: {
      key: eventKey(kind, customer, dayString(movement.day)),
      kind,
      accountId: query.accountId,
      customer: customerOf(customer),
      occurredAt: dayString(occurredOn),
      amount: movement.amountBase,
      mrr,
      currency: query.baseCurrency,
    },
  });
  if (movement.day <= query.today) {
    const mrr = inBase(fx, query, customer, movement.after, movement.day);
    return base(MOVEMENT_EVENTS[movement.kind], movement.day, mrr);
  }
  // Of the future, only a cancellation a subscription record plans is news now: it is told on
  // the day it was asked for (or today, when the record does not say), with the MRR it leaves.
  if (movement.kind !== 'churn' || !movement.scheduled) return null;
  return base('scheduled_churn', knownSince(movement.knownDay, query.today), 0);
}

/** MRR movements from `from` to today, and the scheduled cancellations still to come. */
export function movementEvents(
  snapshot: AccountSnapshot,
  query: DetectionQuery,
  fx: FxTable,
): DetectedEvent[] {
  const listed = listMovements(
    snapshot,
    {
      from: query.from,
      to: OPEN_END,
      baseCurrency: query.baseCurrency,
      fixedRateDay: null,
      customers: null,
      kinds: null,
      today: query.today,
      committed: true,
    },
    fx,
  );
  return listed.flatMap((movement) => movementEvent(snapshot, movement, query, fx) ?? []);
}

/**
 * Per invoice, its first failed payment attempt and the first successful payment after it (its
 * recovery, docs/metrics.md "Cashflow"), each dated by its transaction's day within
 * `[from, today]`: later retries that fail again are the same failure, not new events.
 */
export function paymentEvents(
  snapshot: AccountSnapshot,
  cashflow: CashflowTable,
  query: DetectionQuery,
  fx: FxTable,
): DetectedEvent[] {
  const found: DetectedEvent[] = [];
  const add = (kind: RevenueEventKind, invoice: number, transaction: number) => {
    const day = cashflow.transactionDay[transaction]!;
    if (day < query.from || day > query.today) return;
    const customer = snapshot.customers[cashflow.invoiceCustomer[invoice]!]!;
    const amount = cashflow.transactionAmount[transaction]!;
    found.push({
      dataSourceId: customer.dataSourceId,
      event: {
        key: eventKey(kind, customer, cashflow.invoiceId.at(invoice)!),
        kind,
        accountId: query.accountId,
        customer: customerOf(customer),
        occurredAt: dayString(day),
        amount: roundCents(fx.convert(amount, cashflow.currencyOf(invoice), query.baseCurrency, day)),
        mrr: inBase(fx, query, customer, mrrOn(customer, day), day),
        currency: query.baseCurrency,
      },
    });
  };
  for (let invoice = 0; invoice < cashflow.invoiceCount; invoice++) {
    const failure = cashflow.firstFailure[invoice]!;
    // A table built whole has no invoice of no customer; a patched one may.
    if (failure < 0 || cashflow.invoiceCustomer[invoice] === NO_CUSTOMER) continue;
    add('failed_payment', invoice, failure);
    const recovery = cashflow.recovery[invoice]!;
    if (recovery >= 0) add('payment_recovered', invoice, recovery);
  }
  return found;
}

export function detectRevenueEvents(
  snapshot: AccountSnapshot,
  cashflow: CashflowTable,
  query: DetectionQuery,
  fx: FxTable,
): DetectedEvent[] {
  return [...movementEvents(snapshot, query, fx), ...paymentEvents(snapshot, cashflow, query, fx)];
}

export interface PublishRule {
  today: number;
  /** Events this many days before today, or more, are history. */
  maxAgeDays: number;
  /** Per data source, the day notifications first watched it (YYYY-MM-DD). */
  watchedSince: ReadonlyMap<string, string>;
}

/**
 * Whether a newly detected event is news to tell, or history to record silently: it must fall
 * after the day its data source was first watched (that day's data is the source's import) and
 * be less than `maxAgeDays` old.
 */
export function isNews(detected: DetectedEvent, rule: PublishRule): boolean {
  const day = dayNumber(detected.event.occurredAt);
  const since = rule.watchedSince.get(detected.dataSourceId);
  if (since === undefined || day <= dayNumber(since)) return false;
  return day > rule.today - rule.maxAgeDays;
}
