/** `/data/uploads`: a CSV or XLSX file, its preview and mapping, and its import (docs/api.md, Uploads). */

export const UPLOAD_KINDS = {
  customers: 'Customers',
  plans: 'Plans',
  invoices: 'Invoices (one row per line)',
  subscriptions: 'Subscriptions',
} as const;
export type UploadKind = keyof typeof UPLOAD_KINDS;

/** The source types a file may go into; the API refuses a billing system's. */
export const UPLOADABLE_TYPES: readonly string[] = ['csv', 'api', 'spreadsheet'];

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface RowError {
  row: number;
  column: string | null;
  message: string;
}

export interface Upload {
  id: string;
  kind: UploadKind;
  state: 'uploaded' | 'running' | 'done' | 'error';
  columns: string[];
  fields: string[];
  mapping: Record<string, string>;
  preview: { row: number; cells: string[] }[];
  rows_total: number;
  rows_done: number;
  rows_imported: number;
  percent: number;
  errors: RowError[];
  error_count: number;
  last_error: string | null;
}

/** The content type to send a chosen file as: by its name, since browsers disagree on `.csv`. */
export function fileType(name: string): string {
  return name.toLowerCase().endsWith('.xlsx') ? XLSX_TYPE : 'text/csv';
}

/**
 * The fields a column of this file may fill: the kind's, and for customers the custom variable
 * the column's own name makes (`custom_<name>`), which the API takes for any key.
 */
export function fieldChoices(upload: Pick<Upload, 'kind' | 'fields'>, column: string): string[] {
  if (upload.kind !== 'customers') return upload.fields;
  const key = column.trim().toLowerCase().replace(/\s+/g, '_');
  return key === '' ? upload.fields : [...upload.fields, `custom_${key}`];
}
