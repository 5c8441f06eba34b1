import type { Row } from './db.js';

function field(value: unknown, sqlType: string): string {
  if (value === null || value === undefined) return '';
  // A json column takes the value as JSON text, strings included.
  if (sqlType === 'json' || sqlType === 'jsonb') return quoted(JSON.stringify(value));
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // Any other value as its JSON text, as `json_to_recordset` would read it into a text column.
  return quoted(JSON.stringify(value));
}

// Every string is quoted, so an unquoted empty field can only be NULL, as COPY reads it.
function quoted(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * Rows as COPY's CSV input: a leading column with the same value on every row, then the
 * columns in the order given, each value written as its SQL type's text input reads it.
 */
export function csvRows(lead: string, columns: Record<string, string>, rows: readonly Row[]): string {
  const names = Object.keys(columns);
  const prefix = `${quoted(lead)},`;
  const lines = rows.map((row) => prefix + names.map((name) => field(row[name], columns[name]!)).join(','));
  return `${lines.join('\n')}\n`;
}
