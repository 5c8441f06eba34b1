import { ownValue } from '../engine/own-value.js';
import type { UploadKind } from '../engine/vocabulary.js';

/**
 * Rows of a table (a CSV body, an uploaded file) turned into the items the `/data` use cases
 * take. Cells are keyed by field, as the CSV columns of docs/api.md name them: `custom_<key>` for
 * a customer's custom variables, `line_*` and `transaction_*` for an invoice's lines and
 * transactions. Each item remembers the rows it came from, so an error can name its row.
 */

export interface FieldRow {
  /** The row's number in the file, counting the header as row 1. */
  line: number;
  cells: Record<string, string>;
}

export interface RowItem {
  item: Record<string, unknown>;
  /** Every row the item came from, the first one first. */
  rows: number[];
  /** Invoices: the row of each line and each transaction, by position. */
  lineRows: number[];
  transactionRows: number[];
}

/** A row that makes no item, and why. */
export interface RowProblem {
  row: number;
  field: string;
  message: string;
}

type Kind = 'integer' | 'boolean';

/** Cells are text; these fields hold numbers or booleans. Unconvertible text stays text, for validation to name. */
function typed(value: string, kind: Kind | undefined): unknown {
  if (kind === 'integer' && /^-?\d+$/.test(value)) return Number(value);
  if (kind === 'boolean' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return value;
}

/**
 * The non-empty cells of a row whose field starts with `prefix`, without it: an empty cell means
 * "not given". Field names may come from a file, so they become own keys (a `__proto__` too).
 */
function fields(
  row: FieldRow,
  prefix: string,
  kinds: Record<string, Kind>,
  skip: (field: string) => boolean,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row.cells)
      .filter(([field, value]) => value !== '' && field.startsWith(prefix) && !skip(field))
      .map(([field, value]) => {
        const name = field.slice(prefix.length);
        return [name, typed(value, ownValue(kinds, name))];
      }),
  );
}

export const CUSTOM_PREFIX = 'custom_';
export const LINE_PREFIX = 'line_';
export const TRANSACTION_PREFIX = 'transaction_';

function oneRowItem(row: FieldRow, item: Record<string, unknown>): RowItem {
  return { item, rows: [row.line], lineRows: [], transactionRows: [] };
}

/** One customer per row; `custom_<key>` cells become custom_variables. */
function customerItems(rows: readonly FieldRow[]): RowItem[] {
  return rows.map((row) => {
    const item = fields(row, '', {}, (field) => field.startsWith(CUSTOM_PREFIX));
    const variables = fields(row, CUSTOM_PREFIX, {}, () => false);
    return oneRowItem(
      row,
      Object.keys(variables).length > 0 ? { ...item, custom_variables: variables } : item,
    );
  });
}

/** One record per row, with these fields converted. */
function flatItems(kinds: Record<string, Kind>) {
  return (rows: readonly FieldRow[]): RowItem[] =>
    rows.map((row) =>
      oneRowItem(
        row,
        fields(row, '', kinds, () => false),
      ),
    );
}

const LINE_KINDS: Record<string, Kind> = {
  amount: 'integer',
  quantity: 'integer',
  discount: 'integer',
  tax: 'integer',
  prorated: 'boolean',
};
const isChildField = (field: string) => field.startsWith(LINE_PREFIX) || field.startsWith(TRANSACTION_PREFIX);

/**
 * One row per invoice line, grouped into invoices by `id`. `line_*` cells make the row's line
 * and `transaction_*` cells a transaction; a row may carry either or both. Invoice cells may
 * repeat on every row of the invoice but must not disagree: an invoice whose rows disagree makes
 * no item, and the first disagreeing row is the problem.
 */
function invoiceItems(rows: readonly FieldRow[]): { items: RowItem[]; problems: RowProblem[] } {
  const invoices = new Map<string, RowItem & { item: { lines: unknown[]; transactions: unknown[] } }>();
  const problems: RowProblem[] = [];
  const refused = new Set<string>();
  for (const row of rows) {
    const head = fields(row, '', { amount: 'integer' }, isChildField);
    const key = JSON.stringify([head.id ?? `row ${row.line}`, head.data_source ?? null]);
    if (refused.has(key)) continue;
    const invoice = invoices.get(key) ?? {
      item: { lines: [], transactions: [] },
      rows: [],
      lineRows: [],
      transactionRows: [],
    };
    const conflict = Object.entries(head).find(
      ([name, value]) => Object.hasOwn(invoice.item, name) && invoice.item[name as never] !== value,
    );
    if (conflict) {
      const message = `invoice ${String(head.id)} has a second value for "${conflict[0]}"`;
      problems.push({ row: row.line, field: conflict[0], message });
      invoices.delete(key);
      refused.add(key);
      continue;
    }
    Object.assign(invoice.item, head);
    invoice.rows.push(row.line);
    const line = fields(row, LINE_PREFIX, LINE_KINDS, () => false);
    if (Object.keys(line).length > 0) {
      invoice.item.lines.push(line);
      invoice.lineRows.push(row.line);
    }
    const transaction = fields(row, TRANSACTION_PREFIX, { amount: 'integer' }, () => false);
    if (Object.keys(transaction).length > 0) {
      invoice.item.transactions.push(transaction);
      invoice.transactionRows.push(row.line);
    }
    invoices.set(key, invoice);
  }
  return { items: [...invoices.values()], problems };
}

const ITEMS: Record<UploadKind, (rows: readonly FieldRow[]) => { items: RowItem[]; problems: RowProblem[] }> =
  {
    customers: (rows) => ({ items: customerItems(rows), problems: [] }),
    plans: (rows) => ({ items: flatItems({ billing_freq_count: 'integer' })(rows), problems: [] }),
    subscriptions: (rows) => ({
      items: flatItems({ quantity: 'integer', mrr: 'integer' })(rows),
      problems: [],
    }),
    invoices: invoiceItems,
  };

/** The items of `kind` that the rows make, and the rows that make none. */
export function itemsFromRows(
  kind: UploadKind,
  rows: readonly FieldRow[],
): { items: RowItem[]; problems: RowProblem[] } {
  return ITEMS[kind](rows);
}

/**
 * The path of the field an item's refusal names, read from the messages the `/data` use cases
 * write (`Invalid field "lines.0.amount": …`, `Missing required fields: …`, `Unknown customer_id
 * "…"`, `Unknown plan_id "…" (lines.0.plan_id)`); undefined when it names none.
 */
function refusalPath(message: string): string[] | undefined {
  const invalid = /^Invalid field "([^"]+)"/.exec(message);
  if (invalid) return invalid[1]!.split('.');
  const missing = /^Missing required fields: ([a-z_]+)/.exec(message);
  if (missing) return [missing[1]!];
  const reference = /^Unknown (customer_id|plan_id) "[^"]*"(?: \(([^)]+)\))?/.exec(message);
  if (reference) return reference[2] ? reference[2].split('.') : [reference[1]!];
  return undefined;
}

/** The row and field a refusal of `item` concerns: the part of the item it names, else its first row. */
export function refusalPlace(rowItem: RowItem, message: string): { row: number; field: string | null } {
  const [head, index, child] = refusalPath(message) ?? [];
  const first = { row: rowItem.rows[0]!, field: head ?? null };
  const position = Number(index);
  if (head === 'custom_variables' && index !== undefined) return { ...first, field: CUSTOM_PREFIX + index };
  if (head === 'lines' && child !== undefined && rowItem.lineRows[position] !== undefined) {
    return { row: rowItem.lineRows[position], field: LINE_PREFIX + child };
  }
  if (head === 'transactions' && child !== undefined && rowItem.transactionRows[position] !== undefined) {
    return { row: rowItem.transactionRows[position], field: TRANSACTION_PREFIX + child };
  }
  return first;
}
