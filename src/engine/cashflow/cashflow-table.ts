import type { FxTable } from '../fx-table.js';
import type { InvoiceStatus } from '../types.js';
import type { CashflowInvoice } from './cashflow-data.js';
import { mergeOrders, patchedOrder, remapOrder } from '../orders.js';
import { Column, extendedColumn, TextColumn, type TextList } from './columns.js';

/**
 * Tables a patch carries a base currency's amounts through without a report reading them: under a
 * stream of writes most tables go unread, and a currency asked once is not converted forever.
 */
const CARRIED_UNREAD = 8;

/** A missing due or payment day. */
export const NO_DAY = -0x80000000;

/**
 * `invoiceCustomer` of an invoice a patch left in place though its customer was read again
 * (its current invoices were added to the table): no order holds it and no report counts it.
 */
export const NO_CUSTOMER = -1;

/** Bits of `transactionFlags`. */
export const REFUND = 1;
export const SUCCESSFUL = 2;

/** Strings a column repeats (currencies, statuses, payment methods) as small indexes. */
class Interner<T extends string> {
  readonly values: T[] = [];
  private readonly indexes = new Map<T, number>();

  /** Starts with `values` at their indexes, so codes copied from a table keep their meaning. */
  constructor(values: readonly T[] = []) {
    for (const value of values) this.indexOf(value);
  }

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

// Above any count of positions a table holds, so that a day and a position pack into one
// exactly representable number (days stay within a few million of 0).
const POSITIONS = 2 ** 26;

/** Whether `order[start..end)` already is in the order `compare` gives. */
function inOrder(order: Int32Array, start: number, end: number, compare: (a: number, b: number) => number) {
  for (let index = start + 1; index < end; index++)
    if (compare(order[index - 1]!, order[index]!) > 0) return false;
  return true;
}

/**
 * Positions 0..days.length-1, newest day first, then in the order `tie` gives within a day.
 * The days order by a native sort of packed numbers, which leaves each day's positions in
 * table order. A table the store read by key is mostly in tie order already (one data source,
 * ids in code-unit order; an invoice's transactions of one day come by time, not id): a day's
 * positions are checked, one comparison each, and sorted (the comparator over the ids'
 * character codes, on a copy in the heap) only where they are not.
 */
function newestFirst(days: Int32Array, tie: (a: number, b: number) => number): Int32Array {
  const keys = new Float64Array(days.length);
  for (let position = 0; position < days.length; position++) {
    keys[position] = -days[position]! * POSITIONS + position;
  }
  keys.sort();
  const order = new Int32Array(days.length);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    order[index] = key - Math.floor(key / POSITIONS) * POSITIONS;
  }
  for (let start = 0, end = 1; start < order.length; start = end, end = start + 1) {
    while (end < order.length && days[order[end]!] === days[order[start]!]) end++;
    if (end - start > 1 && !inOrder(order, start, end, tie)) order.subarray(start, end).sort(tie);
  }
  return order;
}

/** Positions `from` to `to` (excluded), in order. */
function range(from: number, to: number): Int32Array {
  return Int32Array.from({ length: to - from }, (_, offset) => from + offset);
}

/** Positions `from` to `to` (excluded) sorted by `compare`. */
function sortedRange(from: number, to: number, compare: (x: number, y: number) => number): Int32Array {
  return range(from, to).sort(compare);
}

/**
 * How a table was patched from a previous one: the previous table's invoices that were copied
 * come first, in their order, followed by the changed customers' invoices. Either every invoice
 * kept its position (`dropped`: those of them left in place without a customer, which had one),
 * or each kept one went to `invoiceOf[old]` (-1 for those left out).
 */
export type TablePatch = {
  previous: CashflowTable;
  keptInvoices: number;
  keptTransactions: number;
} & ({ dropped: readonly number[] } | { invoiceOf: Int32Array });

const byPosition = (a: number, b: number) => a - b;

/**
 * An account's invoices and transactions as columns, built once per snapshot version: the
 * cashflow reports scan typed arrays instead of an object per invoice and transaction, and
 * the orders and failure facts every call would otherwise recompute are kept with them.
 * Invoice `i`'s transactions are `transactionStart[i]` to `transactionStart[i + 1]` (excluded),
 * in time order; money is cents of the invoice's currency. Lines are not held: only the
 * invoices detail shows them, for one page, and the store reads those.
 */
export class CashflowTable {
  /**
   * The base amounts (`amountsIn`) for the latest rate table asked with, by base currency, each
   * with the number of tables since one read it: a reload of the rates replaces them, and a patch
   * carries those read lately to the next table.
   */
  private baseAmounts: {
    fx: FxTable;
    byCurrency: Map<string, { amounts: Float64Array; unread: number }>;
  } | null = null;
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
    readonly invoiceId: TextList,
    readonly invoiceNumber: TextList,
    readonly invoiceDescription: TextList,
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
    readonly transactionId: TextList,
    /** Index in `paymentMethods`, -1 when none. */
    readonly transactionMethod: Int32Array,
    readonly paymentMethods: readonly string[],
    patch?: TablePatch,
  ) {
    this.transactionCount = transactionDay.length;
    // A patch in place extends the previous table's facts: its invoices kept their positions.
    const extended = patch !== undefined && 'dropped' in patch ? patch.previous : null;
    const added = invoiceCount - (extended?.invoiceCount ?? 0);
    this.firstFailure = extendedColumn(Int32Array, extended?.firstFailure ?? null, added, -1);
    this.recovery = extendedColumn(Int32Array, extended?.recovery ?? null, added, -1);
    if (patch) {
      const indexes = this.patchedIndexes(patch);
      this.transactionsNewestFirst = indexes.transactions;
      this.invoicesNewestFirst = indexes.invoices;
      this.openAndDue = indexes.openAndDue;
      this.failingNewestFirst = indexes.failing;
      this.carryBaseAmounts(patch, indexes.transactionOf);
      return;
    }
    this.transactionsNewestFirst = newestFirst(transactionDay, this.transactionTie);
    this.invoicesNewestFirst = newestFirst(invoiceDay, this.invoiceTie);
    this.openAndDue = this.openAndDueIn(0, invoiceCount);
    this.failingNewestFirst = Int32Array.from(this.scanFailures(0, invoiceCount)).sort(this.compareFailing);
  }

  private readonly transactionTie = (a: number, b: number) =>
    this.invoiceId.compare(this.transactionInvoice[a]!, this.transactionInvoice[b]!) ||
    this.transactionId.compare(a, b) ||
    a - b;

  private readonly invoiceTie = (a: number, b: number) => this.invoiceId.compare(a, b) || a - b;

  private readonly compareFailing = (a: number, b: number) =>
    this.failureDay(b) - this.failureDay(a) || this.invoiceTie(a, b);

  /**
   * Sets the first failure and the recovery of invoices `from` to `to` (excluded); returns
   * those with a failed attempt.
   */
  private scanFailures(from: number, to: number): number[] {
    const failing: number[] = [];
    for (let invoice = from; invoice < to; invoice++) {
      for (let t = this.transactionStart[invoice]!; t < this.transactionStart[invoice + 1]!; t++) {
        const flags = this.transactionFlags[t]!;
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
    return failing;
  }

  /** The open invoices with a due date among `from` to `to` (excluded). */
  private openAndDueIn(from: number, to: number): Int32Array {
    const open = this.statuses.indexOf('open');
    return range(from, to).filter(
      (invoice) => this.invoiceStatus[invoice] === open && this.dueDay[invoice] !== NO_DAY,
    );
  }

  /**
   * The orders and failure facts of a patched table from the previous table's: the kept
   * positions keep their order among themselves (cut out of the previous orders, or renumbered
   * when the kept invoices moved), the added invoices and transactions sorted alone and merged
   * in. At most linear in the table, where sorting it again is not.
   */
  private patchedIndexes(patch: TablePatch) {
    const { keptInvoices, keptTransactions } = patch;
    const byTransactionDay = (a: number, b: number) =>
      this.transactionDay[b]! - this.transactionDay[a]! || this.transactionTie(a, b);
    const byInvoiceDay = (a: number, b: number) =>
      this.invoiceDay[b]! - this.invoiceDay[a]! || this.invoiceTie(a, b);
    const added = {
      transactions: sortedRange(keptTransactions, this.transactionCount, byTransactionDay),
      invoices: sortedRange(keptInvoices, this.invoiceCount, byInvoiceDay),
      open: this.openAndDueIn(keptInvoices, this.invoiceCount),
      failing: Int32Array.from(this.scanFailures(keptInvoices, this.invoiceCount)).sort(this.compareFailing),
    };
    if ('dropped' in patch)
      return this.patchedInPlace(patch.previous, patch.dropped, added, byTransactionDay, byInvoiceDay);
    const moved = this.keptMoved(patch.previous, patch.invoiceOf);
    return {
      transactions: mergeOrders(moved.transactions, added.transactions, byTransactionDay),
      invoices: mergeOrders(moved.invoices, added.invoices, byInvoiceDay),
      openAndDue: mergeOrders(moved.open, added.open, byPosition),
      failing: mergeOrders(moved.failing, added.failing, this.compareFailing),
      transactionOf: moved.transactionOf,
    };
  }

  /**
   * The orders of a patch in place: every invoice and transaction copied kept its position, so
   * the previous orders hold the same positions, less those of the invoices it left without a
   * customer. Those are few (a write's customers), and found in each order by binary search: the
   * orders compare the same here as in the previous table, whose values these are.
   */
  private patchedInPlace(
    previous: CashflowTable,
    dropped: readonly number[],
    added: { transactions: Int32Array; invoices: Int32Array; open: Int32Array; failing: Int32Array },
    byTransactionDay: (a: number, b: number) => number,
    byInvoiceDay: (a: number, b: number) => number,
  ) {
    const droppedTransactions = dropped.flatMap((invoice) =>
      Array.from(range(previous.transactionStart[invoice]!, previous.transactionStart[invoice + 1]!)),
    );
    const droppedFailing = dropped.filter((invoice) => previous.firstFailure[invoice]! >= 0);
    return {
      transactions: patchedOrder(
        previous.transactionsNewestFirst,
        droppedTransactions,
        added.transactions,
        byTransactionDay,
      ),
      invoices: patchedOrder(previous.invoicesNewestFirst, dropped, added.invoices, byInvoiceDay),
      openAndDue: patchedOrder(previous.openAndDue, dropped, added.open, byPosition),
      failing: patchedOrder(previous.failingNewestFirst, droppedFailing, added.failing, this.compareFailing),
      // Every transaction kept its position.
      transactionOf: null,
    };
  }

  /** A patch that left invoices out: the kept ones moved, and every order is renumbered. */
  private keptMoved(previous: CashflowTable, invoiceOf: Int32Array) {
    // Where each of the previous table's transactions went (-1: left out), as its invoice did.
    const transactionOf = new Int32Array(previous.transactionCount).fill(-1);
    for (let old = 0; old < previous.invoiceCount; old++) {
      const invoice = invoiceOf[old]!;
      if (invoice < 0) continue;
      const shift = this.transactionStart[invoice]! - previous.transactionStart[old]!;
      for (let t = previous.transactionStart[old]!; t < previous.transactionStart[old + 1]!; t++)
        transactionOf[t] = t + shift;
      const first = previous.firstFailure[old]!;
      const recovery = previous.recovery[old]!;
      this.firstFailure[invoice] = first < 0 ? -1 : first + shift;
      this.recovery[invoice] = recovery < 0 ? -1 : recovery + shift;
    }
    return {
      transactions: remapOrder(previous.transactionsNewestFirst, transactionOf),
      invoices: remapOrder(previous.invoicesNewestFirst, invoiceOf),
      open: remapOrder(previous.openAndDue, invoiceOf),
      failing: remapOrder(previous.failingNewestFirst, invoiceOf),
      transactionOf,
    };
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
   * same conversion as `FxTable.convert`. Computed once per table and base currency, or carried
   * over by a patch, for the latest rate table: the reports without fix_fx all read these.
   */
  amountsIn(fx: FxTable, baseCurrency: string): Float64Array {
    if (this.baseAmounts?.fx !== fx) this.baseAmounts = { fx, byCurrency: new Map() };
    let kept = this.baseAmounts.byCurrency.get(baseCurrency);
    if (kept === undefined) {
      kept = { amounts: extendedColumn(Float64Array, null, this.transactionCount, 0), unread: 0 };
      this.convertFrom(0, kept.amounts, fx, baseCurrency);
      this.baseAmounts.byCurrency.set(baseCurrency, kept);
    }
    kept.unread = 0;
    return kept.amounts;
  }

  /** Converts the amounts of the transactions from `first` on into `amounts`. */
  private convertFrom(first: number, amounts: Float64Array, fx: FxTable, baseCurrency: string): void {
    const converters = this.currencies.map((currency) => fx.converter(currency, baseCurrency));
    for (let t = first; t < this.transactionCount; t++) {
      const invoice = this.transactionInvoice[t]!;
      amounts[t] = converters[this.invoiceCurrency[invoice]!]!(
        this.transactionAmount[t]!,
        this.transactionDay[t]!,
      );
    }
  }

  /**
   * The previous table's base amounts, patched: a kept transaction's amount is copied to where it
   * went (`transactionOf`), or its column extended in place when every one kept its position
   * (null), and only the added ones, which follow the kept ones, are converted. A write then
   * converts its own transactions, not the million of the account. A base currency no table read
   * for CARRIED_UNREAD tables is left behind, and so is everything when the previous table's rates
   * cannot convert an added currency (rates reloaded since): `amountsIn` converts them whole if
   * asked.
   */
  private carryBaseAmounts(
    { previous, keptTransactions }: TablePatch,
    transactionOf: Int32Array | null,
  ): void {
    if (previous.baseAmounts === null) return;
    const { fx, byCurrency } = previous.baseAmounts;
    if (!this.currencies.every((currency) => fx.has(currency))) return;
    const carried = [...byCurrency].filter(([, { unread }]) => unread < CARRIED_UNREAD);
    if (carried.length === 0) return;
    this.baseAmounts = { fx, byCurrency: new Map() };
    for (const [baseCurrency, { amounts: previousAmounts, unread }] of carried) {
      const addedCount = this.transactionCount - keptTransactions;
      const amounts = extendedColumn(
        Float64Array,
        transactionOf === null ? previousAmounts : null,
        transactionOf === null ? addedCount : this.transactionCount,
        0,
      );
      if (transactionOf !== null)
        for (let t = 0; t < transactionOf.length; t++) {
          const at = transactionOf[t]!;
          if (at >= 0) amounts[at] = previousAmounts[t]!;
        }
      this.convertFrom(keptTransactions, amounts, fx, baseCurrency);
      this.baseAmounts.byCurrency.set(baseCurrency, { amounts, unread: unread + 1 });
    }
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

/** How many invoices and transactions a table will hold. */
export interface TableSize {
  invoices: number;
  transactions: number;
}

/**
 * Fills a table from invoices (transactions in time order) added one at a time, so no list of
 * them needs to be kept: the service adds each page of rows as the store reads it.
 */
export class CashflowTableBuilder {
  private readonly ids: TextColumn;
  private readonly numbers: TextColumn;
  private readonly descriptions: TextColumn;
  private readonly transactionIds: TextColumn;
  private readonly customers: Column<Int32Array>;
  private readonly days: Column<Int32Array>;
  private readonly dueDays: Column<Int32Array>;
  private readonly paymentDays: Column<Int32Array>;
  private readonly statusCodes: Column<Uint8Array>;
  private readonly totals: Column<Float64Array>;
  private readonly currencyCodes: Column<Uint16Array>;
  private readonly starts: Column<Int32Array>;
  private readonly transactionDays: Column<Int32Array>;
  private readonly flags: Column<Uint8Array>;
  private readonly amounts: Column<Float64Array>;
  private readonly owners: Column<Int32Array>;
  private readonly methods: Column<Int32Array>;
  private readonly statuses: Interner<InvoiceStatus>;
  private readonly currencies: Interner<string>;
  private readonly paymentMethods: Interner<string>;

  /**
   * `like`: a table to be patched, whose status, currency and method codes copied invoices
   * keep; the columns start with its size plus that of the invoices to be `added` to it, plus
   * the invoices and transactions `expected` from a read. A column that ends within its slack
   * of that size is kept as it is when finished; one grown by doubling is copied to its size,
   * and at a million invoices the doubled buffers and their copies held twice the table for a
   * moment. A column extending `like`'s in place grows as `Column` says, by its room rather
   * than to that size. A whole read's text columns, whose characters nobody counts ahead, still
   * grow and are copied (about 26 MB at a million invoices).
   */
  constructor(
    like?: CashflowTable,
    added: readonly CashflowInvoice[] = [],
    expected: TableSize = { invoices: 0, transactions: 0 },
  ) {
    const addedTransactions = added.reduce((sum, invoice) => sum + invoice.transactions.length, 0);
    const invoices = (like?.invoiceCount ?? 0) + added.length + expected.invoices + 1024;
    const transactions = (like?.transactionCount ?? 0) + addedTransactions + expected.transactions + 1024;
    this.ids = new TextColumn(invoices);
    this.numbers = new TextColumn(invoices);
    this.descriptions = new TextColumn(invoices);
    this.transactionIds = new TextColumn(transactions);
    this.customers = new Column(Int32Array, invoices);
    this.days = new Column(Int32Array, invoices);
    this.dueDays = new Column(Int32Array, invoices);
    this.paymentDays = new Column(Int32Array, invoices);
    this.statusCodes = new Column(Uint8Array, invoices);
    this.totals = new Column(Float64Array, invoices);
    this.currencyCodes = new Column(Uint16Array, invoices);
    this.starts = new Column(Int32Array, invoices + 1);
    this.transactionDays = new Column(Int32Array, transactions);
    this.flags = new Column(Uint8Array, transactions);
    this.amounts = new Column(Float64Array, transactions);
    this.owners = new Column(Int32Array, transactions);
    this.methods = new Column(Int32Array, transactions);
    this.statuses = new Interner(like?.statuses);
    this.currencies = new Interner(like?.currencies);
    this.paymentMethods = new Interner(like?.paymentMethods);
  }

  add(invoice: CashflowInvoice): void {
    this.startInvoice(
      invoice.id,
      invoice.number,
      invoice.description,
      invoice.customer,
      invoice.day,
      invoice.dueDay,
      invoice.paymentDay,
      invoice.status,
      invoice.total,
      invoice.currency,
    );
    for (const transaction of invoice.transactions) {
      this.addTransaction(
        transaction.id,
        transaction.day,
        transaction.type === 'refund',
        transaction.successful,
        transaction.amount,
        transaction.paymentMethod,
      );
    }
  }

  /**
   * Copies the invoices of `table` whose customer `customerOf` maps to an index (not -1), as
   * that customer's, in runs of whole columns; the builder must have `table`'s codes. Returns
   * where each of `table`'s invoices went (-1: left out).
   */
  copyKept(table: CashflowTable, customerOf: Int32Array): Int32Array {
    const invoiceOf = new Int32Array(table.invoiceCount).fill(-1);
    const kept = (invoice: number) => {
      const customer = table.invoiceCustomer[invoice]!;
      return customer >= 0 && customerOf[customer]! >= 0;
    };
    for (let start = 0; start < table.invoiceCount;) {
      if (!kept(start)) {
        start++;
        continue;
      }
      let end = start + 1;
      while (end < table.invoiceCount && kept(end)) end++;
      this.copyRun(table, start, end, customerOf, { invoiceOf });
      start = end;
    }
    return invoiceOf;
  }

  /**
   * Copies every invoice of `table` to the same position, as one run: those whose customer
   * `customerOf` maps to -1 (or that had none) stay as invoices of no customer, which no order
   * of the table and no report reads. Returns those that had a customer.
   */
  copyAll(table: CashflowTable, customerOf: Int32Array): number[] {
    const dropped: number[] = [];
    this.copyRun(table, 0, table.invoiceCount, customerOf, { dropped });
    return dropped;
  }

  /**
   * Copies invoices `start` to `end` (excluded) of `table` and their transactions, each as the
   * customer `customerOf` maps its own to; says where each went (`invoiceOf`, -1 when it has no
   * customer now) or, for a run copied to where it was, lists those that lost theirs (`dropped`).
   */
  private copyRun(
    table: CashflowTable,
    start: number,
    end: number,
    customerOf: Int32Array,
    into: { invoiceOf: Int32Array } | { dropped: number[] },
  ): void {
    const firstInvoice = this.ids.length;
    const firstTransaction = this.transactionIds.length;
    const from = table.transactionStart[start]!;
    const to = table.transactionStart[end]!;
    // A run copied to where it was (a patch in place) keeps its transaction starts and owners.
    const unmoved = firstInvoice === start && firstTransaction === from;
    const invoiceOf = 'invoiceOf' in into ? into.invoiceOf : null;
    const dropped = 'dropped' in into ? into.dropped : null;
    for (let invoice = start; invoice < end; invoice++) {
      const customer = table.invoiceCustomer[invoice]!;
      const next = customer < 0 ? NO_CUSTOMER : customerOf[customer]!;
      if (invoiceOf !== null) invoiceOf[invoice] = next < 0 ? -1 : firstInvoice + invoice - start;
      else if (dropped !== null && next < 0 && customer >= 0) dropped.push(invoice);
      this.customers.push(next);
      if (!unmoved) this.starts.push(table.transactionStart[invoice]! - from + firstTransaction);
    }
    if (unmoved) this.starts.pushRange(table.transactionStart, start, end);
    this.ids.pushRange(table.invoiceId, start, end);
    this.numbers.pushRange(table.invoiceNumber, start, end);
    this.descriptions.pushRange(table.invoiceDescription, start, end);
    this.days.pushRange(table.invoiceDay, start, end);
    this.dueDays.pushRange(table.dueDay, start, end);
    this.paymentDays.pushRange(table.paymentDay, start, end);
    this.statusCodes.pushRange(table.invoiceStatus, start, end);
    this.totals.pushRange(table.invoiceTotal, start, end);
    this.currencyCodes.pushRange(table.invoiceCurrency, start, end);
    if (unmoved) this.owners.pushRange(table.transactionInvoice, from, to);
    else
      for (let t = from; t < to; t++) this.owners.push(table.transactionInvoice[t]! - start + firstInvoice);
    this.transactionIds.pushRange(table.transactionId, from, to);
    this.transactionDays.pushRange(table.transactionDay, from, to);
    this.flags.pushRange(table.transactionFlags, from, to);
    this.amounts.pushRange(table.transactionAmount, from, to);
    this.methods.pushRange(table.transactionMethod, from, to);
  }

  /** Adds an invoice; the transactions added after it, in time order, are its own. */
  startInvoice(
    id: string,
    number: string | null,
    description: string | null,
    customer: number,
    day: number,
    dueDay: number | null,
    paymentDay: number | null,
    status: InvoiceStatus,
    total: number,
    currency: string,
  ): void {
    this.starts.push(this.transactionIds.length);
    this.ids.push(id);
    this.numbers.push(number);
    this.descriptions.push(description);
    this.customers.push(customer);
    this.days.push(day);
    this.dueDays.push(dueDay ?? NO_DAY);
    this.paymentDays.push(paymentDay ?? NO_DAY);
    this.statusCodes.push(this.statuses.indexOf(status));
    this.totals.push(total);
    this.currencyCodes.push(this.currencies.indexOf(currency));
  }

  /** Adds a transaction of the invoice started last. */
  addTransaction(
    id: string,
    day: number,
    refund: boolean,
    successful: boolean,
    amount: number,
    paymentMethod: string | null,
  ): void {
    this.transactionDays.push(day);
    this.flags.push((refund ? REFUND : 0) | (successful ? SUCCESSFUL : 0));
    this.amounts.push(amount);
    this.owners.push(this.ids.length - 1);
    this.transactionIds.push(id);
    this.methods.push(paymentMethod === null ? -1 : this.paymentMethods.indexOf(paymentMethod));
  }

  /** The table; after `copyKept` or `copyAll` and the changed customers' invoices, say how it was patched. */
  finish(patch?: TablePatch): CashflowTable {
    this.starts.push(this.transactionIds.length);
    return new CashflowTable(
      this.ids.length,
      this.ids.values(),
      this.numbers.values(),
      this.descriptions.values(),
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
      this.transactionIds.values(),
      this.methods.values(),
      this.paymentMethods.values,
      patch,
    );
  }

  get invoiceCount(): number {
    return this.ids.length;
  }

  get transactionCount(): number {
    return this.transactionIds.length;
  }
}

/**
 * The share of a patched table's invoices that may belong to no customer before a patch leaves
 * them out rather than in place.
 */
const NO_CUSTOMER_SHARE = 0.2;

/** How many of `previous`'s invoices have no customer after `customerOf` maps them. */
function invoicesOfNoCustomer(previous: CashflowTable, customerOf: Int32Array): number {
  let count = 0;
  for (let invoice = 0; invoice < previous.invoiceCount; invoice++) {
    const customer = previous.invoiceCustomer[invoice]!;
    if (customer < 0 || customerOf[customer]! < 0) count++;
  }
  return count;
}

/**
 * `previous` with the invoices of the customers `customerOf` maps to -1 dropped, the others
 * renumbered to their customer's new index, and `fresh` (the changed customers' invoices)
 * added (docs/decisions.md, "Snapshots are patched"). The dropped invoices stay in place as
 * invoices of no customer, so every column, numbers and strings alike, is extended in place
 * (or copied whole when another table extended it first) while they are few; once they pass a fifth of the table, they are left out, and the kept
 * invoices copied by runs. Either way every order and report sees the table a full build of the
 * kept invoices, then the fresh ones, would give.
 */
export function patchCashflowTable(
  previous: CashflowTable,
  customerOf: Int32Array,
  fresh: readonly CashflowInvoice[],
): CashflowTable {
  const builder = new CashflowTableBuilder(previous, fresh);
  const inPlace =
    invoicesOfNoCustomer(previous, customerOf) <= NO_CUSTOMER_SHARE * (previous.invoiceCount + fresh.length);
  const copied = inPlace
    ? { dropped: builder.copyAll(previous, customerOf) }
    : { invoiceOf: builder.copyKept(previous, customerOf) };
  const keptInvoices = builder.invoiceCount;
  const keptTransactions = builder.transactionCount;
  for (const invoice of fresh) builder.add(invoice);
  return builder.finish({ previous, keptInvoices, keptTransactions, ...copied });
}

export function buildCashflowTable(invoices: Iterable<CashflowInvoice>): CashflowTable {
  const builder = new CashflowTableBuilder();
  for (const invoice of invoices) builder.add(invoice);
  return builder.finish();
}
