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
 * Fills a table from invoices (transactions in time order) added one at a time, so no list of
 * them needs to be kept: the service adds each page of rows as the store reads it.
 */
export class CashflowTableBuilder {
  private readonly ids: string[] = [];
  private readonly numbers: (string | null)[] = [];
  private readonly descriptions: (string | null)[] = [];
  private readonly customers = new Column(Int32Array);
  private readonly days = new Column(Int32Array);
  private readonly dueDays = new Column(Int32Array);
  private readonly paymentDays = new Column(Int32Array);
  private readonly statusCodes = new Column(Uint8Array);
  private readonly totals = new Column(Float64Array);
  private readonly currencyCodes = new Column(Uint16Array);
  private readonly starts = new Column(Int32Array);
  private readonly transactionDays = new Column(Int32Array);
  private readonly flags = new Column(Uint8Array);
  private readonly amounts = new Column(Float64Array);
  private readonly owners = new Column(Int32Array);
  private readonly transactionIds: string[] = [];
  private readonly methods = new Column(Int32Array);
  private readonly statuses = new Interner<InvoiceStatus>();
  private readonly currencies = new Interner<string>();
  private readonly paymentMethods = new Interner<string>();

  constructor() {
    this.starts.push(0);
  }

  add(invoice: CashflowInvoice): void {
    const index = this.pushInvoice(
      invoice.id,
      invoice.number,
      invoice.description,
      invoice.customer,
      invoice.day,
      invoice.dueDay ?? NO_DAY,
      invoice.paymentDay ?? NO_DAY,
      invoice.status,
      invoice.total,
      invoice.currency,
    );
    for (const transaction of invoice.transactions) {
      this.pushTransaction(
        index,
        transaction.id,
        transaction.day,
        (transaction.type === 'refund' ? REFUND : 0) | (transaction.successful ? SUCCESSFUL : 0),
        transaction.amount,
        transaction.paymentMethod,
      );
    }
    this.starts.push(this.transactionIds.length);
  }

  /**
   * Adds invoice `invoice` of another table as the invoice of `customer`: a table patched after
   * a write copies the invoices of the customers that did not change, without reading them.
   */
  copy(table: CashflowTable, invoice: number, customer: number): void {
    const index = this.pushInvoice(
      table.invoiceId[invoice]!,
      table.invoiceNumber[invoice]!,
      table.invoiceDescription[invoice]!,
      customer,
      table.invoiceDay[invoice]!,
      table.dueDay[invoice]!,
      table.paymentDay[invoice]!,
      table.statuses[table.invoiceStatus[invoice]!]!,
      table.invoiceTotal[invoice]!,
      table.currencies[table.invoiceCurrency[invoice]!]!,
    );
    for (let t = table.transactionStart[invoice]!; t < table.transactionStart[invoice + 1]!; t++) {
      const method = table.transactionMethod[t]!;
      this.pushTransaction(
        index,
        table.transactionId[t]!,
        table.transactionDay[t]!,
        table.transactionFlags[t]!,
        table.transactionAmount[t]!,
        method === -1 ? null : table.paymentMethods[method]!,
      );
    }
    this.starts.push(this.transactionIds.length);
  }

  private pushInvoice(
    id: string,
    number: string | null,
    description: string | null,
    customer: number,
    day: number,
    dueDay: number,
    paymentDay: number,
    status: InvoiceStatus,
    total: number,
    currency: string,
  ): number {
    const index = this.ids.length;
    this.ids.push(id);
    this.numbers.push(number);
    this.descriptions.push(description);
    this.customers.push(customer);
    this.days.push(day);
    this.dueDays.push(dueDay);
    this.paymentDays.push(paymentDay);
    this.statusCodes.push(this.statuses.indexOf(status));
    this.totals.push(total);
    this.currencyCodes.push(this.currencies.indexOf(currency));
    return index;
  }

  private pushTransaction(
    invoice: number,
    id: string,
    day: number,
    flags: number,
    amount: number,
    paymentMethod: string | null,
  ): void {
    this.transactionDays.push(day);
    this.flags.push(flags);
    this.amounts.push(amount);
    this.owners.push(invoice);
    this.transactionIds.push(id);
    this.methods.push(paymentMethod === null ? -1 : this.paymentMethods.indexOf(paymentMethod));
  }

  finish(): CashflowTable {
    return new CashflowTable(
      this.ids.length,
      this.ids,
      this.numbers,
      this.descriptions,
      this.customers.values(),
      this.days.values(),
      this.dueDays.values(),
      this.paymentDays.values(),
      this.statusCodes.values(),
      this.statuses.values,
      this.totals.values(),
      this.currencyCodes.values(),
      this.currencies.values,
      this.starts.values(),
      this.transactionDays.values(),
      this.flags.values(),
      this.amounts.values(),
      this.owners.values(),
      this.transactionIds,
      this.methods.values(),
      this.paymentMethods.values,
    );
  }
}

export function buildCashflowTable(invoices: Iterable<CashflowInvoice>): CashflowTable {
  const builder = new CashflowTableBuilder();
  for (const invoice of invoices) builder.add(invoice);
  return builder.finish();
}
