import { z } from 'zod';
import { LEADS_SUMMARY_STAGES } from '../../engine/reports/leads-summary.js';
import { SUMMARY_OFFSETS } from '../../engine/reports/summary.js';
import { pageQuery } from '../data-schemas.js';
import { listOf } from '../schemas.js';
import { defineReport, type ReportDefinition } from './registry.js';
import { reportFilterQuery, reportRangeQuery } from '../report-schemas.js';

const count = z.number().int();
const percent = z.number().nullable().describe('Percent, two decimals; null when nothing to divide by');
/** The reference types the rows' rates and days as numbers: 0 where nothing was counted (docs/decisions.md). */
const rowPercent = z.number().describe('Percent, two decimals; 0 when nothing to divide by');
const change = z
  .number()
  .nullable()
  .describe('Percentage change from the row before; null on the first row or from 0');
const days = z.number().int().nullable().describe('Whole days on average; null without conversions');
const rowDays = z.number().int().describe('Whole days on average; 0 without conversions');

const leadsRow = z.object({
  date: z.string().describe('First day of the period (YYYY-MM-DD), cut to the range'),
  leads: count.describe('Customers created in the period'),
  leads_percent_change: change,
  trials: count.describe('Trials started in the period'),
  trials_percent_change: change,
  leads_converted: count.describe('Leads of the period paying by today'),
  trials_converted: count.describe('Trials of the period paying by today'),
  lead_to_trial_rate: rowPercent.describe(
    'Leads of the period who started a trial by today, in % of its leads',
  ),
  lead_to_trial_rate_percent_change: change,
  trial_to_paid_rate: rowPercent.describe('trials_converted in % of trials'),
  trial_to_paid_rate_percent_change: change,
  lead_to_paid_rate: rowPercent.describe('leads_converted in % of leads'),
  lead_to_paid_rate_percent_change: change,
  lead_to_paid_days: rowDays.describe('Average days from lead to paid of leads_converted'),
  trial_to_paid_days: rowDays.describe('Average days from trial start to paid of trials_converted'),
  leads_forecast: count.optional().describe('Only on the period holding today: leads expected by its end'),
  trials_forecast: count.optional().describe('Only on the period holding today: trials expected by its end'),
  conversions_forecast: count
    .optional()
    .describe('Only on the period holding today: leads_converted expected by its end'),
  trial_to_paid_rate_forecast: z
    .number()
    .optional()
    .describe('Only on the period holding today: the trial-to-paid rate a linear forecast keeps'),
});

/** In the reference's order: every count, then every change. */
const leadsSummary = z.object(
  Object.fromEntries([
    ...LEADS_SUMMARY_STAGES.flatMap((stage) =>
      SUMMARY_OFFSETS.map((length) => [
        `${stage}_${length}`,
        count.describe(`The ${stage} of the last ${length} days`),
      ]),
    ),
    ...LEADS_SUMMARY_STAGES.flatMap((stage) =>
      SUMMARY_OFFSETS.map((length) => [
        `${stage}_percentage_change_${length}`,
        z.number().nullable().describe(`Percentage change from the ${length} days before; null from 0`),
      ]),
    ),
  ]),
);

const leadsDaysBucket = z.object({
  bucket: z.string().describe('0, 1-7, 8-14, 15-30, 31-60, 61-90, 91-180, 181-365 or 366+'),
  min_days: count,
  max_days: count.nullable().describe('Inclusive; null for the last, open bucket'),
  customers: count.describe('Converted leads whose days from lead to paid fall in the bucket'),
  percent: percent.describe('Share of the converted leads in %; null when none converted'),
});

const withoutFixFx = reportRangeQuery.omit({ fix_fx: true });

/** The lead and trial funnel: counts, no money, so `currency` only echoes the base currency. */
export const leadsReports: readonly ReportDefinition[] = [
  defineReport({
    path: '/reports/leads',
    summary: 'Leads, trials, conversions and their rates per period; default the last 365 days',
    query: withoutFixFx,
    result: z.object({ currency: z.string(), result: z.array(leadsRow) }),
    run: (services, accountId, query) => services.leads.leads(accountId, query),
  }),
  defineReport({
    path: '/reports/leads-summary',
    summary: 'Leads and trials of the last 30, 60, 180 and 365 days, with percentage changes',
    query: reportFilterQuery.extend({
      date: z
        .string()
        .optional()
        .describe('Range YYYYMMDD-YYYYMMDD: the windows end on its last day; default today'),
    }),
    result: z.object({ currency: z.string(), summary: leadsSummary }),
    run: (services, accountId, query) => services.leads.leadsSummary(accountId, query),
  }),
  defineReport({
    path: '/reports/leads-days',
    summary: 'How many days the leads of the range took to start paying, by bucket',
    query: withoutFixFx.omit({ interval: true }),
    result: z.object({
      currency: z.string(),
      result: z.array(leadsDaysBucket),
      summary: z.object({
        leads: count.describe('Leads created in the range'),
        converted: count.describe('Of those, paying by today'),
        average_days: days,
      }),
    }),
    run: (services, accountId, query) => services.leads.leadsDays(accountId, query),
  }),
  defineReport({
    path: '/reports/leads-table',
    summary: 'The leads created in the range, newest first, each at the funnel stage it reached by today',
    query: withoutFixFx.omit({ interval: true }).extend(pageQuery.shape),
    result: listOf(
      z.object({
        id: z.string(),
        name: z.string().nullable(),
        email: z.string().nullable(),
        created_date: z.string().describe('Its day as a lead (YYYY-MM-DD)'),
        status: z.enum(['lead', 'trial', 'converted']).describe('The stage reached by today'),
        trial_start_date: z.string().nullable(),
        paid_start_date: z.string().nullable(),
        days_to_paid: days.describe('Days from lead to paid; null unless converted'),
      }),
    ).extend({ currency: z.string() }),
    run: (services, accountId, query) => {
      const { limit, offset, ...raw } = query;
      return services.leads.leadsTable(accountId, raw, { limit, offset });
    },
  }),
];
