import { compareText } from '../compare-text.js';
import type { FxTable } from '../fx-table.js';
import type { InvoiceStatus } from '../types.js';
import type { CashflowInvoice } from './cashflow-data.js';

/** A missing due or payment day. */
export const NO_DAY = -0x80000000;

/** Bits of `transactionFlags`. */
export const REFUND = 1;
export const SUCCESSFUL = 2;

/** Strings a column repeats (currencies, statuses, payment methods) as small indexes. */
class Interner<T extends string> {
  readonly values: T[] = [];
  private readonly indexes = new Map<T, number>();

  indexOf(value: T): number {
    let index = this.indexes.get(value);
    if (index === undefined) {
      index = this.values.length;
      this.values.push(value);
      this.indexes.set(value, index);
    }
    return index;
  }
}

type NumberArray = Int32Array | Uint8Array | Uint16Array | Float64Array;

/**
 * A typed column filled one value at a time, doubling as it goes: its buffer lives outside the
 * garbage-collected heap, where a growing array of a million numbers would be copied there.
 */
class Column<A extends NumberArray> {
  private array: A;
  private length = 0;

  constructor(private readonly kind: { new (length: number): A }) {
    this.array = new kind(1024);
  }

  push(value: number): void {
    if (this.length === this.array.length) {
      const larger = new this.kind(this.length * 2);
      larger.set(this.array);
      this.array = larger;
    }
    this.array[this.length++] = value;
  }

  /** The values pushed, in an array of their own size. */
  values(): A {
    return this.array.slice(0, this.length) as A;
  }
}

// Above any count of positions a table holds, so that a day and a position pack into one
// exactly representable number (days stay within a few million of 0).
const POSITIONS = 2 ** 26;

/**
 * Positions 0..days.length-1, newest day first, then in the order `tie` gives within a day.
 * The days order by a native sort of packed numbers; only each day's few positions meet the
 * comparator, which compares strings.
 */
function newestFirst(days: Int32Array, tie: (a: number, b: number) => number): Int32Array {
  const keys = new Float64Array(days.length);
  for (let position = 0; position < days.length; position++) {
    keys[position] = -days[position]! * POSITIONS + position;
  }
  keys.sort();
  const order = Int32Array.from(keys, (key) => key - Math.floor(key / POSITIONS) * POSITIONS);
  for (let start = 0, end = 1; start < order.length; start = end, end = start + 1) {
    while (end < order.length && days[order[end]!] === days[order[start]!]) end++;
    if (end - start > 1) order.subarray(start, end).sort(tie);
  }
  return order;
}

/**
 * An account's invoices and transactions as columns, built once per snapshot version: the
 * cashflow reports scan typed arrays instead of an object per invoice and transaction, and
 * the orders and failure facts every call would otherwise recompute are kept with them.
 * Invoice `i`'s transactions are `transactionStart[i]` to `transactionStart[i + 1]` (excluded),
 * in time order; money is cents of the invoice's currency. Lines are not held: only the
 * invoices detail shows them, for one page, and the store reads those.
 */
export class CashflowTable {
  private readonly baseAmounts = new WeakMap<FxTable, Map<string, Float64Array>>();
  readonly transactionCount: number;
  /** Day descending, then invoice id, transaction id and table order: how detail lists show them. */
  readonly transactionsNewestFirst: Int32Array;
  /** Day descending, then invoice id and table order. */
  readonly invoicesNewestFirst: Int32Array;
  /**
   * Per invoice, its first failed payment attempt (-1 if none) and the first successful payment
   * after it (-1 if none). Days never decrease within an invoice, so the first failed attempt
   * by any day is this one when its day is on or before that day, and none otherwise.
   */
  readonly firstFailure: Int32Array;
  readonly recovery: Int32Array;
  /** The open invoices with a due date, in table order: the only ones that can be past due. */
  readonly openAndDue: Int32Array;
  /** The invoices with a failed attempt, newest first failure first, then invoice id and table order. */
  readonly failingNewestFirst: Int32Array;

  constructor(
    readonly invoiceCount: number,
    readonly invoiceId: readonly string[],
    readonly invoiceNumber: readonly (string | null)[],
    readonly invoiceDescription: readonly (string | null)[],
    /** Index of the invoice's customer in the account snapshot. */
    readonly invoiceCustomer: Int32Array,
    readonly invoiceDay: Int32Array,
    /** NO_DAY when none. */
    readonly dueDay: Int32Array,
    readonly paymentDay: Int32Array,
    readonly invoiceStatus: Uint8Array,
    readonly statuses: readonly InvoiceStatus[],
    readonly invoiceTotal: Float64Array,
    readonly invoiceCurrency: Uint16Array,
    readonly currencies: readonly string[],
    readonly transactionStart: Int32Array,
    readonly transactionDay: Int32Array,
    /** REFUND and SUCCESSFUL bits; a transaction without REFUND is a payment. */
    readonly transactionFlags: Uint8Array,
    readonly transactionAmount: Float64Array,
    readonly transactionInvoice: Int32Array,
    readonly transactionId: readonly string[],
    /** Index in `paymentMethods`, -1 when none. */
    readonly transactionMethod: Int32Array,
    readonly paymentMethods: readonly string[],
  ) {
    this.transactionCount = transactionDay.length;
    this.transactionsNewestFirst = newestFirst(
      transactionDay,
      (a, b) =>
        compareText(invoiceId[transactionInvoice[a]!]!, invoiceId[transactionInvoice[b]!]!) ||
        compareText(transactionId[a]!, transactionId[b]!) ||
        a - b,
    );
    this.invoicesNewestFirst = newestFirst(
      invoiceDay,
      (a, b) => compareText(invoiceId[a]!, invoiceId[b]!) || a - b,
    );
    this.firstFailure = new Int32Array(invoiceCount).fill(-1);
    this.recovery = new Int32Array(invoiceCount).fill(-1);
    const failing: number[] = [];
    for (let invoice = 0; invoice < invoiceCount; invoice++) {
      for (let t = transactionStart[invoice]!; t < transactionStart[invoice + 1]!; t++) {
        const flags = transactionFlags[t]!;
        if ((flags & REFUND) !== 0) continue;
        if (this.firstFailure[invoice] === -1) {
          if ((flags & SUCCESSFUL) === 0) {
            this.firstFailure[invoice] = t;
            failing.push(invoice);
          }
        } else if ((flags & SUCCESSFUL) !== 0) {
          this.recovery[invoice] = t;
          break;
        }
      }
    }
    const open = statuses.indexOf('open');
    this.openAndDue = Int32Array.from({ length: invoiceCount }, (_, invoice) => invoice).filter(
      (invoice) => invoiceStatus[invoice] === open && dueDay[invoice] !== NO_DAY,
    );
    this.failingNewestFirst = Int32Array.from(failing).sort(
      (a, b) => this.failureDay(b) - this.failureDay(a) || compareText(invoiceId[a]!, invoiceId[b]!) || a - b,
    );
  }

  /** The day of an invoice's first failed attempt; only for an invoice that has one. */
  failureDay(invoice: number): number {
    return this.transactionDay[this.firstFailure[invoice]!]!;
  }

  isPayment(transaction: number): boolean {
    return (this.transactionFlags[transaction]! & REFUND) === 0;
  }

  isSuccessful(transaction: number): boolean {
    return (this.transactionFlags[transaction]! & SUCCESSFUL) !== 0;
  }

  currencyOf(invoice: number): string {
    return this.currencies[this.invoiceCurrency[invoice]!]!;
  }

  /**
   * Every transaction's amount in `baseCurrency` at the rate of its own day, unrounded, by the
   * same conversion as `FxTable.convert`. Computed once per rate table and base currency: the
   * reports without fix_fx all read these.
   */
  amountsIn(fx: FxTable, baseCurrency: string): Float64Array {
    let byCurrency = this.baseAmounts.get(fx);
    if (byCurrency === undefined) {
      byCurrency = new Map();
      this.baseAmounts.set(fx, byCurrency);
    }
    let amounts = byCurrency.get(baseCurrency);
    if (amounts === undefined) {
      const converters = this.currencies.map((currency) => fx.converter(currency, baseCurrency));
      amounts = new Float64Array(this.transactionCount);
      for (let t = 0; t < this.transactionCount; t++) {
        const invoice = this.transactionInvoice[t]!;
        amounts[t] = converters[this.invoiceCurrency[invoice]!]!(
          this.transactionAmount[t]!,
          this.transactionDay[t]!,
        );
      }
      byCurrency.set(baseCurrency, amounts);
    }
    return amounts;
  }
}

/** The first position of a newest-first order whose day is on or before `day` (binary search). */
export function firstAtOrBefore(order: Int32Array, dayOf: (index: number) => number, day: number): number {
  let low = 0;
  let high = order.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (dayOf(order[middle]!) > day) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Builds the table from invoices (transactions in time order) read one at a time, so no list
 * of them needs to be kept.
 */
export function buildCashflowTable(invoices: Iterable<CashflowInvoice>): CashflowTable {
  const ids: string[] = [];
  const numbers: (string | null)[] = [];
  const descriptions: (string | null)[] = [];
  const customers = new Column(Int32Array);
  const days = new Column(Int32Array);
  const dueDays = new Column(Int32Array);
  const paymentDays = new Column(Int32Array);
  const statusCodes = new Column(Uint8Array);
  const totals = new Column(Float64Array);
  const currencyCodes = new Column(Uint16Array);
  const starts = new Column(Int32Array);
  const transactionDays = new Column(Int32Array);
  const flags = new Column(Uint8Array);
  const amounts = new Column(Float64Array);
  const owners = new Column(Int32Array);
  const transactionIds: string[] = [];
  const methods = new Column(Int32Array);
  const statuses = new Interner<InvoiceStatus>();
  const currencies = new Interner<string>();
  const paymentMethods = new Interner<string>();
  starts.push(0);
  for (const invoice of invoices) {
    const index = ids.length;
    ids.push(invoice.id);
    numbers.push(invoice.number);
    descriptions.push(invoice.description);
    customers.push(invoice.customer);
    days.push(invoice.day);
    dueDays.push(invoice.dueDay ?? NO_DAY);
    paymentDays.push(invoice.paymentDay ?? NO_DAY);
    statusCodes.push(statuses.indexOf(invoice.status));
    totals.push(invoice.total);
    currencyCodes.push(currencies.indexOf(invoice.currency));
    for (const transaction of invoice.transactions) {
      transactionDays.push(transaction.day);
      flags.push((transaction.type === 'refund' ? REFUND : 0) | (transaction.successful ? SUCCESSFUL : 0));
      amounts.push(transaction.amount);
      owners.push(index);
      transactionIds.push(transaction.id);
      methods.push(
        transaction.paymentMethod === null ? -1 : paymentMethods.indexOf(transaction.paymentMethod),
      );
    }
    starts.push(transactionIds.length);
  }
  return new CashflowTable(
    ids.length,
    ids,
    numbers,
    descriptions,
    customers.values(),
    days.values(),
    dueDays.values(),
    paymentDays.values(),
    statusCodes.values(),
    statuses.values,
    totals.values(),
    currencyCodes.values(),
    currencies.values,
    starts.values(),
    transactionDays.values(),
    flags.values(),
    amounts.values(),
    owners.values(),
    transactionIds,
    methods.values(),
    paymentMethods.values,
  );
}
