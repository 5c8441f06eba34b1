import { dayNumber } from './days.js';
import type { FxRate } from './fx-table.js';

/** A malformed ECB rate file; `line` is 1-based, as an editor shows it. */
export class EcbCsvError extends Error {
  override name = 'EcbCsvError';
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`Line ${line}: ${reason}`);
  }
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/**
 * The history file writes `2026-04-13`; the ECB's single-day file writes `13 April 2026`.
 * Returns the day as `YYYY-MM-DD`, or undefined when it is neither form of an existing date.
 */
function parseDay(text: string): string | undefined {
  const named = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(text);
  const month = named ? MONTHS.indexOf(named[2]!.toLowerCase()) + 1 : 0;
  const day = named ? `${named[3]}-${String(month).padStart(2, '0')}-${named[1]!.padStart(2, '0')}` : text;
  try {
    dayNumber(day);
    return day;
  } catch {
    return undefined;
  }
}

const RATE = /^\d+(\.\d+)?$/;

/**
 * Parses an ECB reference-rate CSV: a header `Date,USD,JPY,...` and one line per business day
 * with the units of each currency per euro. `N/A` or an empty field is a missing rate, so a
 * currency without any value yields no rows. Both ECB layouts are read: the history file
 * (ISO dates, no spaces) and the single-day file (`13 April 2026`, a space after each comma).
 * The trailing comma the ECB writes on every line makes an unnamed last column, ignored when empty.
 */
export function parseEcbCsv(text: string): FxRate[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = lines[0]!.split(',').map((field) => field.trim());
  if (header[0]?.toLowerCase() !== 'date') {
    throw new EcbCsvError(1, 'expected a header starting with "Date" followed by currency codes');
  }
  const currencies = header.slice(1).map((code, index) => {
    if (code === '' && index === header.length - 2) return '';
    if (!/^[A-Z]{3}$/.test(code)) throw new EcbCsvError(1, `"${code}" is not a currency code`);
    if (code === 'EUR') throw new EcbCsvError(1, 'EUR is the base of the rates and cannot be a column');
    return code.toLowerCase();
  });
  if (new Set(currencies).size !== currencies.length) {
    throw new EcbCsvError(1, 'a currency appears in more than one column');
  }

  const rates: FxRate[] = [];
  const seenDays = new Set<string>();
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === '') continue;
    const fields = line.split(',');
    if (fields.length !== header.length) {
      throw new EcbCsvError(index + 1, `${fields.length} fields, the header has ${header.length}`);
    }
    const dayText = fields[0]!.trim();
    const day = parseDay(dayText);
    if (day === undefined) throw new EcbCsvError(index + 1, `"${dayText}" is not a date`);
    if (seenDays.has(day)) throw new EcbCsvError(index + 1, `${day} appears twice`);
    seenDays.add(day);
    for (let column = 1; column < fields.length; column++) {
      const value = fields[column]!.trim();
      if (value === '' || value === 'N/A') continue;
      const currency = currencies[column - 1]!;
      if (currency === '' || !RATE.test(value) || Number(value) === 0) {
        const name = currency === '' ? 'the unnamed last column' : currency.toUpperCase();
        throw new EcbCsvError(index + 1, `"${value}" in ${name} is not a positive rate`);
      }
      rates.push({ day, currency, perEur: Number(value) });
    }
  }
  return rates;
}
