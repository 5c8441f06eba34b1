import { type AccountSnapshot, customerKey, type CustomerView } from '../engine/account-snapshot.js';
import type { CashflowInvoice, CashflowLine } from '../engine/cashflow/cashflow-data.js';
import {
  type CashflowTable,
  CashflowTableBuilder,
  patchCashflowTable,
} from '../engine/cashflow/cashflow-table.js';
import { dayNumber, dayString } from '../engine/days.js';
import type { CashflowInvoiceRow } from '../store/cashflow-repo.js';
import type { Store } from '../store/open-store.js';
import { keyString, type RecordKey } from '../store/records-repo.js';
import { changedSince } from './snapshot-changes.js';

const dayOrNull = (text: string | null) => (text === null ? null : dayNumber(text.slice(0, 10)));

function toCashflowInvoice(row: CashflowInvoiceRow, customer: number): CashflowInvoice {
  return {
    id: row.id,
    number: row.number,
    description: row.description,
    customer,
    currency: row.currency,
    day: dayNumber(row.date),
    dueDay: dayOrNull(row.due_date),
    paymentDay: dayOrNull(row.payment_date),
    status: row.status,
    total: row.amount,
    // Stored instants are UTC ISO strings, so text order is time order; sort keeps ties stable.
    transactions: [...row.transactions]
      .sort((a, b) => a.date.localeCompare(b.date))
      .map((transaction) => ({
        id: transaction.id,
        day: dayNumber(transaction.date.slice(0, 10)),
        type: transaction.type,
        successful: transaction.result === 'successful',
        amount: transaction.amount,
        paymentMethod: transaction.payment_method,
      })),
  };
}

/** The rows whose customer the snapshot holds, as that customer's invoices. */
function* cashflowInvoices(
  rows: readonly CashflowInvoiceRow[],
  indexes: ReadonlyMap<string, number>,
): Generator<CashflowInvoice> {
  for (const row of rows) {
    const index = indexes.get(customerKey(row.data_source, row.customer_id));
    if (index !== undefined) yield toCashflowInvoice(row, index);
  }
}

/** Invoices read per page while a table is built: bounds the rows held at once. */
const PAGE = 20_000;

/** Each customer's `customerKey`, by snapshot index. */
function customerKeys(snapshot: AccountSnapshot): string[] {
  return snapshot.customers.map((customer) => customerKey(customer.dataSourceId, customer.id));
}

/**
 * A table of only the snapshot's invoices that failed a payment and have a transaction on or
 * after `from` (a day number): enough for revenue-event detection, which looks back a few weeks,
 * without reading the account's every invoice as the cashflow reports' table does.
 */
export async function failingInvoicesTable(
  store: Store,
  accountId: string,
  snapshot: AccountSnapshot,
  from: number,
): Promise<CashflowTable> {
  const indexes = new Map(customerKeys(snapshot).map((key, index) => [key, index]));
  const builder = new CashflowTableBuilder();
  const rows = await store.cashflow.failingInvoicesSince(accountId, dayString(from));
  for (const invoice of cashflowInvoices(rows, indexes)) builder.add(invoice);
  return builder.finish();
}

interface Built {
  version: number;
  readAt: number;
  /** The customers the table's indexes name (not the snapshot: it would outlive its version). */
  keys: readonly string[];
  table: Promise<CashflowTable>;
  /** Whether `table` has been read. */
  ready: boolean;
}

/**
 * Each account's invoices as the cashflow engine's table, tied to the snapshot's customer
 * indexes and kept until the snapshot's data version moves. An invoice written after the
 * snapshot was built, for a customer it does not hold yet, waits for the next version. Calls
 * that arrive while a version's table is being built wait for that build: a dashboard asks for
 * several cashflow reports at once, and each build reads every invoice of the account. A newer
 * snapshot's table is patched from the cached one, like the snapshots themselves, however many
 * versions passed meanwhile: the invoices of the customers re-derived since its version are read
 * again, the others copied (docs/decisions.md, "Snapshots are patched").
 */
export function createCashflowTables(store: Store) {
  const cache = new Map<string, Built>();

  async function build(accountId: string, keys: readonly string[]): Promise<CashflowTable> {
    const indexes = new Map(keys.map((key, index) => [key, index]));
    const builder = new CashflowTableBuilder();
    for await (const rows of store.cashflow.invoicePages(accountId, PAGE))
      for (const invoice of cashflowInvoices(rows, indexes)) builder.add(invoice);
    return builder.finish();
  }

  /**
   * The previous table patched, or undefined when a customer it kept is not in the snapshot.
   * Read again: the customers re-derived since its version, and any of the snapshot's that it
   * lacks though none was recorded (a snapshot read whole holds customers written after its
   * refresh, not yet derived).
   */
  async function patched(
    accountId: string,
    previous: { keys: readonly string[]; table: CashflowTable },
    snapshot: { customers: readonly CustomerView[]; keys: readonly string[] },
    changed: readonly RecordKey[],
  ): Promise<CashflowTable | undefined> {
    const indexes = new Map(snapshot.keys.map((key, index) => [key, index]));
    const reread = new Set(changed.map((key) => customerKey(key.dataSourceId, key.id)));
    const customerOf = new Int32Array(previous.keys.length);
    for (const [index, key] of previous.keys.entries()) {
      const next = reread.has(key) ? -1 : indexes.get(key);
      if (next === undefined) return undefined;
      customerOf[index] = next;
    }
    const kept = new Set(previous.keys);
    const unrecorded = snapshot.customers.filter((_, index) => {
      const key = snapshot.keys[index]!;
      return !kept.has(key) && !reread.has(key);
    });
    const fresh = await store.cashflow.invoicesOfCustomers(accountId, [
      ...changed,
      ...unrecorded.map((customer) => ({ dataSourceId: customer.dataSourceId, id: customer.id })),
    ]);
    return patchCashflowTable(previous.table, customerOf, [...cashflowInvoices(fresh, indexes)]);
  }

  /** The table of the snapshot: patched from the cached one when few customers changed since, else read whole. */
  async function tableFor(
    accountId: string,
    snapshot: AccountSnapshot,
    keys: readonly string[],
    cached?: Built,
  ) {
    // Whether a patch will do before waiting for the previous table: when it will not (an
    // import), this read starts at once rather than after one that may still take seconds.
    const changed =
      cached &&
      (await changedSince(
        store,
        accountId,
        { version: cached.version, readAt: cached.readAt, customers: cached.keys.length },
        Date.now(),
      ));
    const table = changed && (await cached.table.catch(() => undefined));
    const patchedTable =
      table &&
      (await patched(
        accountId,
        { keys: cached.keys, table },
        { customers: snapshot.customers, keys },
        changed,
      ));
    return patchedTable ?? build(accountId, keys);
  }

  function cashflowTable(accountId: string, snapshot: AccountSnapshot): Promise<CashflowTable> {
    const cached = cache.get(accountId);
    if (cached && cached.version === snapshot.version) return cached.table;
    const keys = customerKeys(snapshot);
    const table = tableFor(accountId, snapshot, keys, cached);
    // A reader of an older snapshot (answered while a newer one was built) leaves the newer table cached.
    if (cached && snapshot.version < cached.version) return table;
    const entry: Built = { version: snapshot.version, readAt: snapshot.readAt, keys, table, ready: false };
    cache.set(accountId, entry);
    table.then(
      () => {
        entry.ready = true;
      },
      // A failed read is not kept: the next call tries again, patching the previous table if it was read.
      () => {
        if (cache.get(accountId) !== entry) return;
        cache.delete(accountId);
        cached?.table.then(
          () => {
            if (!cache.has(accountId)) cache.set(accountId, cached);
          },
          () => undefined,
        );
      },
    );
    return table;
  }

  return Object.assign(cashflowTable, {
    /**
     * The table of a snapshot built ahead of its readers, when the account's table was read
     * already (its cashflow reports are read): its next reader then finds it patched.
     */
    async ahead(accountId: string, snapshot: AccountSnapshot): Promise<void> {
      if (cache.get(accountId)?.ready) await cashflowTable(accountId, snapshot);
    },

    /**
     * Whether the table of this snapshot's version is read and held: asking costs nothing more.
     * One still being read (for a snapshot a report took during an import, say) may take as
     * long as a newer snapshot's.
     */
    holds(accountId: string, version: number): boolean {
      const held = cache.get(accountId);
      return held !== undefined && held.version === version && held.ready;
    },
  });
}

/** The lines of the given invoices, in the order of the keys (none for an invoice since deleted). */
export async function invoiceLines(
  store: Store,
  accountId: string,
  keys: readonly RecordKey[],
): Promise<CashflowLine[][]> {
  const rows = await store.cashflow.lines(accountId, keys);
  const byKey = new Map(
    rows.map((row) => [
      keyString({ dataSourceId: row.data_source, id: row.id }),
      row.lines.map((line) => ({
        description: line.description,
        amount: line.amount,
        quantity: line.quantity,
        periodStart: line.period_start,
        periodEnd: line.period_end,
      })),
    ]),
  );
  return keys.map((key) => byKey.get(keyString(key)) ?? []);
}

export type CashflowTables = ReturnType<typeof createCashflowTables>;
