import { z } from 'zod';
import { BREAKDOWNS } from '../../engine/breakdown.js';
import { TOP_COUNTS } from '../../engine/reports/concentration.js';
import { SUMMARY_OFFSETS } from '../../engine/reports/summary.js';
import { MAX_ACTIVITY_DAYS, MAX_ACTIVITY_ITEMS } from '../../services/limits.js';
import { SUBTYPE_BREAKDOWN } from '../../services/report-query.js';
import { COMPARES } from '../../services/reports-service.js';
import { SPLIT_KINDS } from '../../engine/reports/mrr-subtypes.js';
import { defineReport, type ReportDefinition } from './registry.js';
import { pageQuery } from '../data-schemas.js';
import {
  cents,
  intParam,
  movementItem,
  movementKind,
  movementSubtype,
  reportFilterQuery,
  reportRangeQuery,
} from '../report-schemas.js';

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
  arpa: cents.describe('total_mrr / total_customers; 0 without customers'),
  asp: cents.describe('new / new_customers; 0 without new customers'),
  quick_ratio: z
    .number()
    .describe('(new + expansion + reactivation) / |contraction + churn|; 0 without contraction or churn'),
  quantity: z.number().describe('Subscription units of the counted customers at the period end'),
});

const summaryFields: Record<string, z.ZodNullable<z.ZodNumber>> = Object.fromEntries(
  ['mrr', 'arr', 'subscribers', 'arpa'].flatMap((metric) => [
    ...['current', ...SUMMARY_OFFSETS].map(
      (suffix) => [`${metric}_${suffix}`, z.number().nullable()] as const,
    ),
    ...SUMMARY_OFFSETS.map((offset) => [`${metric}_percentage_change_${offset}`, nullableRatio] as const),
  ]),
);

const flag = (fallback: '0' | '1') => z.enum(['0', '1'], { error: 'must be 0 or 1' }).default(fallback);

const activityItem = z.object({
  source: z.enum(['mrr', 'scheduled', 'payments']),
  type: z.union([movementKind, z.literal('failed_payment')]),
  subtype: z.string().nullable(),
  date: z.string().describe('When the event was recorded'),
  effective_date: z.string().describe('When it takes effect; in the future for scheduled events'),
  overdue_date: z.string().nullable(),
  customer_id: z.string(),
  customer_name: z.string().nullable(),
  customer_email: z.string().nullable(),
  amount: cents.describe('Cents of the base currency'),
  currency: z.string(),
});

export const mrrReports: readonly ReportDefinition[] = [
  defineReport({
    path: '/reports/customer-concentration',
    summary: 'Paying customers ranked by MRR, with their shares and the top-customer concentration',
    query: reportFilterQuery.extend({
      q: z.string().optional().describe('Part of the name, email or id'),
      fix_fx: z.string().optional(),
    }),
    result: z.object({
      currency: z.string(),
      result: z.object({
        pareto: z.array(
          z.object({
            rank: z.number().int(),
            id: z.string(),
            name: z.string().nullable(),
            mrr: cents,
            cumulative_mrr: cents,
            cumulative_pct: nullableRatio,
          }),
        ),
        concentration: z.object(
          Object.fromEntries(
            [...TOP_COUNTS.map((n) => `top_${n}_pct`), 'top_10_percent_pct'].map((key) => [
              key,
              nullableRatio,
            ]),
          ),
        ),
        list: z.array(
          z.object({
            id: z.string(),
            name: z.string().nullable(),
            email: z.string().nullable(),
            country: z.string().nullable(),
            currency: z.string(),
            mrr: cents,
            share_pct: nullableRatio,
          }),
        ),
        count: z.number().int(),
        summary: z.object({ total_mrr: cents, customers: z.number().int() }),
      }),
    }),
    // The only report listing every paying customer, twice: checking a 100,000-customer
    // answer against its schema took eight times the report itself (docs/decisions.md).
    unchecked: true,
    run: (services, accountId, query) => services.reports.concentration(accountId, query),
  }),
  defineReport({
    path: '/reports/summary',
    summary: 'MRR, ARR, subscribers and ARPA now and 30, 60, 180 and 365 days ago',
    query: reportFilterQuery.extend({ fix_fx: z.string().optional() }),
    result: z.object({ currency: z.string(), summary: z.object(summaryFields) }),
    run: (services, accountId, query) => services.reports.summary(accountId, query),
  }),
  defineReport({
    path: '/reports/mrr',
    summary: 'MRR per period with its movements; optionally by breakdown, compared, or committed',
    query: reportRangeQuery.extend({
      breakdown: z
        .string()
        .optional()
        .describe(
          `One series per value of: ${BREAKDOWNS.join(', ')}, or custom_<key>; or ${SUBTYPE_BREAKDOWN}: ` +
            "one series per movement subtype, each the report of that subtype's movements alone",
        ),
      compare: z
        .string()
        .optional()
        .describe(`Also the rows of a comparison range: ${COMPARES.join(' or ')}`),
      committed: z.string().optional().describe('true counts movements scheduled after today (CMRR)'),
    }),
    result: z.object({
      currency: z.string(),
      breakdown: z.string().optional(),
      result: z.array(mrrRow.extend({ breakdown_value: z.string().nullable().optional() })),
      compare: z.array(mrrRow).optional(),
    }),
    run: (services, accountId, query) => services.reports.mrr(accountId, query),
  }),
  defineReport({
    path: '/reports/mrr-subtypes',
    summary: 'Expansion, contraction or churn per period, split by why each movement happened',
    description:
      'One column per subtype of the chosen kind (and one count of its customers), then the kind as ' +
      '/reports/mrr reports it: the subtypes add up to it exactly. A customer with movements of two ' +
      'subtypes in one period counts under both.',
    query: reportRangeQuery.extend({
      type: z
        .string()
        .optional()
        .describe(`Required: ${SPLIT_KINDS.join(', ')}`),
      committed: z.string().optional().describe('true counts movements scheduled after today (CMRR)'),
    }),
    result: z.object({
      currency: z.string(),
      type: z.enum(SPLIT_KINDS),
      subtypes: z
        .array(movementSubtype)
        .describe("The kind's subtypes, in the order that decides between causes"),
      result: z.array(
        z
          .object({
            date: z.string().describe('First day of the period (YYYY-MM-DD), cut to the range'),
            end_date: z.string().describe('Last day of the period, inclusive, cut to the range'),
          })
          .catchall(z.union([cents, z.string()]))
          .describe('<subtype> and <subtype>_customers per subtype, then <type> and <type>_customers'),
      ),
    }),
    run: (services, accountId, query) => services.reports.mrrSubtypes(accountId, query),
  }),
  defineReport({
    path: '/reports/movement-table',
    summary: 'The individual MRR movements of the range',
    query: reportRangeQuery.extend(pageQuery.shape).extend({
      type: z.string().optional().describe('Movement kinds, comma- or space-separated'),
      committed: z.string().optional().describe('true also lists movements scheduled after today'),
      sort: z.enum(['date', 'mrr_change']).default('date'),
      order: z.enum(['asc', 'desc']).default('desc'),
    }),
    result: z.object({
      currency: z.string(),
      result: z.object({ count: z.number().int(), list: z.array(movementItem) }),
    }),
    run: (services, accountId, query) => {
      const { sort, order, limit, offset, ...raw } = query;
      return services.reports.movementTable(accountId, raw, { sort, order, limit, offset });
    },
  }),
  defineReport({
    path: '/reports/latest-activity',
    summary: 'Recent MRR movements, newest first, with upcoming scheduled ones on request',
    query: reportFilterQuery.extend({
      limit: intParam(1, MAX_ACTIVITY_ITEMS, 30),
      days: intParam(1, MAX_ACTIVITY_DAYS, 30),
      include_failed: flag('1').describe('1 includes failed payments (subtype: their outcome)'),
      include_scheduled: flag('0'),
    }),
    result: z.object({ currency: z.string(), result: z.array(activityItem) }),
    // Two reports merged, each reading its own inputs: its key would name only the first's.
    madeEachTime: true,
    run: (services, accountId, query) => {
      const { limit, days, include_failed, include_scheduled, ...raw } = query;
      return services.activity.latest(accountId, raw, {
        limit,
        days,
        includeScheduled: include_scheduled === '1',
        includeFailed: include_failed === '1',
      });
    },
  }),
  defineReport({
    path: '/reports/mrr-growth',
    summary: "The month's MRR movements added up day by day, beside a comparison month",
    query: reportRangeQuery.extend({
      compareMonth: z.string().optional().describe('YYYY-MM; default the month before'),
      types: z.string().optional().describe('Movement kinds to add up, comma-separated; default all'),
    }),
    result: z.object({
      currency: z.string(),
      result: z.array(
        z.object({
          date: z.number().int().describe('Day of the month; 0 is the anchor at zero'),
          cumulative_mrr: cents.describe('Rows stop at the month end or today: no row for a day not lived'),
          cumulative_mrr_compare: cents
            .optional()
            .describe('The comparison month on the same day; absent where it has no such day yet'),
        }),
      ),
    }),
    run: (services, accountId, query) => services.reports.mrrGrowth(accountId, query),
  }),
];
