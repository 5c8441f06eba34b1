import { dayNumber } from '../engine/days.js';
import type { TableSize } from '../engine/cashflow/cashflow-table.js';
import { eachCopyRow, groupKey } from './copy-text.js';
import type { Queryable } from './db.js';
import {
  CHILD_OF_INVOICE,
  INVOICE_COLUMNS,
  type InvoiceLineRow,
  type InvoiceRow,
  KEYS,
  LINES_JSON,
  TRANSACTIONS_JSON,
} from './invoices-repo.js';
import { jsonRows } from './json-rows.js';
import { keysJson, type RecordKey } from './records-repo.js';

/** An invoice with its transactions: what the cashflow table is built from. */
export type CashflowInvoiceRow = Omit<InvoiceRow, 'lines'>;

/** The lines of one invoice, in their order. */
export interface InvoiceLinesRow {
  data_source: string;
  id: string;
  lines: InvoiceLineRow[];
}

/** Invoices read per page by `eachInvoice` where COPY answers whole (PGlite): bounds what one read holds. */
const PAGE = 20_000;

/**
 * What a read of an account's every invoice hands over: one call per invoice and per
 * transaction, with values only, so that a million of them make no object each.
 */
export interface InvoiceVisitor {
  /**
   * An invoice; the transactions that follow are its own, oldest first (those of one instant in
   * their stored order). Days are day numbers (days since 1970-01-01); a transaction's is its
   * UTC day.
   */
  invoice(
    dataSource: string,
    customerId: string,
    id: string,
    number: string | null,
    description: string | null,
    day: number,
    dueDay: number | null,
    paymentDay: number | null,
    status: CashflowInvoiceRow['status'],
    total: number,
    currency: string,
  ): void;
  transaction(
    id: string,
    day: number,
    refund: boolean,
    successful: boolean,
    amount: number,
    paymentMethod: string | null,
  ): void;
}

const dayOrNull = (text: string | null) => (text === null ? null : dayNumber(text.slice(0, 10)));

/** Rows handed to `visitor`, each invoice's transactions sorted by their instants. */
export function visitInvoiceRows(rows: readonly CashflowInvoiceRow[], visitor: InvoiceVisitor): void {
  for (const row of rows) {
    visitor.invoice(
      row.data_source,
      row.customer_id,
      row.id,
      row.number,
      row.description,
      dayNumber(row.date),
      dayOrNull(row.due_date),
      dayOrNull(row.payment_date),
      row.status,
      row.amount,
      row.currency,
    );
    // Stored instants are UTC ISO strings, so text order is time order; sort keeps ties stable.
    const transactions = [...row.transactions].sort((a, b) => a.date.localeCompare(b.date));
    for (const transaction of transactions)
      visitor.transaction(
        transaction.id,
        dayNumber(transaction.date.slice(0, 10)),
        transaction.type === 'refund',
        transaction.result === 'successful',
        transaction.amount,
        transaction.payment_method,
      );
  }
}

const UUID = /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i;

/** `text` as an SQL string literal, whatever `standard_conforming_strings` says. */
const literal = (text: string) => `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/** The page of `size` invoices after the invoice `after` (from the first when null). */
interface InvoicePage {
  after: { dataSource: string; id: string } | null;
  size: number;
}

/**
 * Every invoice of the account joined to its transactions, one row per transaction (one for an
 * invoice without any), in key order and each invoice's transactions in time order, with days
 * as day numbers: the COPY read of `eachInvoice`, or one page of it from `invoices_page`
 * (migration 024). Fields by position, as `visitCopy` reads them.
 */
function invoicesCopy(accountId: string, page?: InvoicePage): string {
  // COPY takes no parameters: ids go in as literals, so the UUIDs must be UUIDs.
  for (const id of [accountId, page?.after?.dataSource ?? accountId])
    if (!UUID.test(id)) throw new Error(`not an id: ${id}`);
  const day = (column: string) => `${column} - date '1970-01-01'`;
  const after = page?.after ? `'${page.after.dataSource}', ${literal(page.after.id)}` : 'null, null';
  const invoices = page
    ? `invoices_page('${accountId}', ${after}, ${page.size}) i left join lateral (select * from invoice_transactions x
         where x.account_id = i.account_id and x.data_source_id = i.data_source_id and x.invoice_id = i.invoice_id
         offset 0) c on true`
    : `invoices i left join invoice_transactions c on ${CHILD_OF_INVOICE} where i.account_id = '${accountId}'`;
  return `select i.data_source_id, i.invoice_id, i.customer_id, i.number, i.description, ${day('i.date')},
      ${day('i.due_date')}, ${day('i.payment_date')}, i.status, i.total, i.currency, c.transaction_id,
      ${day("(c.date at time zone 'UTC')::date")}, c.type, c.result, c.amount, c.payment_method
    from ${invoices}
    order by i.data_source_id, i.invoice_id, date_trunc('milliseconds', c.date), c.position`;
}

/**
 * How `invoicesCopy` is planned: each invoice's transactions probed by key and sorted by time
 * within it, so rows stream from the first invoice on and only the account's are read. Left to
 * itself the planner hashes both tables whole and sorts the join (seconds before the first row
 * at a million invoices, and every account's rows scanned).
 */
const STREAMED = {
  enable_hashjoin: 'off',
  enable_seqscan: 'off',
  enable_bitmapscan: 'off',
  enable_sort: 'off',
  max_parallel_workers_per_gather: '0',
};

/**
 * The rows of `invoicesCopy` handed to `visitor`; returns how many invoices there were and the
 * last one's key (null for none), where the next page starts.
 */
async function visitCopy(
  chunks: AsyncIterable<Buffer>,
  visitor: InvoiceVisitor,
): Promise<{ invoices: number; last: InvoicePage['after'] }> {
  const invoice = groupKey();
  const source = groupKey();
  let dataSource = '';
  let invoices = 0;
  let id = '';
  await eachCopyRow(chunks, (row) => {
    if (row.startsGroup(2, invoice)) {
      // One data source's invoices come together: its id is decoded once.
      if (row.startsGroup(1, source)) dataSource = row.string(0);
      invoices++;
      id = row.string(1);
      visitor.invoice(
        dataSource,
        row.string(2),
        id,
        row.stringOrNull(3),
        row.stringOrNull(4),
        row.integer(5),
        row.integerOrNull(6),
        row.integerOrNull(7),
        row.string(8) as CashflowInvoiceRow['status'],
        row.integer(9),
        row.string(10),
      );
    }
    if (row.isNull(11)) return;
    visitor.transaction(
      row.string(11),
      row.integer(12),
      row.is(13, 'refund'),
      row.is(14, 'successful'),
      row.integer(15),
      row.stringOrNull(16),
    );
  });
  return { invoices, last: invoices === 0 ? null : { dataSource, id } };
}

/** Reads what the cashflow reports compute on. */
export function cashflowRepo(db: Queryable) {
  return {
    /**
     * Every invoice of the account with its transactions, handed to `visitor` in key order: a
     * COPY of the invoices joined to their transactions, read in place (docs/decisions.md,
     * "Cashflow table"). PostgreSQL streams one COPY of the whole account; PGlite answers a COPY
     * whole, so there it goes by pages of `pageSize` invoices.
     */
    async eachInvoice(accountId: string, visitor: InvoiceVisitor, pageSize = PAGE): Promise<void> {
      const copyText = db.copyText;
      if (!copyText) throw new Error('a whole read of the invoices runs outside a transaction');
      if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`not a page size: ${pageSize}`);
      if (db.streamsCopy) {
        await visitCopy(copyText(invoicesCopy(accountId), STREAMED), visitor);
        return;
      }
      let page: InvoicePage = { after: null, size: pageSize };
      for (;;) {
        const { invoices, last } = await visitCopy(copyText(invoicesCopy(accountId, page)), visitor);
        if (invoices < pageSize) return;
        page = { after: last, size: pageSize };
      }
    },

    /** How many invoices and transactions the account holds: what `eachInvoice` will hand over. */
    async size(accountId: string): Promise<TableSize> {
      const [size] = await db.query<TableSize>(
        `select (select count(*)::int from invoices where account_id = $1) as invoices,
           (select count(*)::int from invoice_transactions where account_id = $1) as transactions`,
        [accountId],
      );
      return size!;
    },

    /**
     * Every invoice of the given customers with its transactions, in key order, for patching a
     * table: one probe of the invoices' customer index per customer.
     */
    invoicesOfCustomers(accountId: string, customers: readonly RecordKey[]): Promise<CashflowInvoiceRow[]> {
      if (customers.length === 0) return Promise.resolve([]);
      return jsonRows<CashflowInvoiceRow>(
        db,
        `select ${INVOICE_COLUMNS}, ${TRANSACTIONS_JSON} as transactions
         from ${KEYS} cross join lateral (select * from invoices x
           where x.account_id = $1 and x.customer_id = k.i and x.data_source_id = k.s offset 0) i`,
        [accountId, keysJson(customers)],
        { orderBy: 'q.data_source, q.id' },
      );
    },

    /**
     * The invoices with a failed payment attempt and a transaction on or after `since`
     * (YYYY-MM-DD, UTC), with all their transactions: what revenue-event detection needs of the
     * cashflow, a few per cent of an account's invoices. There is no index by date (it would
     * cost every import), so the account's transactions are scanned once; each one in the
     * window probes its invoice's transactions for a failure.
     */
    failingInvoicesSince(accountId: string, since: string): Promise<CashflowInvoiceRow[]> {
      return jsonRows<CashflowInvoiceRow>(
        db,
        `select ${INVOICE_COLUMNS}, ${TRANSACTIONS_JSON} as transactions
         from (select distinct t.data_source_id, t.invoice_id from invoice_transactions t
           where t.account_id = $1 and t.date >= $2::timestamptz
             and exists (select 1 from invoice_transactions f where f.account_id = $1
               and f.data_source_id = t.data_source_id and f.invoice_id = t.invoice_id
               and f.type = 'payment' and f.result = 'failed')) k
         cross join lateral (select * from invoices x
           where x.account_id = $1 and x.data_source_id = k.data_source_id and x.invoice_id = k.invoice_id
           offset 0) i`,
        [accountId, `${since}T00:00:00Z`],
        { orderBy: 'q.data_source, q.id' },
      );
    },

    /**
     * The lines of the given invoices (one page of the invoices detail), one row per key. From
     * the keys straight to the lines' index: joined to the invoices, the planner (without
     * statistics on PGlite) hashes every invoice of the account for a page of 100.
     */
    lines(accountId: string, keys: readonly RecordKey[]): Promise<InvoiceLinesRow[]> {
      if (keys.length === 0) return Promise.resolve([]);
      return db.query<InvoiceLinesRow>(
        `select i.data_source_id as data_source, i.invoice_id as id, ${LINES_JSON} as lines
         from ${KEYS}, lateral (select $1::uuid as account_id, k.s as data_source_id, k.i as invoice_id) i`,
        [accountId, keysJson(keys)],
      );
    },
  };
}
