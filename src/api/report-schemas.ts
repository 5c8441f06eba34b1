import { z } from 'zod';
import { MOVEMENT_SUBTYPES } from '../engine/vocabulary.js';
import { authErrors, errorSchema } from './schemas.js';

const multi = (what: string) => z.string().optional().describe(`${what}; space-separated, ~x excludes x`);

/**
 * The filters and currency every report and `/customers` accept. Here they are only strings:
 * services/report-query.ts parses and checks them once, so every report reports the same errors.
 * Custom variables come as `custom_<key>` parameters, values separated by `~~`.
 */
export const reportFilterQuery = z
  .object({
    baseCurrency: z.string().optional().describe('ISO 4217 code to convert to; default the account currency'),
    region: multi('Country codes or named regions (eu, dach, nordics, north_america, latam, apac, ...)'),
    currency: multi('Customer currencies'),
    industry: multi('Values of the custom variable industry'),
    channel: multi('Values of the custom variable channel'),
    size: multi('Values of the custom variable size'),
    plan: multi('Plan group ids'),
    data_source: multi('Data source ids'),
    billing_freq: multi('Billing frequencies: day, week, month, quarter, year'),
    age: multi('Months since the first payment, ranges M-N or M-'),
    customer: z.string().optional().describe('One customer id'),
    state: multi('US or Canadian state codes'),
    cancel_reason: multi('Cancellation reasons'),
    status: multi('Customer status at the end of the range: cancelled (paid, and has no MRR left) or active'),
    payment_method: multi("Payment methods of the customer's transactions (visa, sepa, ...)"),
    pricing_model: multi('Pricing models of the plans billed on: licensed, metered'),
    has_discount: z
      .string()
      .optional()
      .describe("true or false: whether the customer's latest subscription invoice gives a discount"),
    segment: z.string().optional().describe('A saved segment id: its filters apply as well'),
  })
  .catchall(z.string());

export const reportRangeQuery = reportFilterQuery.extend({
  date: z.string().optional().describe('Range YYYYMMDD-YYYYMMDD; default the last 365 days'),
  interval: z.string().optional().describe('day, week, month, quarter or year; default month'),
  fix_fx: z
    .string()
    .optional()
    .describe('true converts every amount at the rate of the last day of the range'),
});

export const reportErrors = { 400: errorSchema, ...authErrors } as const;

export const cents = z.number().int();

export const movementKind = z.enum(['new', 'expansion', 'contraction', 'churn', 'reactivation']);

export const movementSubtype = z
  .enum(MOVEMENT_SUBTYPES)
  .describe('Why the movement happened: what changed in the subscriptions, or how the customer left');

export const movementItem = z.object({
  date: z.string(),
  currency: z.string().describe("The customer's currency"),
  customer_id: z.string(),
  customer_name: z.string().nullable(),
  customer_email: z.string().nullable(),
  type: movementKind,
  subtype: movementSubtype,
  mrr_change: cents.describe("Cents of the customer's currency"),
  mrr_change_base_currency: cents,
  description: z.string(),
});

/** An integer query parameter within `[min, max]`, `fallback` when absent. */
export const intParam = (min: number, max: number, fallback: number) =>
  z.coerce
    .number()
    .int('must be an integer')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`)
    .default(fallback);
