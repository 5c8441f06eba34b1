import { z } from 'zod';
import { BREAKDOWNS } from '../../engine/breakdown.js';
import { AVERAGE } from '../../engine/reports/cohort.js';
import { defineReport, type ReportDefinition } from './registry.js';
import { cents, reportRangeQuery } from '../report-schemas.js';

const percent = (what: string) => z.number().describe(`${what}, percent with two decimals; 0 without a base`);

const cohortPeriod = z.object({
  mrr_retained: cents.describe("MRR of the cohort's customers at the period's end, base currency"),
  customers_retained: z.number().describe('Customers paying at the period end (a mean, for the average)'),
  mrr_retention: percent('mrr_retained of the initial MRR'),
  customer_retention: percent('customers_retained of the initial customers'),
  nrr: percent('Net revenue retention, the same figure as mrr_retention'),
  mrr_retention_relative: percent('mrr_retained of the period before'),
  customer_retention_relative: percent('customers_retained of the period before'),
  mrr_churn: percent('100 - mrr_retention'),
  customer_churn: percent('100 - customer_retention'),
  mrr_churn_relative: percent('100 - mrr_retention_relative'),
  customer_churn_relative: percent('100 - customer_retention_relative'),
});

const cohort = z.object({
  cohort_group: z
    .string()
    .describe("The period's first day (YYYY-MM-DD), or the breakdown value ('' for none)"),
  label: z.string().describe('2026-03, 2026-Q1, 2026, 2026-W09, or the breakdown value (Not set for none)'),
  initial_mrr: cents.describe("The customers' MRR at the end of their first period"),
  initial_customers: z.number().int().describe('Customers whose first paid day falls in the period'),
  periods: z.array(cohortPeriod).describe('Period 0 is the first period, the last is read on the end date'),
});

const averageCohort = z.object({
  cohort_group: z.literal(AVERAGE),
  label: z.literal('Average'),
  initial_mrr: cents.describe("The cohorts' mean initial_mrr"),
  initial_customers: z.number().describe("The cohorts' mean initial_customers, to two decimals"),
  periods: z.array(cohortPeriod).describe('At each period, the mean of the cohorts that reached it'),
});

const bounds = z.object({ min: z.number(), max: z.number() });

const listResponse = z.object({
  currency: z.string(),
  breakdown: z.string().optional(),
  result: z.object({
    list: z
      .array(z.union([cohort, averageCohort]))
      .describe('The cohorts, oldest first or by value, then the average'),
    limits: z
      .object({ retention: bounds, nrr: bounds, churn: bounds, netChurn: bounds })
      .describe(
        'Smallest and largest customer_retention, mrr_retention, customer_churn, mrr_churn of the cohorts',
      ),
  }),
});

const chartResponse = z.object({
  currency: z.string(),
  breakdown: z.string().optional(),
  result: z.array(
    z.object({
      period: z.number().int(),
      breakdown: z
        .record(
          z.string(),
          cohortPeriod
            .pick({
              mrr_retained: true,
              customers_retained: true,
              mrr_retention: true,
              customer_retention: true,
            })
            .extend({ label: z.string() }),
        )
        .describe('By cohort_group, the cohorts that reached the period, the average last'),
    }),
  ),
});

const cohortQuery = reportRangeQuery.extend({
  date: z
    .string()
    .optional()
    .describe(
      'End date YYYY-MM-DD (cohorts start up to 365 days before), or a range YYYYMMDD-YYYYMMDD; default today',
    ),
  interval: z
    .string()
    .optional()
    .describe('day (aggregated weekly), week, month, quarter or year; default month'),
  fix_fx: z.string().optional().describe('true converts each cohort at the rate of its first day'),
  breakdown: z
    .string()
    .optional()
    .describe(`One cohort per value of country or currency (also: ${BREAKDOWNS.join(', ')}, custom_<key>)`),
  format: z.enum(['chart']).optional().describe('chart: the figures by period index, keyed by cohort'),
});

/** Cohort retention (docs/metrics.md, "Cohorts"). */
export const cohortReports: readonly ReportDefinition[] = [
  defineReport({
    path: '/reports/cohort',
    summary: 'MRR and customers kept by each cohort of customers, period by period from their first payment',
    query: cohortQuery,
    result: z.union([listResponse, chartResponse]),
    run: (services, accountId, query) => {
      const { format, ...raw } = query;
      return format === 'chart'
        ? services.cohort.cohortChart(accountId, raw)
        : services.cohort.cohort(accountId, raw);
    },
  }),
];
