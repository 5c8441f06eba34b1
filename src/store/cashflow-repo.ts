import type { Queryable } from './db.js';
import {
  INVOICE_COLUMNS,
  type InvoiceLineRow,
  type InvoiceRow,
  KEYS,
  LINES_JSON,
  TRANSACTIONS_JSON,
} from './invoices-repo.js';
import { keysJson, type RecordKey } from './records-repo.js';

/** An invoice with its transactions: what the cashflow table is built from. */
export type CashflowInvoiceRow = Omit<InvoiceRow, 'lines'>;

/** The lines of one invoice, in their order. */
export interface InvoiceLinesRow {
  data_source: string;
  id: string;
  lines: InvoiceLineRow[];
}

/** Reads what the cashflow reports compute on. */
export function cashflowRepo(db: Queryable) {
  return {
    /** Every invoice of the account with its transactions, without lines (no report sums them). */
    invoices(accountId: string): Promise<CashflowInvoiceRow[]> {
      return db.query<CashflowInvoiceRow>(
        `select ${INVOICE_COLUMNS}, ${TRANSACTIONS_JSON} as transactions
         from invoices i where i.account_id = $1 order by i.date, i.data_source_id, i.invoice_id`,
        [accountId],
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
