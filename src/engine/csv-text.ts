export type CsvValue = string | number | boolean | null | undefined;

/**
 * A spreadsheet opens a cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return,
 * which some strip first) as a formula, so a customer named `=HYPERLINK(...)` could run one. Text
 * that starts so is prefixed with an apostrophe, which spreadsheets show as text; numbers are
 * written as they are, since a negative amount is data, not a formula.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record with its CRLF line end (RFC 4180). */
export function csvLine(values: readonly CsvValue[]): string {
  return values.map(csvCell).join(',') + '\r\n';
}
