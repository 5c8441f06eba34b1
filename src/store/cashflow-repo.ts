import { dayNumber } from '../engine/days.js';
import { eachCopyRow, groupKey } from './copy-text.js';
import type { Queryable } from './db.js';
import {
  CHILD_OF_INVOICE,
  INVOICE_COLUMNS,
  type InvoiceLineRow,
  type InvoiceRow,
  type InvoiceTransactionRow,
  KEYS,
  LINES_JSON,
  TRANSACTION_INSTANT,
  TRANSACTIONS_JSON,
} from './invoices-repo.js';
import { jsonRows } from './json-rows.js';
import { inKeyRanges, keyRangesJson } from './key-ranges.js';
import { keyString, keysJson, type RecordKey } from './records-repo.js';

/** An invoice with its transactions: what the cashflow table is built from. */
export type CashflowInvoiceRow = Omit<InvoiceRow, 'lines'>;

export type InvoiceColumnsRow = Omit<InvoiceRow, 'lines' | 'transactions'>;

/** The lines of one invoice, in their order. */
export interface InvoiceLinesRow {
  data_source: string;
  id: string;
  lines: InvoiceLineRow[];
}

export type TransactionOfInvoice = InvoiceTransactionRow & { data_source_id: string; invoice_id: string };

/** Invoices read per page by `eachInvoice` on PGlite: bounds the rows held at once. */
const PAGE = 20_000;

/** Invoices past the last one with transactions that a transaction's owner is looked for among. */
const OWNER_LOOKAHEAD = 64;

/**
 * The invoices with their transactions, both in the same key order (the database sorted both),
 * so a transaction belongs to the invoice of the one before or to one of the next few (those
 * between have none). A transaction of no invoice here (its invoice written between the two
 * reads) is looked up by key, and left out.
 */
export function withTransactions(
  invoices: readonly InvoiceColumnsRow[],
  transactions: readonly TransactionOfInvoice[],
): CashflowInvoiceRow[] {
  const rows: CashflowInvoiceRow[] = invoices.map((invoice) => Object.assign(invoice, { transactions: [] }));
  const owns = (index: number, transaction: TransactionOfInvoice) =>
    rows[index]!.id === transaction.invoice_id && rows[index]!.data_source === transaction.data_source_id;
  let byKey: Map<string, number> | undefined;
  const ownerByKey = (transaction: TransactionOfInvoice) => {
    byKey ??= new Map(
      rows.map((row, index) => [keyString({ dataSourceId: row.data_source, id: row.id }), index]),
    );
    return byKey.get(keyString({ dataSourceId: transaction.data_source_id, id: transaction.invoice_id }));
  };
  let at = 0;
  for (const transaction of transactions) {
    const end = Math.min(rows.length, at + OWNER_LOOKAHEAD);
    let owner: number | undefined = at;
    while (owner < end && !owns(owner, transaction)) owner++;
    if (owner === end) owner = ownerByKey(transaction);
    if (owner === undefined) continue;
    at = owner;
    const { id, date, type, result, amount, payment_method } = transaction;
    rows[at]!.transactions.push({ id, date, type, result, amount, payment_method });
  }
  return rows;
}

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

/**
 * Every invoice of the account joined to its transactions, one row per transaction (one for an
 * invoice without any), in key order and each invoice's transactions in time order, with days
 * as day numbers: the COPY read of `eachInvoice`. Fields by position, as `visitCopy` reads them.
 */
function invoicesCopy(accountId: string): string {
  // COPY takes no parameters: the account id goes in as a literal, so it must be a UUID.
  if (!/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i.test(accountId))
    throw new Error(`not an account id: ${accountId}`);
  const day = (column: string) => `${column} - date '1970-01-01'`;
  return `select i.data_source_id, i.invoice_id, i.customer_id, i.number, i.description, ${day('i.date')},
      ${day('i.due_date')}, ${day('i.payment_date')}, i.status, i.total, i.currency, c.transaction_id,
      ${day("(c.date at time zone 'UTC')::date")}, c.type, c.result, c.amount, c.payment_method
    from invoices i left join invoice_transactions c on ${CHILD_OF_INVOICE}
    where i.account_id = '${accountId}'
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

/** The rows of `invoicesCopy` handed to `visitor`. */
async function visitCopy(chunks: AsyncIterable<Buffer>, visitor: InvoiceVisitor): Promise<void> {
  const invoice = groupKey();
  const source = groupKey();
  let dataSource = '';
  await eachCopyRow(chunks, (row) => {
    if (row.startsGroup(2, invoice)) {
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
}

/** Reads what the cashflow reports compute on. */
export function cashflowRepo(db: Queryable) {
  /**
   * Every invoice of the account with its transactions, without lines (no report sums them),
   * `size` invoices at a time in key order. Invoices and transactions are read flat, each
   * page by a range of the primary keys, and put together here: a transaction list built per
   * invoice inside the query cost PGlite twice the time of the two plain reads. The page comes
   * from `invoices_page` (migration 024), which walks the primary key whatever the statistics.
   */
  async function* invoicePages(accountId: string, size: number): AsyncGenerator<CashflowInvoiceRow[]> {
    const pageAfter = async (after: InvoiceColumnsRow | undefined) => {
      const invoices = await jsonRows<InvoiceColumnsRow>(
        db,
        `select ${INVOICE_COLUMNS} from invoices_page($1, $2, $3, $4) i`,
        [accountId, after?.data_source ?? null, after?.id ?? null, size],
        { orderBy: 'q.data_source, q.id' },
      );
      if (invoices.length === 0) return [];
      const transactions = await jsonRows<TransactionOfInvoice>(
        db,
        `select c.data_source_id, c.invoice_id, c.transaction_id as id, ${TRANSACTION_INSTANT} as date,
                c.type, c.result, c.amount, c.payment_method, c.position
         from ${inKeyRanges('invoice_transactions', 'invoice_id', 'c')}`,
        [
          accountId,
          keyRangesJson(
            invoices,
            (invoice) => invoice.data_source,
            (invoice) => invoice.id,
          ),
        ],
        { orderBy: 'q.data_source_id, q.invoice_id, q.position' },
      );
      return withTransactions(invoices, transactions);
    };
    for (let page = await pageAfter(undefined); page.length > 0; page = await pageAfter(page.at(-1))) {
      yield page;
      if (page.length < size) return;
    }
  }

  return {
    invoicePages,

    /**
     * Every invoice of the account with its transactions, handed to `visitor` in key order. On
     * PostgreSQL one COPY of the invoices joined to their transactions, read as it arrives: the
     * driver's rows (an object and a string per value) cost five times the server's work. On
     * PGlite, `invoicePages`.
     */
    async eachInvoice(accountId: string, visitor: InvoiceVisitor): Promise<void> {
      if (db.copyText) return visitCopy(db.copyText(invoicesCopy(accountId), STREAMED), visitor);
      for await (const rows of invoicePages(accountId, PAGE)) visitInvoiceRows(rows, visitor);
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
