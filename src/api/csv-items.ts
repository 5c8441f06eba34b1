import { ownValue } from '../engine/own-value.js';
import { InvalidInputError } from '../services/errors.js';
import { CsvBody, type CsvRow } from './csv-body.js';

type Kind = 'integer' | 'boolean';

/** Cells are text; these columns hold numbers or booleans. Unconvertible text stays text, for validation to name. */
function typed(value: string, kind: Kind | undefined): unknown {
  if (kind === 'integer' && /^-?\d+$/.test(value)) return Number(value);
  if (kind === 'boolean' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return value;
}

/**
 * The non-empty cells of a row whose column starts with `prefix`, without it: an empty cell means
 * "not given". Column names are the file's, so they become own keys (a `__proto__` column too).
 */
function fields(
  row: CsvRow,
  prefix: string,
  kinds: Record<string, Kind>,
  skip: (column: string) => boolean,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row.cells)
      .filter(([column, value]) => value !== '' && column.startsWith(prefix) && !skip(column))
      .map(([column, value]) => {
        const name = column.slice(prefix.length);
        return [name, typed(value, ownValue(kinds, name))];
      }),
  );
}

const CUSTOM_PREFIX = 'custom_';

/** One customer per row; `custom_<key>` columns become custom_variables. */
export function customersFromCsv(csv: CsvBody): unknown[] {
  return csv.rows.map((row) => {
    const item = fields(row, '', {}, (column) => column.startsWith(CUSTOM_PREFIX));
    const variables = fields(row, CUSTOM_PREFIX, {}, () => false);
    return Object.keys(variables).length > 0 ? { ...item, custom_variables: variables } : item;
  });
}

/** One plan per row. */
export function plansFromCsv(csv: CsvBody): unknown[] {
  return csv.rows.map((row) => fields(row, '', { billing_freq_count: 'integer' }, () => false));
}

const LINE_PREFIX = 'line_';
const TRANSACTION_PREFIX = 'transaction_';
const LINE_KINDS: Record<string, Kind> = {
  amount: 'integer',
  quantity: 'integer',
  discount: 'integer',
  tax: 'integer',
  prorated: 'boolean',
};
const isChildColumn = (column: string) =>
  column.startsWith(LINE_PREFIX) || column.startsWith(TRANSACTION_PREFIX);

/**
 * One row per invoice line, grouped into invoices by `id` (and `data_source`). `line_*` cells
 * make the row's line and `transaction_*` cells a transaction; a row may carry either or both.
 * Invoice cells may repeat on every row of the invoice but must not disagree.
 */
export function invoicesFromCsv(csv: CsvBody): unknown[] {
  const invoices = new Map<string, Record<string, unknown> & { lines: unknown[]; transactions: unknown[] }>();
  for (const row of csv.rows) {
    const head = fields(row, '', { amount: 'integer' }, isChildColumn);
    const key = JSON.stringify([head.id ?? `row ${row.line}`, head.data_source ?? null]);
    const invoice = invoices.get(key) ?? { lines: [], transactions: [] };
    for (const [name, value] of Object.entries(head)) {
      if (Object.hasOwn(invoice, name) && invoice[name] !== value) {
        throw new InvalidInputError(
          `CSV row ${row.line}: invoice ${String(head.id)} has a second value for "${name}"`,
        );
      }
      invoice[name] = value;
    }
    const line = fields(row, LINE_PREFIX, LINE_KINDS, () => false);
    if (Object.keys(line).length > 0) invoice.lines.push(line);
    const transaction = fields(row, TRANSACTION_PREFIX, { amount: 'integer' }, () => false);
    if (Object.keys(transaction).length > 0) invoice.transactions.push(transaction);
    invoices.set(key, invoice);
  }
  return [...invoices.values()];
}

/** The items of a body that came as JSON or, for the routes that take it, as CSV. */
export function jsonOrCsv(body: unknown, fromCsv: (csv: CsvBody) => unknown[]): unknown {
  return body instanceof CsvBody ? fromCsv(body) : body;
}
