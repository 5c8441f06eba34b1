import type { UploadKind } from '../engine/vocabulary.js';
import type { ColumnMapping, FileRow } from '../store/uploads-repo.js';
import { customerInputSchema } from './customers-service.js';
import { InvalidInputError } from './errors.js';
import { invoiceInputSchema, invoiceLineSchema, invoiceTransactionSchema } from './invoices-service.js';
import { planFields } from './plans-service.js';
import { CUSTOM_PREFIX, type FieldRow, LINE_PREFIX, TRANSACTION_PREFIX } from './record-rows.js';
import { subscriptionInputSchema } from './subscriptions-service.js';

/**
 * Which record field each column of an uploaded file fills. The fields are the CSV columns the
 * `/data` routes read (docs/api.md), taken from the record schemas so they cannot drift; the data
 * source is the upload's, so it is no field, and nested lists (scheduled changes) have no column.
 */

function keysBut(shape: object, ...left: string[]): string[] {
  return Object.keys(shape).filter((key) => !left.includes(key));
}

const prefixed = (prefix: string, keys: string[]) => keys.map((key) => prefix + key);

export const UPLOAD_FIELDS: Readonly<Record<UploadKind, readonly string[]>> = {
  customers: keysBut(customerInputSchema.shape, 'data_source', 'custom_variables'),
  plans: keysBut(planFields, 'data_source', 'external_id'),
  subscriptions: keysBut(subscriptionInputSchema.shape, 'data_source', 'scheduled_changes'),
  invoices: [
    ...keysBut(invoiceInputSchema.in.shape, 'data_source', 'lines', 'transactions'),
    ...prefixed(LINE_PREFIX, Object.keys(invoiceLineSchema.shape)),
    ...prefixed(TRANSACTION_PREFIX, Object.keys(invoiceTransactionSchema.shape)),
  ],
};

/** A customer's `custom_<key>` field: any key the custom variables accept. */
function isCustomField(kind: UploadKind, field: string): boolean {
  return kind === 'customers' && field.startsWith(CUSTOM_PREFIX) && field.length > CUSTOM_PREFIX.length;
}

function isField(kind: UploadKind, field: string): boolean {
  return UPLOAD_FIELDS[kind].includes(field) || isCustomField(kind, field);
}

/**
 * The mapping offered for a new file: a column the saved mapping names keeps its field; any other
 * column whose name is a field, compared without case or surrounding spaces, fills that field.
 */
export function suggestMapping(
  kind: UploadKind,
  columns: readonly string[],
  saved: ColumnMapping | undefined,
): ColumnMapping {
  const mapping: ColumnMapping = {};
  const taken = new Set<string>();
  const savedFor = (column: string) => (saved && Object.hasOwn(saved, column) ? saved[column] : undefined);
  const named = columns.filter((column) => column !== '');
  for (const column of named) {
    const field = savedFor(column);
    if (field !== undefined && isField(kind, field) && !taken.has(field)) {
      mapping[column] = field;
      taken.add(field);
    }
  }
  for (const column of named) {
    const field = column.trim().toLowerCase();
    if (Object.hasOwn(mapping, column) || taken.has(field) || !isField(kind, field)) continue;
    mapping[column] = field;
    taken.add(field);
  }
  return mapping;
}

/** Refuses a mapping that names a column the file lacks, a field the kind lacks, a field twice, or no id. */
export function checkMapping(kind: UploadKind, columns: readonly string[], mapping: ColumnMapping): void {
  const seen = new Map<string, string>();
  for (const [column, field] of Object.entries(mapping)) {
    if (column === '' || !columns.includes(column)) {
      throw new InvalidInputError(`The file has no column "${column}"`);
    }
    if (!isField(kind, field)) {
      throw new InvalidInputError(
        `Column "${column}": ${kind} have no field "${field}"; fields: ${UPLOAD_FIELDS[kind].join(', ')}` +
          (kind === 'customers' ? `, ${CUSTOM_PREFIX}<key>` : ''),
      );
    }
    const other = seen.get(field);
    if (other !== undefined) {
      throw new InvalidInputError(`Columns "${other}" and "${column}" both fill the field "${field}"`);
    }
    seen.set(field, column);
  }
  if (!seen.has('id')) throw new InvalidInputError('The mapping must give a column for the field "id"');
}

/** The rows with their cells keyed by the field each column fills; unmapped columns are left out. */
export function mappedRows(
  columns: readonly string[],
  mapping: ColumnMapping,
  rows: readonly FileRow[],
): FieldRow[] {
  const targets = columns.map((column) =>
    column !== '' && Object.hasOwn(mapping, column) ? mapping[column] : undefined,
  );
  return rows.map((row) => {
    const cells: Record<string, string> = {};
    targets.forEach((field, index) => {
      if (field !== undefined) cells[field] = row.cells[index] ?? '';
    });
    return { line: row.line, cells };
  });
}

/** The column that fills `field`, if one does. */
export function columnOf(mapping: ColumnMapping, field: string | null): string | null {
  if (field === null) return null;
  return Object.entries(mapping).find(([, target]) => target === field)?.[0] ?? null;
}
