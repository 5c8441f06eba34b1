import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BREAKDOWNS } from '../engine/breakdown.js';
import { SUMMARY_OFFSETS } from '../engine/reports/summary.js';
import type { Services } from '../services/index.js';
import { COMPARES } from '../services/reports-service.js';
import { authOf } from './auth.js';
import { reportFilterQuery, reportRangeQuery } from './report-schemas.js';
import { authErrors, errorSchema } from './schemas.js';

const cents = z.number().int();
const nullableRatio = z.number().nullable().describe('null when the denominator is 0');

const mrrRow = z.object({
  date: z.string().describe('First day of the period (YYYY-MM-DD), cut to the range'),
  end_date: z.string().describe('Last day of the period, inclusive, cut to the range'),
  new: cents,
  expansion: cents,
  contraction: cents,
  churn: cents,
  reactivation: cents,
  mrr_diff: cents.describe('total_mrr minus the previous total_mrr'),
  net_mrr_diff: cents.describe('The five movements added up'),
  fx_adjustment: cents.describe('What exchange rates moving added: mrr_diff - net_mrr_diff'),
  customers_diff: z.number().int(),
  new_customers: z.number().int(),
  expansion_customers: z.number().int(),
  contraction_customers: z.number().int(),
  churn_customers: z.number().int(),
  reactivation_customers: z.number().int(),
  total_mrr: cents,
  total_arr: cents,
  total_customers: z.number().int(),
  arpa: cents.nullable(),
  asp: cents.nullable(),
  quick_ratio: nullableRatio,
});

const summaryFields: Record<string, z.ZodNullable<z.ZodNumber>> = Object.fromEntries(
  ['mrr', 'arr', 'subscribers', 'arpa'].flatMap((metric) => [
    ...['current', ...SUMMARY_OFFSETS].map(
      (suffix) => [`${metric}_${suffix}`, z.number().nullable()] as const,
    ),
    ...SUMMARY_OFFSETS.map((offset) => [`${metric}_percentage_change_${offset}`, nullableRatio] as const),
  ]),
);

const reportErrors = { 400: errorSchema, ...authErrors } as const;

export function reportRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Reports'];

    app.get(
      '/reports/summary',
      {
        schema: {
          tags,
          summary: 'MRR, ARR, subscribers and ARPA now and 30, 60, 180 and 365 days ago',
          querystring: reportFilterQuery.extend({ fix_fx: z.string().optional() }),
          response: {
            200: z.object({ currency: z.string(), summary: z.object(summaryFields) }),
            ...reportErrors,
          },
        },
      },
      (request) => services.reports.summary(authOf(request).accountId, request.query),
    );

    app.get(
      '/reports/mrr',
      {
        schema: {
          tags,
          summary: 'MRR per period with its movements; optionally by breakdown, compared, or committed',
          querystring: reportRangeQuery.extend({
            breakdown: z
              .string()
              .optional()
              .describe(`One series per value of: ${BREAKDOWNS.join(', ')}, or custom_<key>`),
            compare: z
              .string()
              .optional()
              .describe(`Also the rows of a comparison range: ${COMPARES.join(' or ')}`),
            committed: z.string().optional().describe('true counts movements scheduled after today (CMRR)'),
          }),
          response: {
            200: z.object({
              currency: z.string(),
              breakdown: z.string().optional(),
              result: z.array(mrrRow.extend({ breakdown_value: z.string().nullable().optional() })),
              compare: z.array(mrrRow).optional(),
            }),
            ...reportErrors,
          },
        },
      },
      (request) => services.reports.mrr(authOf(request).accountId, request.query),
    );
  };
}
