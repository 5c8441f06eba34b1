import { z } from 'zod';
import { cents, reportRangeQuery } from '../report-schemas.js';
import { defineReport, type ReportDefinition } from './registry.js';

export const churnReasonReports: readonly ReportDefinition[] = [
  defineReport({
    path: '/reports/churn-reasons-summary',
    summary:
      'Cancellations of the range by the cancel reason their customers record, with a Markdown summary',
    query: reportRangeQuery.omit({ interval: true, fix_fx: true }).extend({
      regenerate: z
        .string()
        .optional()
        .describe('Accepted for compatibility; every answer is computed afresh'),
    }),
    result: z.object({
      currency: z.string(),
      summary: z
        .string()
        .nullable()
        .describe('One Markdown bullet per reason; null when none gives a reason'),
      reason: z.literal('no_comments').optional().describe('Why summary is null'),
      comment_count: z.number().int().describe('Cancellations that give a reason'),
      total_cancellations: z.string().describe('Churn movements of the range, as a decimal string'),
      generated_at: z.string(),
      reasons: z.array(
        z.object({
          reason: z.string().nullable().describe('null for the cancellations without a reason'),
          cancellations: z.number().int(),
          churned_mrr: cents.describe('Positive cents of the base currency'),
          share_pct: z.number().nullable().describe('Share of the cancellations, in %'),
        }),
      ),
    }),
    run: (services, accountId, query) => services.churnReasons.summary(accountId, query),
  }),
];
