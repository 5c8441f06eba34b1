import { z } from 'zod';
import { normaliseCountry } from '../engine/country-codes.js';
import { normaliseCurrency } from '../engine/currency-codes.js';
import { parseIsoDay, parseIsoInstant } from './iso-dates.js';
import { MAX_EXTERNAL_ID_LENGTH, MAX_STORED_INTEGER } from './limits.js';

/** Field schemas shared by the raw record types; each failure message reads after the field name. */

export const externalId = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_EXTERNAL_ID_LENGTH, `must be at most ${MAX_EXTERNAL_ID_LENGTH} characters`);

export const shortText = z.string().max(1000, 'must be at most 1000 characters');

export const instant = z
  .string()
  .transform((text, ctx) => parseIsoInstant(text) ?? invalid(ctx, 'must be an ISO 8601 date or timestamp'))
  .describe('ISO 8601 date or timestamp; stored as an instant (a date means midnight UTC)');

export const day = z
  .string()
  .transform((text, ctx) => parseIsoDay(text) ?? invalid(ctx, 'must be an ISO 8601 date (YYYY-MM-DD)'))
  .describe('ISO 8601 date; a timestamp is cut to its date as written');

export const currency = z
  .string()
  .transform(
    (code, ctx) => normaliseCurrency(code) ?? invalid(ctx, `"${code}" is not an ISO 4217 currency code`),
  )
  .describe('ISO 4217 code in any case, stored lower case');

export const country = z
  .string()
  .transform(
    (code, ctx) =>
      normaliseCountry(code) ?? invalid(ctx, `"${code}" is not an ISO 3166-1 alpha-2 country code`),
  )
  .describe('ISO 3166-1 alpha-2 code in any case, stored upper case');

export const cents = z
  .number()
  .int('must be an integer number of cents')
  .refine(Number.isSafeInteger, 'is too large')
  .describe('Integer amount in the smallest currency unit');

/** A whole number kept in a PostgreSQL `integer` column, from `min` up. */
export function storedCount(min: 0 | 1) {
  return z
    .number()
    .int('must be an integer')
    .min(min, min === 0 ? 'must not be negative' : 'must be at least 1')
    .max(MAX_STORED_INTEGER, `must be at most ${MAX_STORED_INTEGER}`);
}

export const positiveCount = storedCount(1);

/** The data source a record belongs to; absent means the account's default "API" source. */
export const dataSourceRef = z
  .string()
  .describe('Data source id (UUID); default: the account\'s "API" source');

function invalid(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}
