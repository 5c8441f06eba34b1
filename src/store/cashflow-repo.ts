import type { Queryable } from './db.js';
import {
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

/** Reads what the cashflow reports compute on. */
export function cashflowRepo(db: Queryable) {
  return {
    /**
     * Every invoice of the account with its transactions, without lines (no report sums them),
     * `size` invoices at a time in key order. Invoices and transactions are read flat, each
     * page by a range of the primary keys, and put together here: a transaction list built per
     * invoice inside the query cost PGlite twice the time of the two plain reads. The page comes
     * from `invoices_page` (migration 024), which walks the primary key whatever the statistics.
     * On PostgreSQL the next page is read while the caller works on this one, so that the
     * server reads while this process decodes and builds.
     */
    async *invoicePages(accountId: string, size: number): AsyncGenerator<CashflowInvoiceRow[]> {
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
      // On PGlite the store has one connection: a page read ahead would only queue before
      // other requests' statements.
      const readAhead = db.decodesRowsNatively === true;
      let next = pageAfter(undefined);
      for (;;) {
        const page = await next;
        if (page.length === 0) return;
        if (page.length < size) {
          yield page;
          return;
        }
        if (readAhead) {
          next = pageAfter(page.at(-1));
          // Not awaited when the reader stops early: its failure is nobody's.
          next.catch(() => undefined);
        }
        yield page;
        if (!readAhead) next = pageAfter(page.at(-1));
      }
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
