import { dayNumber } from '../engine/days.js';
import type { TableSize } from '../engine/cashflow/cashflow-table.js';
import { type CopyRow, eachCopyRow, groupKey, lastCopyRow } from './copy-text.js';
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
import { literal } from './sql-literal.js';
import { keysJson, type RecordKey } from './records-repo.js';

type CopyText = NonNullable<Queryable['copyText']>;

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

/** The page of `size` invoices after the invoice `after` (from the first when null). */
interface InvoicePage {
  after: { dataSource: string; id: string } | null;
  size: number;
}

/**
 * Every invoice of the account joined to its transactions, one row per transaction (one for an
 * invoice without any), in key order, with days as day numbers and each transaction's instant
 * (milliseconds since 1970) and stored position: the COPY read of `eachInvoice`, or one page of
 * it. An invoice's transactions come in their key's order, which `visitCopy` turns into time
 * order. Fields by position, as `visitCopy` reads them.
 */
function invoicesCopy(accountId: string, page?: InvoicePage): string {
  // COPY takes no parameters: ids go in as literals, so the UUIDs must be UUIDs.
  for (const id of [accountId, page?.after?.dataSource ?? accountId])
    if (!UUID.test(id)) throw new Error(`not an id: ${id}`);
  const day = (column: string) => `${column} - date '1970-01-01'`;
  // The page's start bounds both sides of the merge, so each index is entered there.
  const after = (alias: string) =>
    page?.after
      ? ` and (${alias}.data_source_id, ${alias}.invoice_id) > ('${page.after.dataSource}', ${literal(page.after.id)})`
      : '';
  const invoices = page
    ? `(select * from invoices x where x.account_id = '${accountId}'${after('x')}
         order by x.data_source_id, x.invoice_id limit ${page.size}) i`
    : 'invoices i';
  return `select i.data_source_id, i.invoice_id, i.customer_id, i.number, i.description, ${day('i.date')},
      ${day('i.due_date')}, ${day('i.payment_date')}, i.status, i.total, i.currency, c.transaction_id,
      ${day("(c.date at time zone 'UTC')::date")}, c.type, c.result, c.amount, c.payment_method,
      (extract(epoch from date_trunc('milliseconds', c.date)) * 1000)::bigint, c.position
    from ${invoices} left join invoice_transactions c on ${CHILD_OF_INVOICE}${after('c')}
    where i.account_id = '${accountId}'
    order by i.data_source_id, i.invoice_id`;
}

/**
 * How `invoicesCopy` is planned: with hashes, sorts and nested loops priced out, PGlite's
 * PostgreSQL walks the invoices and their transactions once each along their primary keys and
 * merges them, so rows stream from the first invoice on and only the account's are read (the
 * nested loop that probed each invoice's transactions took three times as long there, and
 * sorting each invoice's transactions by time in the database twice as long as the read). A
 * PostgreSQL server (15) keeps the probe per invoice, priced out or not; its rows come in key
 * order all the same. Left to itself the planner hashes both tables whole and sorts the join
 * (seconds before the first row at a million invoices, every account's rows scanned).
 */
const MERGED = {
  enable_nestloop: 'off',
  enable_hashjoin: 'off',
  enable_material: 'off',
  enable_seqscan: 'off',
  enable_bitmapscan: 'off',
  enable_sort: 'off',
  max_parallel_workers_per_gather: '0',
};

/**
 * One invoice's transactions as the read hands them over, handed on to the visitor in time
 * order, those of one instant in their stored order, once the invoice's last has come. Their
 * values wait in arrays reused from one invoice to the next: a million transactions make no
 * object each.
 */
class InvoiceTransactions {
  private readonly ids: string[] = [];
  private readonly days: number[] = [];
  private readonly refunds: boolean[] = [];
  private readonly successes: boolean[] = [];
  private readonly amounts: number[] = [];
  private readonly methods: (string | null)[] = [];
  private readonly instants: number[] = [];
  private readonly positions: number[] = [];
  private readonly order: number[] = [];
  private count = 0;

  add(row: CopyRow): void {
    const at = this.count++;
    this.ids[at] = row.string(11);
    this.days[at] = row.integer(12);
    this.refunds[at] = row.is(13, 'refund');
    this.successes[at] = row.is(14, 'successful');
    this.amounts[at] = row.integer(15);
    this.methods[at] = row.stringOrNull(16);
    this.instants[at] = row.integer(17);
    this.positions[at] = row.integer(18);
  }

  handOver(visitor: InvoiceVisitor): void {
    const order = this.order;
    order.length = this.count;
    this.count = 0;
    for (let at = 0; at < order.length; at++) order[at] = at;
    if (order.length > 1)
      order.sort((a, b) => this.instants[a]! - this.instants[b]! || this.positions[a]! - this.positions[b]!);
    for (const at of order)
      visitor.transaction(
        this.ids[at]!,
        this.days[at]!,
        this.refunds[at]!,
        this.successes[at]!,
        this.amounts[at]!,
        this.methods[at]!,
      );
  }
}

/** The rows of `invoicesCopy` handed to `visitor`. */
async function visitCopy(
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  visitor: InvoiceVisitor,
): Promise<void> {
  const invoice = groupKey();
  const source = groupKey();
  const transactions = new InvoiceTransactions();
  let dataSource = '';
  await eachCopyRow(chunks, (row) => {
    if (row.startsGroup(2, invoice)) {
      transactions.handOver(visitor);
      // One data source's invoices come together: its id is decoded once.
      if (row.startsGroup(1, source)) dataSource = row.string(0);
      visitor.invoice(
        dataSource,
        row.string(2),
        row.string(1),
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
    if (!row.isNull(11)) transactions.add(row);
  });
  transactions.handOver(visitor);
}

/** A page of `invoicesCopy` read whole under `MERGED`. */
async function wholePage(copyText: CopyText, accountId: string, page: InvoicePage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of copyText(invoicesCopy(accountId, page), MERGED)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The key of the last invoice of a page, where the next starts; null for an empty page. */
function lastInvoiceOf(page: Buffer): InvoicePage['after'] {
  const row = lastCopyRow(page);
  return row && { dataSource: row.string(0), id: row.string(1) };
}

/** Reads what the cashflow reports compute on. */
export function cashflowRepo(db: Queryable) {
  return {
    /**
     * Every invoice of the account with its transactions, handed to `visitor` in key order: a
     * COPY of the invoices joined to their transactions, read in place (docs/decisions.md,
     * "Cashflow table"). PostgreSQL streams one COPY of the whole account; PGlite answers a COPY
     * whole, so there it goes by pages of `pageSize` invoices, each asked for before the one
     * before it is visited.
     */
    async eachInvoice(accountId: string, visitor: InvoiceVisitor, pageSize = PAGE): Promise<void> {
      const copyText = db.copyText;
      if (!copyText) throw new Error('a whole read of the invoices runs outside a transaction');
      if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`not a page size: ${pageSize}`);
      if (db.streamsCopy) {
        await visitCopy(copyText(invoicesCopy(accountId), MERGED), visitor);
        return;
      }
      // The database answers on its own thread: the next page is read there while this thread
      // decodes this one (an empty page ends the read).
      let next = wholePage(copyText, accountId, { after: null, size: pageSize });
      for (;;) {
        const page = await next;
        const after = lastInvoiceOf(page);
        if (after === null) return;
        next = wholePage(copyText, accountId, { after, size: pageSize });
        // Awaited on the next turn; a visit that throws first must not leave it unheard.
        next.catch(() => undefined);
        await visitCopy([page], visitor);
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
