import { z } from 'zod';
import { BREAKDOWNS } from '../../engine/breakdown.js';
import { SUMMARY_SUFFIXES } from '../../engine/reports/summary.js';
import { SELECTED_TYPES } from '../../services/scheduled-reports-service.js';
import { defineReport, type ReportDefinition } from './registry.js';
import { cents, movementItem, reportFilterQuery, reportRangeQuery } from '../report-schemas.js';

const summaryOf = (metric: string, what: string) =>
  z.object(
    Object.fromEntries(
      SUMMARY_SUFFIXES.map((suffix) => [
        `${metric}_${suffix}`,
        cents.describe(suffix === 'current' ? `${what} now` : `${what} as it stood ${suffix} days ago`),
      ]),
    ),
  );

const summaryQuery = reportFilterQuery.extend({
  fix_fx: z.string().optional().describe('true converts every figure at the rates of today'),
});

const movementsQuery = reportFilterQuery.extend({
  'selected-date': z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
    .optional()
    .describe('List only the cancellations of the period holding this day'),
  'selected-type': z
    .enum(Object.keys(SELECTED_TYPES) as [string, ...string[]])
    .optional()
    .describe('The period of selected-date; default the one of interval'),
  interval: z.string().optional().describe('Period of selected-date without selected-type; default month'),
  fix_fx: z.string().optional().describe('true converts at one rate: the period end, or today'),
  breakdown: z
    .string()
    .optional()
    .describe(`Group the list by: ${BREAKDOWNS.join(', ')}, or custom_<key>`),
  'breakdown-value': z.string().optional().describe('Keep only the customers with this breakdown value'),
  sort: z.enum(['date', 'mrr_change']).default('date'),
  order: z.enum(['asc', 'desc']).default('asc'),
});

const seriesRow = z.object({
  date: z.string().describe('First day of the period (YYYY-MM-DD), cut to the range'),
  churn: cents.describe('Cancellations scheduled in the period, negative'),
  contraction: cents.describe('Scheduled downgrades in the period, negative'),
  churn_customers: z.number().int(),
  contraction_customers: z.number().int(),
  total_mrr: cents.describe('churn + contraction'),
  total_customers: z.number().int(),
});

/** Scheduled churn and committed MRR. */
export const scheduledReports: readonly ReportDefinition[] = [
  defineReport({
    path: '/reports/churn-scheduled-movements',
    summary: 'The cancellations subscription records schedule after today, one item each',
    query: movementsQuery,
    result: z.object({ result: z.object({ list: z.array(movementItem) }) }),
    run: (services, accountId, query) => {
      const { sort, order, ...raw } = query;
      return services.scheduledReports.churnScheduledMovements(accountId, raw, {
        sort,
        order,
      });
    },
  }),
  defineReport({
    path: '/reports/churn-scheduled',
    summary: 'MRR scheduled to be lost per period; default the next 365 days',
    query: reportRangeQuery,
    result: z.object({ currency: z.string(), result: z.array(seriesRow) }),
    run: (services, accountId, query) => services.scheduledReports.churnScheduled(accountId, query),
  }),
  defineReport({
    path: '/reports/churn-scheduled-summary',
    summary: 'Scheduled churn now and as it stood 30, 60, 180 and 365 days ago',
    query: summaryQuery,
    result: z.object({
      currency: z.string(),
      summary: summaryOf('churn', 'Scheduled churn (negative)'),
    }),
    run: (services, accountId, query) => services.scheduledReports.churnScheduledSummary(accountId, query),
  }),
  defineReport({
    path: '/reports/cmrr-summary',
    summary: 'Committed MRR now and as it stood 30, 60, 180 and 365 days ago',
    query: summaryQuery,
    result: z.object({ currency: z.string(), summary: summaryOf('cmrr', 'Committed MRR') }),
    run: (services, accountId, query) => services.scheduledReports.cmrrSummary(accountId, query),
  }),
];
