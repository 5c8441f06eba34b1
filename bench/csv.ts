import type { CustomerPayload, InvoicePayload, PlanPayload } from './payloads.js';

/**
 * The CSV forms of the generated records, as `POST /data/customers`, `/data/plans` and
 * `/data/invoices` take them with `content-type: text/csv` (docs/api.md, "CSV").
 */

type Cell = string | number | boolean | undefined;

function cell(value: Cell): string {
  if (value === undefined) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\n') + '\n';
}

const PLAN_COLUMNS = [
  'id',
  'name',
  'billing_freq',
  'billing_freq_count',
  'product_name',
  'currency',
] as const;

export function plansCsv(plans: readonly PlanPayload[]): string {
  return csv(
    PLAN_COLUMNS,
    plans.map((plan) => PLAN_COLUMNS.map((column) => plan[column])),
  );
}

const CUSTOMER_COLUMNS = [
  'id',
  'name',
  'email',
  'created_date',
  'country',
  'state',
  'currency',
  'status',
  'trial_started',
  'trial_end_date',
  'paid_started',
  'cancel_date',
  'cancel_reason',
] as const;

/** One row per customer; each custom variable in its own `custom_<key>` column. */
export function customersCsv(customers: readonly CustomerPayload[]): string {
  const keys = [...new Set(customers.flatMap((customer) => Object.keys(customer.custom_variables)))].sort();
  return csv(
    [...CUSTOMER_COLUMNS, ...keys.map((key) => `custom_${key}`)],
    customers.map((customer) => [
      ...CUSTOMER_COLUMNS.map((column) => customer[column]),
      ...keys.map((key) => customer.custom_variables[key]),
    ]),
  );
}

const INVOICE_COLUMNS = [
  'id',
  'customer_id',
  'date',
  'due_date',
  'currency',
  'status',
  'number',
  'payment_date',
  'amount',
] as const;
const LINE_COLUMNS = [
  'type',
  'subscription_id',
  'plan_id',
  'description',
  'amount',
  'quantity',
  'period_start',
  'period_end',
  'discount',
  'tax',
  'prorated',
] as const;
const TRANSACTION_COLUMNS = ['id', 'date', 'type', 'result', 'amount', 'payment_method'] as const;

/**
 * One row per invoice line; the invoice's cells repeat on each of its rows, and its
 * transactions ride along on the rows in order (an invoice with more transactions than lines
 * gets rows that carry only a transaction).
 */
export function invoicesCsv(invoices: readonly InvoicePayload[]): string {
  const header = [
    ...INVOICE_COLUMNS,
    ...LINE_COLUMNS.map((column) => `line_${column}`),
    ...TRANSACTION_COLUMNS.map((column) => `transaction_${column}`),
  ];
  const rows = invoices.flatMap((invoice) => {
    const head = INVOICE_COLUMNS.map((column) => invoice[column]);
    const count = Math.max(1, invoice.lines.length, invoice.transactions.length);
    return Array.from({ length: count }, (_, index) => {
      const line = invoice.lines[index];
      const transaction = invoice.transactions[index];
      return [
        ...head,
        ...LINE_COLUMNS.map((column) => line?.[column]),
        ...TRANSACTION_COLUMNS.map((column) => transaction?.[column]),
      ];
    });
  });
  return csv(header, rows);
}
