import type { Interval } from '../engine/periods.js';

/**
 * The most one request may ask for, so that no body or query can make the server work or
 * answer without bound. Each is documented in docs/api.md ("Limits").
 */

/** Characters of an external id (customers, plans, invoices, ...), and so of a path parameter. */
export const MAX_EXTERNAL_ID_LENGTH = 255;

/** Items in one bulk write body; more is a 413. */
export const MAX_BULK_ITEMS = 10_000;

/** `limit` of every paged list (`/data/*`, `/customers`, report details); default 100. */
export const MAX_LIST_LIMIT = 10_000;
export const DEFAULT_LIST_LIMIT = 100;

/** `offset` of every paged list: more than any account holds, and within a PostgreSQL integer. */
export const MAX_LIST_OFFSET = 1_000_000_000;

/** `limit` and `days` of `/reports/latest-activity`. */
export const MAX_ACTIVITY_ITEMS = 100;
export const MAX_ACTIVITY_DAYS = 365;

/** `limit` of `/reports/custom-variables`. */
export const MAX_CUSTOM_VARIABLE_VALUES = 100;

/** `trailing_months` of `/reports/retention`. */
export const MAX_TRAILING_MONTHS = 120;

/** Every day a report is asked about (`date`, `selected-date`, `compareMonth`) lies in these years. */
export const FIRST_REPORT_YEAR = 1970;
export const LAST_REPORT_YEAR = 2100;

/**
 * Periods one report range may hold per interval: each is a row (per breakdown value), so
 * these keep an answer to a few MB. Months and longer are bounded by the years above alone.
 */
export const MAX_REPORT_PERIODS: Readonly<Partial<Record<Interval, number>>> = {
  day: 3_700,
  week: 1_000,
};

/**
 * Cohorts one cohort report may hold: its triangle grows with the square of the cohorts, and
 * 120 of them make about 7,300 cells.
 */
export const MAX_COHORTS = 120;

/**
 * Values a `breakdown` may split a report into, and the rows all its series may make: each
 * value is a series computed on its own, and 100,000 rows keep an answer to some tens of MB.
 */
export const MAX_BREAKDOWN_VALUES = 500;
export const MAX_BREAKDOWN_ROWS = 100_000;

/** Timestamps and days of stored records lie in these years, the span PostgreSQL and the engine share. */
export const FIRST_RECORD_YEAR = 1;
export const LAST_RECORD_YEAR = 9999;

/** A whole-number field stored in a PostgreSQL `integer` (quantities, counts). */
export const MAX_STORED_INTEGER = 2_147_483_647;

/** Rows of one uploaded file (header not counted); more is a 413. The body limit applies too. */
export const MAX_UPLOAD_ROWS = 100_000;

/** Columns of one uploaded file's header. */
export const MAX_UPLOAD_COLUMNS = 200;
