import { type CsvValue, csvLine } from '../engine/csv-text.js';

/** Spreadsheet-safe, as the server's exports (docs/api.md, "Exports"). */
export function toCsv(header: string[], rows: CsvValue[][]): string {
  return [header, ...rows].map(csvLine).join('');
}

/** Saves what a chart or table shows, as the API gave it (amounts in cents). */
export function downloadCsv(filename: string, header: string[], rows: CsvValue[][]): void {
  const url = URL.createObjectURL(new Blob([toCsv(header, rows)], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  URL.revokeObjectURL(url);
}
