import type { Queryable } from './db.js';
import { INVOICE_SELECT, type InvoiceRow } from './invoices-repo.js';

/** Reads what the cashflow reports compute on. */
export function cashflowRepo(db: Queryable) {
  return {
    /** Every invoice of the account with its lines and transactions (each in their own order). */
    invoices(accountId: string): Promise<InvoiceRow[]> {
      return db.query<InvoiceRow>(
        `${INVOICE_SELECT} where i.account_id = $1 order by i.date, i.data_source_id, i.invoice_id`,
        [accountId],
      );
    },
  };
}
