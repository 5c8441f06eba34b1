import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import type { FileRow, UploadFormat } from '../store/uploads-repo.js';
import { InvalidInputError, TooLargeError } from './errors.js';
import { MAX_UPLOAD_COLUMNS, MAX_UPLOAD_ROWS } from './limits.js';
import { unstorableReason } from './storable-text.js';

/** A file read into text cells: the header's column names and the rows under it. */
export interface ReadFile {
  columns: string[];
  rows: FileRow[];
}

/** A row as read, before it is squared to the header's width. */
interface RawRow {
  line: number;
  cells: string[];
}

function readCsv(bytes: Buffer): RawRow[] {
  try {
    const records = parse(bytes, {
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    return records.map(({ record, info }) => ({ line: info.lines, cells: record }));
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    const where = line === undefined ? '' : ` at row ${line}`;
    throw new InvalidInputError(`Malformed CSV${where}: ${(error as Error).message}`);
  }
}

/** A date cell as the `/data` fields read it: the day alone when it has no time of day. */
function dateText(date: Date): string {
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}

/** The text of a cell's value: a formula's result, rich text's characters, a link's text. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return dateText(value);
  if (typeof value !== 'object') return String(value);
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('formula' in value || 'sharedFormula' in value) return cellText(value.result);
  if ('text' in value) return cellText(value.text);
  if ('error' in value) return value.error;
  return '';
}

/** The first worksheet's rows, numbered as the sheet numbers them. */
async function readXlsx(bytes: Buffer): Promise<RawRow[]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (error) {
    throw new InvalidInputError(`Unreadable XLSX file: ${(error as Error).message}`);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new InvalidInputError('The XLSX file has no worksheet');
  const rows: RawRow[] = [];
  sheet.eachRow((row, line) => {
    // `values` starts at index 1, for column A.
    const values = (row.values as ExcelJS.CellValue[]).slice(1);
    rows.push({ line, cells: Array.from(values, (value) => cellText(value).trim()) });
  });
  return rows;
}

/** Refuses a file with a cell no store can keep, naming its row and column. */
function checkStorable(header: RawRow, rows: readonly RawRow[]): void {
  for (const row of [header, ...rows]) {
    row.cells.forEach((cell, index) => {
      const reason = unstorableReason(cell);
      if (reason === undefined) return;
      const column = row === header ? `column ${index + 1}` : `column "${header.cells[index] ?? index + 1}"`;
      throw new InvalidInputError(`Invalid cell at row ${row.line}, ${column}: ${reason}`);
    });
  }
}

/**
 * Reads an uploaded file: its first row is the header; each row under it keeps its row number
 * in the file (the header's is 1 when it is the file's first row) and has one cell per column.
 */
export async function readUploadedFile(bytes: Buffer, format: UploadFormat): Promise<ReadFile> {
  const read = format === 'csv' ? readCsv(bytes) : await readXlsx(bytes);
  // A row of empty cells (a CSV line of commas, a formatted but empty sheet row) holds nothing.
  const [header, ...rows] = read.filter((row) => row.cells.some((cell) => cell !== ''));
  if (!header) throw new InvalidInputError('The file is empty: it needs a header row');
  if (rows.length > MAX_UPLOAD_ROWS) {
    throw new TooLargeError(`A file may hold at most ${MAX_UPLOAD_ROWS} rows; this one has ${rows.length}`);
  }
  checkStorable(header, rows);
  const columns = header.cells;
  if (columns.length > MAX_UPLOAD_COLUMNS) {
    throw new InvalidInputError(
      `A file may have at most ${MAX_UPLOAD_COLUMNS} columns; this one has ${columns.length}`,
    );
  }
  const named = columns.filter((column) => column !== '');
  const repeated = named.find((column, index) => named.indexOf(column) !== index);
  if (repeated !== undefined) throw new InvalidInputError(`Column "${repeated}" appears twice in the header`);
  const width = columns.length;
  return {
    columns,
    rows: rows.map((row) => ({
      line: row.line,
      cells: Array.from({ length: width }, (_, index) => row.cells[index] ?? ''),
    })),
  };
}
