import { z } from 'zod';
import { pageQuery } from '../data-schemas.js';
import { cents, reportRangeQuery } from '../report-schemas.js';
import { listOf } from '../schemas.js';
import { defineReport, type ReportDefinition } from './registry.js';

const days = z.number().int();
const rangeQuery = reportRangeQuery.omit({ interval: true, fix_fx: true });

export const churnReports: readonly ReportDefinition[] = [
  defineReport({
    path: '/reports/churn-reasons-summary',
    summary:
      'Cancellations of the range by the cancel reason their customers record, with a Markdown summary',
    query: rangeQuery.extend({
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
    madeEachTime: true,
    run: (services, accountId, query) => services.churn.reasonsSummary(accountId, query),
  }),
  defineReport({
    path: '/reports/cancellation-timing',
    summary: 'How long the customers who churned in the range had been paying, by bucket of days',
    query: rangeQuery,
    result: z.object({
      currency: z.string(),
      result: z.array(
        z.object({
          bucket: z.string().describe('0-30, 31-90, 91-180, 181-365, 366-730 or 731+'),
          min_days: days,
          max_days: days.nullable().describe('Inclusive; null for the last, open bucket'),
          cancellations: days,
          churned_mrr: cents.describe('Positive cents of the base currency'),
          percent: z.number().nullable().describe('Share of the cancellations, in %; null without any'),
        }),
      ),
      summary: z.object({ cancellations: days, average_days: days.nullable() }),
    }),
    run: (services, accountId, query) => services.churn.timing(accountId, query),
  }),
  defineReport({
    path: '/reports/cancellation-timing-detail',
    summary: 'The churns of the range, newest first, with the days each customer had been paying',
    query: rangeQuery.extend(pageQuery.shape),
    result: listOf(
      z.object({
        date: z.string().describe('The day of the churn'),
        customer_id: z.string(),
        customer_name: z.string().nullable(),
        customer_email: z.string().nullable(),
        paid_start_date: z.string().describe('The last new or reactivation before the churn'),
        days_active: days,
        churned_mrr: cents.describe('Positive cents of the base currency'),
        cancel_reason: z.string().nullable(),
      }),
    ).extend({ currency: z.string() }),
    run: (services, accountId, query) => {
      const { limit, offset, ...raw } = query;
      return services.churn.timingDetail(accountId, raw, { limit, offset });
    },
  }),
];
