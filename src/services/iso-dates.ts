import { FIRST_RECORD_YEAR, LAST_RECORD_YEAR } from './limits.js';

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

interface Parts {
  day: string;
  /** Whole input with a time zone, for Date; absent when only a calendar day was given. */
  instant?: string;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// Checked by arithmetic rather than through Date: imports parse several dates per invoice. Year 0
// exists in ISO 8601 but not in PostgreSQL, so the years are those both can store.
function isRealDay(year: number, month: number, day: number): boolean {
  if (year < FIRST_RECORD_YEAR || year > LAST_RECORD_YEAR) return false;
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}

const ZERO = 48;

/** The number written by the digits at [start, end), or -1 if one of them is not a digit. */
function digitsAt(text: string, start: number, end: number): number {
  let value = 0;
  for (let index = start; index < end; index += 1) {
    const digit = text.charCodeAt(index) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

// Imports carry several plain `YYYY-MM-DD` days per invoice: read them without the pattern.
function plainDay(text: string): Parts | undefined {
  if (text.length !== 10 || text[4] !== '-' || text[7] !== '-') return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  return isRealDay(year, month, day) ? { day: text } : undefined;
}

function parts(text: string): Parts | undefined {
  const plain = plainDay(text);
  if (plain) return plain;
  const match = DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, dayOfMonth, hour, minute, second, fraction, zone] = match;
  if (!isRealDay(Number(year), Number(month), Number(dayOfMonth))) return undefined;
  const day = `${year}-${month}-${dayOfMonth}`;
  if (hour === undefined) return { day };
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59) return undefined;
  const millis = (fraction ?? '').padEnd(3, '0').slice(0, 3);
  const offset = zone === undefined || zone.toUpperCase() === 'Z' ? 'Z' : normaliseOffset(zone);
  if (offset === undefined) return undefined;
  return { day, instant: `${day}T${hour}:${minute}:${second ?? '00'}.${millis}${offset}` };
}

/** Real offsets run from -12:00 to +14:00; `+25:00` would otherwise reach Date as an invalid time. */
const MAX_OFFSET_HOURS = 14;

function normaliseOffset(zone: string): string | undefined {
  const digits = zone.slice(1).replace(':', '').padEnd(4, '0');
  const hours = digits.slice(0, 2);
  const minutes = digits.slice(2);
  if (Number(hours) > MAX_OFFSET_HOURS || Number(minutes) > 59) return undefined;
  return `${zone[0]}${hours}:${minutes}`;
}

/**
 * An ISO 8601 date or date-time as a UTC instant (`2025-01-15T00:00:00.000Z`). A calendar day
 * means its midnight UTC and a time without a zone is UTC, so the stored instant never
 * depends on the server's time zone.
 */
export function parseIsoInstant(text: string): string | undefined {
  const parsed = parts(text);
  if (!parsed) return undefined;
  if (parsed.instant === undefined) return `${parsed.day}T00:00:00.000Z`;
  // Already in the stored form unless an offset has to be applied.
  if (parsed.instant.endsWith('Z')) return parsed.instant;
  // An offset can carry the first or last day of the years out of them.
  const instant = new Date(parsed.instant);
  const year = instant.getUTCFullYear();
  return year >= FIRST_RECORD_YEAR && year <= LAST_RECORD_YEAR ? instant.toISOString() : undefined;
}

/** The calendar day of an ISO 8601 date or date-time, as written (`YYYY-MM-DD`). */
export function parseIsoDay(text: string): string | undefined {
  return parts(text)?.day;
}
