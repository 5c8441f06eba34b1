import { z } from 'zod';
import { BREAKDOWNS } from '../../engine/breakdown.js';
import { MAX_TRAILING_MONTHS } from '../../services/limits.js';
import { defineReport, type ReportDefinition } from './registry.js';
import { cents, reportRangeQuery } from '../report-schemas.js';

// The reference types these as numbers: 0 with nothing to divide by or average (docs/decisions.md).
const rate = (what: string) => z.number().describe(`${what}, percent; 0 with nothing to divide by`);
const count = z.number().int();

const countryFigures = z.object({
  current_mrr: cents.describe('MRR on the last day of the range'),
  subscribers: count.describe('Customers paying on the last day of the range'),
  arpa: cents.describe('current_mrr / subscribers; 0 without subscribers'),
  asp: cents.describe('New MRR of the range / new customers; 0 without new customers'),
  customer_churn_rate: rate('Mean monthly customer churn over the months of the range'),
  net_mrr_churn: rate('Mean monthly net MRR churn (100 - NRR) over the months of the range'),
  ltv: cents.describe('arpa / customer_churn_rate; 0 without churn'),
  leads: count.describe('Customers created in the range'),
  leads_converted: count.describe('Of those, paying by the end of the range'),
  lead_conversion_rate: rate('leads_converted / leads'),
  new_trials: count.describe('Trials started in the range'),
  trials_converted: count.describe('Of those, paying by the end of the range'),
  trial_conversion_rate: rate('trials_converted / new_trials'),
  payment_failure_rate: rate(
    'Invoices whose first failed payment is in the range / invoices attempted in it',
  ),
  mrr_percent: rate("The country's share of current MRR"),
  subscribers_percent: rate("The country's share of subscribers"),
  leads_percent: rate("The country's share of leads"),
  trials_percent: rate("The country's share of new trials"),
});

const mapQuery = reportRangeQuery.omit({ interval: true });

const retentionQuery = reportRangeQuery.extend({
  breakdown: z
    .string()
    .optional()
    .describe(`One series per value of: ${BREAKDOWNS.join(', ')}, or custom_<key>`),
  trailing_months: z
    .string()
    .optional()
    .describe(
      `How many months before each row's date its cohort is taken, 1 to ${MAX_TRAILING_MONTHS}; ` +
        'default 1, 3 for quarters, 12 for years',
    ),
});

const retentionRow = z.object({
  date: z.string().describe('Last day of the period (YYYY-MM-DD), cut to the range: the target day'),
  baseline_date: z.string().describe('The day the cohort is taken: trailing_months before the target day'),
  baseline_mrr: cents.describe("The cohort's MRR on the baseline day, at that day's rate"),
  target_mrr: cents.describe("The same customers' MRR on the target day"),
  grr_mrr: cents.describe('target_mrr with each customer capped at its baseline MRR'),
  cohort_customers: count.describe('Customers paying on the baseline day'),
  retained_customers: count.describe('Of those, paying on the target day'),
  churned_customers: count,
  expansion: cents,
  expansion_customers: count,
  contraction: cents,
  contraction_customers: count,
  churn: cents,
  churn_customers: count,
  reactivation: cents.describe('Cohort customers who churned and came back inside the window'),
  reactivation_customers: count,
  fx_adjustment: cents.describe('target_mrr - baseline_mrr - the movements; 0 with fix_fx'),
  nrr: rate('target_mrr / baseline_mrr'),
  grr: rate('grr_mrr / baseline_mrr, never above 100'),
  customer_retention_rate: rate('retained_customers / cohort_customers'),
  customer_churn_rate: rate('churned_customers / cohort_customers'),
  mrr_churn_rate: rate('100 - grr'),
  net_mrr_churn_rate: rate('100 - nrr'),
  nrr_avg: rate('Mean nrr of the rows of the trailing 12 months'),
  grr_avg: rate('Mean grr of the rows of the trailing 12 months'),
  customer_retention_avg: rate('Mean customer_retention_rate of the trailing 12 months'),
  customer_churn_avg: rate('Mean customer_churn_rate of the trailing 12 months'),
  mrr_churn_avg: rate('Mean mrr_churn_rate of the trailing 12 months'),
  net_mrr_churn_avg: rate('Mean net_mrr_churn_rate of the trailing 12 months'),
  arpa: cents.describe('target_mrr / retained_customers; 0 without retained customers'),
  ltv: cents.describe('arpa / the monthly customer churn rate of customer_churn_avg; 0 without churn'),
  customer_lifetime: z.number().describe('Months: 1 / that monthly churn rate; 0 without churn'),
  breakdown_value: z.string().nullable().optional().describe('With breakdown: the value of this series'),
});

/** The world map and retention reports (in the hosted service's shapes). */
export const mapRetentionReports: readonly ReportDefinition[] = [
  defineReport({
    path: '/reports/map',
    summary: 'Per-country figures as of the range end, keyed by lower-case country code',
    query: mapQuery,
    result: z.object({
      currency: z.string(),
      result: z.object({
        list: z.record(z.string(), countryFigures),
        unknown: countryFigures.nullable().describe('The customers without a country'),
      }),
    }),
    run: (services, accountId, query) => services.mapRetention.map(accountId, query),
  }),
  defineReport({
    path: '/reports/retention',
    summary: 'NRR, GRR, customer retention and churn per period, with trailing averages and LTV',
    query: retentionQuery,
    result: z.object({
      currency: z.string(),
      breakdown: z.string().optional(),
      result: z.array(retentionRow),
      trailing_months: count,
      baseline_period: z.string().describe("First day of the period of the first row's baseline"),
      target_period: z.string().describe("First day of the last row's period"),
    }),
    run: (services, accountId, query) => services.mapRetention.retention(accountId, query),
  }),
];
