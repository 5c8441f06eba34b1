import {
  type AccountSnapshot,
  customerKey,
  type CustomerView,
  movesSince,
} from '../engine/account-snapshot.js';
import type { CashflowInvoice, CashflowLine, CashflowTransaction } from '../engine/cashflow/cashflow-data.js';
import {
  type CashflowTable,
  CashflowTableBuilder,
  patchCashflowTable,
} from '../engine/cashflow/cashflow-table.js';
import { dayString } from '../engine/days.js';
import { type CashflowInvoiceRow, type InvoiceVisitor, visitInvoiceRows } from '../store/cashflow-repo.js';
import type { Store } from '../store/open-store.js';
import { keyString, type RecordKey } from '../store/records-repo.js';
import { changedSince, mostPatched } from './snapshot-changes.js';

/** A customer's index in the snapshot, or undefined for one it does not hold. */
type CustomerIndex = (dataSource: string, customerId: string) => number | undefined;

/** The snapshot's customers by data source and then id: no key string made per look-up. */
function customerIndex(customers: readonly CustomerView[]): CustomerIndex {
  const bySource = new Map<string, Map<string, number>>();
  for (const [index, customer] of customers.entries()) {
    let ids = bySource.get(customer.dataSourceId);
    if (ids === undefined) bySource.set(customer.dataSourceId, (ids = new Map<string, number>()));
    ids.set(customer.id, index);
  }
  return (dataSource, customerId) => bySource.get(dataSource)?.get(customerId);
}

/** Where the snapshot's invoices go: a table's builder, or a list to patch a table with. */
type InvoiceSink = Pick<CashflowTableBuilder, 'startInvoice' | 'addTransaction'>;

/**
 * Hands the visited invoices of the snapshot's customers to `sink`, each with the index of its
 * customer; an invoice of a customer the snapshot does not hold yet is left out, with its
 * transactions.
 */
function snapshotInvoices(indexOf: CustomerIndex, sink: InvoiceSink): InvoiceVisitor {
  let kept = false;
  return {
    invoice(
      dataSource,
      customerId,
      id,
      number,
      description,
      day,
      dueDay,
      paymentDay,
      status,
      total,
      currency,
    ) {
      const customer = indexOf(dataSource, customerId);
      kept = customer !== undefined;
      if (customer !== undefined)
        sink.startInvoice(
          id,
          number,
          description,
          customer,
          day,
          dueDay,
          paymentDay,
          status,
          total,
          currency,
        );
    },
    transaction(id, day, refund, successful, amount, paymentMethod) {
      if (kept) sink.addTransaction(id, day, refund, successful, amount, paymentMethod);
    },
  };
}

/** The rows' invoices of the snapshot's customers, as the cashflow engine's objects. */
function cashflowInvoices(rows: readonly CashflowInvoiceRow[], indexOf: CustomerIndex): CashflowInvoice[] {
  const invoices: CashflowInvoice[] = [];
  let transactions: CashflowTransaction[] = [];
  const list: InvoiceSink = {
    startInvoice(id, number, description, customer, day, dueDay, paymentDay, status, total, currency) {
      transactions = [];
      invoices.push({
        id,
        number,
        description,
        customer,
        day,
        dueDay,
        paymentDay,
        status,
        total,
        currency,
        transactions,
      });
    },
    addTransaction(id, day, refund, successful, amount, paymentMethod) {
      transactions.push({ id, day, type: refund ? 'refund' : 'payment', successful, amount, paymentMethod });
    },
  };
  visitInvoiceRows(rows, snapshotInvoices(indexOf, list));
  return invoices;
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
  const builder = new CashflowTableBuilder();
  const rows = await store.cashflow.failingInvoicesSince(accountId, dayString(from));
  visitInvoiceRows(rows, snapshotInvoices(customerIndex(snapshot.customers), builder));
  return builder.finish();
}

interface Built {
  version: number;
  readAt: number;
  /** The customers the table's indexes name (not the snapshot: it would outlive its version). */
  customers: readonly CustomerView[];
  table: Promise<CashflowTable>;
  /** Whether `table` has been read. */
  ready: boolean;
  /** Whether a report asked for it: one built ahead and never asked for is not patched ahead again. */
  asked: boolean;
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

  /** The table read whole, each row straight into columns sized for the account's rows. */
  async function build(accountId: string, customers: readonly CustomerView[]): Promise<CashflowTable> {
    const builder = new CashflowTableBuilder(undefined, [], await store.cashflow.size(accountId));
    await store.cashflow.eachInvoice(accountId, snapshotInvoices(customerIndex(customers), builder));
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
    previous: { customers: readonly CustomerView[]; table: CashflowTable },
    snapshot: AccountSnapshot,
    changed: readonly RecordKey[],
  ): Promise<CashflowTable | undefined> {
    const keyOf = (customer: CustomerView) => customerKey(customer.dataSourceId, customer.id);
    const keys = snapshot.customers.map(keyOf);
    const indexes = new Map(keys.map((key, index) => [key, index]));
    const reread = new Set(changed.map((key) => customerKey(key.dataSourceId, key.id)));
    const previousKeys = previous.customers.map(keyOf);
    const customerOf = new Int32Array(previousKeys.length);
    for (const [index, key] of previousKeys.entries()) {
      const next = reread.has(key) ? -1 : indexes.get(key);
      if (next === undefined) return undefined;
      customerOf[index] = next;
    }
    const kept = new Set(previousKeys);
    const unrecorded = snapshot.customers.filter((_, index) => {
      const key = keys[index]!;
      return !kept.has(key) && !reread.has(key);
    });
    const fresh = await store.cashflow.invoicesOfCustomers(accountId, [
      ...changed,
      ...unrecorded.map((customer) => ({ dataSourceId: customer.dataSourceId, id: customer.id })),
    ]);
    const fromKeys: CustomerIndex = (dataSource, customerId) =>
      indexes.get(customerKey(dataSource, customerId));
    return patchCashflowTable(previous.table, customerOf, cashflowInvoices(fresh, fromKeys));
  }

  /**
   * The table of a snapshot patched from the previous table's by the patches it remembers: its
   * customers moved as the snapshot's did, and the invoices of those the patches read again are
   * read again, so no key of the account's every customer is made or looked up.
   */
  async function patchedAlong(
    accountId: string,
    previous: CashflowTable,
    snapshot: AccountSnapshot,
    { changed, moves }: NonNullable<ReturnType<typeof movesSince>>,
  ): Promise<CashflowTable> {
    const fresh = changed.length === 0 ? [] : await store.cashflow.invoicesOfCustomers(accountId, changed);
    const indexes = new Map(
      moves.freshAt.map((at) => {
        const customer = snapshot.customers[at]!;
        return [customerKey(customer.dataSourceId, customer.id), at];
      }),
    );
    const fromKeys: CustomerIndex = (dataSource, customerId) =>
      indexes.get(customerKey(dataSource, customerId));
    return patchCashflowTable(previous, moves.customerOf, cashflowInvoices(fresh, fromKeys));
  }

  /** The table of the snapshot: patched from the cached one when few customers changed since, else read whole. */
  async function tableFor(accountId: string, snapshot: AccountSnapshot, cached?: Built) {
    // From the very customers the table's indexes name, not only their version, and no more
    // of them read again than a patch by keys would take.
    const along = cached && movesSince(snapshot, cached.customers);
    if (along && along.changed.length <= mostPatched(cached.customers.length)) {
      const table = await cached.table.catch(() => undefined);
      if (table) return patchedAlong(accountId, table, snapshot, along);
    }
    // Whether a patch will do before waiting for the previous table: when it will not (an
    // import), this read starts at once rather than after one that may still take seconds.
    const changed =
      cached &&
      (await changedSince(
        store,
        accountId,
        { version: cached.version, readAt: cached.readAt, customers: cached.customers.length },
        Date.now(),
      ));
    const table = changed && (await cached.table.catch(() => undefined));
    const patchedTable =
      table && (await patched(accountId, { customers: cached.customers, table }, snapshot, changed));
    return patchedTable ?? build(accountId, snapshot.customers);
  }

  function tableOfSnapshot(accountId: string, snapshot: AccountSnapshot): Promise<CashflowTable> {
    const cached = cache.get(accountId);
    if (cached && cached.version === snapshot.version) return cached.table;
    const table = tableFor(accountId, snapshot, cached);
    // A reader of an older snapshot (answered while a newer one was built) leaves the newer table cached.
    if (cached && snapshot.version < cached.version) return table;
    const entry: Built = {
      version: snapshot.version,
      readAt: snapshot.readAt,
      customers: snapshot.customers,
      table,
      ready: false,
      asked: false,
    };
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

  /**
   * The table of the snapshot, for a report. The latest table counts as asked for even when the
   * report reads an older snapshot's (answered while the next was built ahead): reports of the
   * account's cashflow are read, so the tables ahead go on.
   */
  function cashflowTable(accountId: string, snapshot: AccountSnapshot): Promise<CashflowTable> {
    const table = tableOfSnapshot(accountId, snapshot);
    const latest = cache.get(accountId);
    if (latest) latest.asked = true;
    return table;
  }

  return Object.assign(cashflowTable, {
    /**
     * The table of a snapshot built ahead of its readers, when a report asked for the account's
     * latest table: its next reader then finds it patched. While no report asks (a stream of
     * writes read by MRR reports alone), the table is left as it is, and the report that asks
     * next patches it from there, for all the snapshots since at once.
     */
    async ahead(accountId: string, snapshot: AccountSnapshot): Promise<void> {
      const held = cache.get(accountId);
      if (held?.ready && held.asked) await tableOfSnapshot(accountId, snapshot);
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

    /** Drops the account's table: its snapshot was dropped, and the next one is read whole. */
    forget(accountId: string): void {
      cache.delete(accountId);
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
