import type { UploadKind } from '../engine/vocabulary.js';
import { InvalidInputError } from '../services/errors.js';
import { itemsFromRows } from '../services/record-rows.js';
import { CsvBody } from './csv-body.js';

/** A CSV body is all or nothing: its first row that makes no item rejects it. */
function itemsOf(kind: UploadKind, csv: CsvBody): unknown[] {
  const { items, problems } = itemsFromRows(kind, csv.rows);
  const [first] = problems;
  if (first) throw new InvalidInputError(`CSV row ${first.row}: ${first.message}`);
  return items.map((rowItem) => rowItem.item);
}

/** One customer per row; `custom_<key>` columns become custom_variables. */
export const customersFromCsv = (csv: CsvBody) => itemsOf('customers', csv);

/** One plan per row. */
export const plansFromCsv = (csv: CsvBody) => itemsOf('plans', csv);

/** One row per invoice line, grouped into invoices by `id` (and `data_source`); see record-rows.ts. */
export const invoicesFromCsv = (csv: CsvBody) => itemsOf('invoices', csv);

/** The items of a body that came as JSON or, for the routes that take it, as CSV. */
export function jsonOrCsv(body: unknown, fromCsv: (csv: CsvBody) => unknown[]): unknown {
  return body instanceof CsvBody ? fromCsv(body) : body;
}
