import type {
  INVOICE_STATUSES,
  LINE_TYPES,
  TRANSACTION_RESULTS,
  TRANSACTION_TYPES,
} from '../engine/vocabulary.js';
import { awaitedLater } from './awaited-later.js';
import { bulkWrite, preparedWrite } from './bulk-write.js';
import type { Queryable } from './db.js';
import { keysJson, type Page, type RecordKey } from './records-repo.js';

export interface InvoiceLineRow {
  id: string;
  type: (typeof LINE_TYPES)[number];
  subscription_id: string | null;
  plan_id: string | null;
  description: string | null;
  amount: number;
  quantity: number;
  period_start: string | null;
  period_end: string | null;
  discount: number;
  tax: number;
  prorated: boolean;
}

export interface InvoiceTransactionRow {
  id: string;
  date: string;
  type: (typeof TRANSACTION_TYPES)[number];
  result: (typeof TRANSACTION_RESULTS)[number];
  amount: number;
  payment_method: string | null;
}

export interface InvoiceRow {
  id: string;
  data_source: string;
  customer_id: string;
  date: string;
  due_date: string | null;
  currency: string;
  status: (typeof INVOICE_STATUSES)[number];
  number: string | null;
  description: string | null;
  payment_date: string | null;
  /** The invoice total in cents. */
  amount: number;
  lines: InvoiceLineRow[];
  transactions: InvoiceTransactionRow[];
}

export const CHILD_OF_INVOICE =
  'c.account_id = i.account_id and c.data_source_id = i.data_source_id and c.invoice_id = i.invoice_id';

/** An invoice's lines as a JSON array, in their order; `i` is the invoice. */
export const LINES_JSON = `coalesce((select json_agg(json_build_object('id', c.line_id, 'type', c.type, 'subscription_id', c.subscription_id,
      'plan_id', c.plan_id, 'description', c.description, 'amount', c.amount, 'quantity', c.quantity,
      'period_start', c.period_start, 'period_end', c.period_end, 'discount', c.discount, 'tax', c.tax,
      'prorated', c.prorated) order by c.position)
    from invoice_lines c where ${CHILD_OF_INVOICE}), '[]')`;

/** A transaction's instant `c.date` as ISO 8601 UTC text, as the API shows it. */
export const TRANSACTION_INSTANT = `to_char(c.date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** An invoice's transactions as a JSON array, in their order; `i` is the invoice. */
export const TRANSACTIONS_JSON = `coalesce((select json_agg(json_build_object('id', c.transaction_id,
      'date', ${TRANSACTION_INSTANT}, 'type', c.type,
      'result', c.result, 'amount', c.amount, 'payment_method', c.payment_method) order by c.position)
    from invoice_transactions c where ${CHILD_OF_INVOICE}), '[]')`;

/** An invoice's own columns as `InvoiceRow` names them; `i` is the invoice. */
export const INVOICE_COLUMNS = `i.invoice_id as id, i.data_source_id as data_source, i.customer_id, i.date, i.due_date,
  i.currency, i.status, i.number, i.description, i.payment_date, i.total as amount`;

/** Invoices as `InvoiceRow`s; the caller adds `where`, always with `i.account_id`. */
const INVOICE_SELECT = `select ${INVOICE_COLUMNS},
  ${LINES_JSON} as lines,
  ${TRANSACTIONS_JSON} as transactions
  from invoices i`;

const ORDER = 'order by i.invoice_id, i.data_source_id';

/** The keys of `keysJson` as rows `k(s, i)`, from the second parameter. */
export const KEYS = 'json_to_recordset($2::json) as k(s uuid, i text)';

/** The `invoices` table's columns after `account_id`, as the invoices' write fills them. */
export const INVOICE_WRITE_COLUMNS = {
  data_source_id: 'uuid',
  invoice_id: 'text',
  customer_id: 'text',
  date: 'date',
  due_date: 'date',
  currency: 'text',
  status: 'text',
  number: 'text',
  description: 'text',
  payment_date: 'date',
  total: 'bigint',
};

/** The `invoice_lines` table's columns after `account_id`. */
export const LINE_WRITE_COLUMNS = {
  data_source_id: 'uuid',
  invoice_id: 'text',
  line_id: 'text',
  position: 'integer',
  type: 'text',
  subscription_id: 'text',
  plan_id: 'text',
  description: 'text',
  amount: 'bigint',
  quantity: 'integer',
  period_start: 'date',
  period_end: 'date',
  discount: 'bigint',
  tax: 'bigint',
  prorated: 'boolean',
};

/** The `invoice_transactions` table's columns after `account_id`. */
export const TRANSACTION_WRITE_COLUMNS = {
  data_source_id: 'uuid',
  invoice_id: 'text',
  transaction_id: 'text',
  position: 'integer',
  date: 'timestamptz',
  type: 'text',
  result: 'text',
  amount: 'bigint',
  payment_method: 'text',
};

/** Invoices as rows of `invoices`, named as `INVOICE_WRITE_COLUMNS`. */
export const invoiceTableRows = (invoices: readonly InvoiceRow[]) =>
  invoices.map(({ id, data_source, amount, lines, transactions, ...values }) => ({
    data_source_id: data_source,
    invoice_id: id,
    total: amount,
    ...values,
  }));

/** The invoices' lines as rows of `invoice_lines`, each with its position in its invoice. */
export const lineTableRows = (invoices: readonly InvoiceRow[]) =>
  invoices.flatMap((invoice) =>
    invoice.lines.map(({ id, ...line }, position) => ({
      data_source_id: invoice.data_source,
      invoice_id: invoice.id,
      line_id: id,
      position,
      ...line,
    })),
  );

/** The invoices' transactions as rows of `invoice_transactions`, each with its position. */
export const transactionTableRows = (invoices: readonly InvoiceRow[]) =>
  invoices.flatMap((invoice) =>
    invoice.transactions.map(({ id, ...transaction }, position) => ({
      data_source_id: invoice.data_source,
      invoice_id: invoice.id,
      transaction_id: id,
      position,
      ...transaction,
    })),
  );

export function invoicesRepo(db: Queryable) {
  return {
    list(accountId: string, page: Page & { customerId?: string | undefined }): Promise<InvoiceRow[]> {
      return db.query<InvoiceRow>(
        `${INVOICE_SELECT} where i.account_id = $1 and ($2::uuid is null or i.data_source_id = $2)
           and ($5::text is null or i.customer_id = $5)
         ${ORDER} limit $3 offset $4`,
        [accountId, page.dataSourceId ?? null, page.limit, page.offset, page.customerId ?? null],
      );
    },

    getMany(accountId: string, keys: readonly RecordKey[]): Promise<InvoiceRow[]> {
      if (keys.length === 0) return Promise.resolve([]);
      return db.query<InvoiceRow>(
        `${INVOICE_SELECT} join ${KEYS} on i.data_source_id = k.s and i.invoice_id = k.i where i.account_id = $1 ${ORDER}`,
        [accountId, keysJson(keys)],
      );
    },

    /**
     * Writes whole invoices: an existing invoice's lines and transactions are replaced, not
     * merged. Returns the customers the replaced invoices belonged to before.
     */
    async upsertMany(accountId: string, invoices: readonly InvoiceRow[]): Promise<RecordKey[]> {
      if (invoices.length === 0) return [];
      const upserted = awaitedLater(
        bulkWrite<{ s: string; i: string; replaced: boolean; owner: string | null }>(
          db,
          accountId,
          {
            table: 'invoices',
            columns: INVOICE_WRITE_COLUMNS,
            conflictKey: ['data_source_id', 'invoice_id'],
            // An inserted row has no xmax; one that replaced a stored invoice carries this
            // transaction's. A subquery reads as of the statement's start: the row it replaced.
            returning: `data_source_id as s, invoice_id as i, xmax <> 0 as replaced,
            case when xmax <> 0 then (select o.customer_id from invoices o where o.account_id = invoices.account_id
              and o.data_source_id = invoices.data_source_id and o.invoice_id = invoices.invoice_id) end as owner`,
          },
          invoiceTableRows(invoices),
        ),
      );
      // Made while the store writes the invoices, and sent as soon as it has.
      const lines = preparedWrite(
        db,
        accountId,
        { table: 'invoice_lines', columns: LINE_WRITE_COLUMNS },
        lineTableRows(invoices),
      );
      const transactions = preparedWrite(
        db,
        accountId,
        { table: 'invoice_transactions', columns: TRANSACTION_WRITE_COLUMNS },
        transactionTableRows(invoices),
      );
      const written = await upserted;
      // Only a replaced invoice can have lines and transactions already; a new one has none.
      const replaced = written.filter((row) => row.replaced);
      const previousOwners = replaced.flatMap((row) =>
        row.owner === null ? [] : [{ dataSourceId: row.s, id: row.owner }],
      );
      const keys = keysJson(replaced.map((row) => ({ dataSourceId: row.s, id: row.i })));
      // Sent together, run in this order: the replaced children go before the new ones arrive.
      await Promise.all([
        ...(replaced.length > 0 ? ['invoice_lines', 'invoice_transactions'] : []).map((table) =>
          db.query(
            `delete from ${table} c using ${KEYS}
             where c.account_id = $1 and c.data_source_id = k.s and c.invoice_id = k.i`,
            [accountId, keys],
          ),
        ),
        lines(),
        transactions(),
      ]);
      return previousOwners;
    },
  };
}
