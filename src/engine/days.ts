/**
 * Calendar days as integers (days since 1970-01-01), the unit every engine array is indexed by.
 * The metrics engine converts millions of days per report, so both directions use integer
 * arithmetic on the proleptic Gregorian calendar (H. Hinnant's civil-from-days algorithms)
 * and never allocate a Date. Valid for years 0000 to 9999, the range `YYYY-MM-DD` can write.
 */

// Days from 0000-03-01 (the start of a 400-year era whose years begin in March) to 1970-01-01.
const EPOCH_SHIFT = 719_468;
const DAYS_PER_ERA = 146_097;
const FIRST_DAY = -719_528; // 0000-01-01
const LAST_DAY = 2_932_896; // 9999-12-31

const ZERO = 48; // '0'
const DASH = 45; // '-'

function digit(text: string, index: number): number {
  const value = text.charCodeAt(index) - ZERO;
  return value >= 0 && value <= 9 ? value : Number.NaN;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function invalidDay(text: string): RangeError {
  return new RangeError(`Invalid day "${text}": expected an existing date written YYYY-MM-DD`);
}

/** `'1970-01-02'` -> 1. Throws a RangeError on anything but an existing date in that exact form. */
export function dayNumber(text: string): number {
  if (text.length !== 10 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH) {
    throw invalidDay(text);
  }
  const year = digit(text, 0) * 1000 + digit(text, 1) * 100 + digit(text, 2) * 10 + digit(text, 3);
  const month = digit(text, 5) * 10 + digit(text, 6);
  const day = digit(text, 8) * 10 + digit(text, 9);
  // NaN (a non-digit) fails every comparison, so it lands here too.
  if (!(year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month))) {
    throw invalidDay(text);
  }

  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * DAYS_PER_ERA + dayOfEra - EPOCH_SHIFT;
}

function pad2(value: number): string {
  return value < 10 ? `0${value}` : `${value}`;
}

/** 1 -> `'1970-01-02'`. Throws a RangeError outside 0000-01-01 .. 9999-12-31 or on a non-integer. */
export function dayString(day: number): string {
  if (!Number.isInteger(day) || day < FIRST_DAY || day > LAST_DAY) {
    throw new RangeError(`Day number ${day} is outside the years 0000 to 9999`);
  }
  const z = day + EPOCH_SHIFT;
  const era = Math.floor(z / DAYS_PER_ERA);
  const dayOfEra = z - era * DAYS_PER_ERA;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153); // 0 = March
  const dayOfMonth = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const yyyy = year >= 1000 ? `${year}` : `${year}`.padStart(4, '0');
  return `${yyyy}-${pad2(month)}-${pad2(dayOfMonth)}`;
}

/** `addDays('2024-02-28', 2)` -> `'2024-03-01'`. */
export function addDays(day: string, days: number): string {
  return dayString(dayNumber(day) + days);
}
