import { z } from 'zod';
import { seriesTable } from '../../engine/reports/series-table.js';
import { reportRangeQuery } from '../report-schemas.js';
import { cashflowReports } from './cashflow.js';
import { mrrReports } from './mrr.js';
import { answerOf, defineReport, type ReportDefinition } from './registry.js';

const tableAnswer = z.object({
  currency: z.string(),
  result: z.array(
    z
      .object({ metric: z.string().describe("The series' field: new, total_mrr, payments, ...") })
      .catchall(z.union([z.number(), z.string()]).nullable())
      .describe(
        'One measure; one more field per period, named by its first day (day of month for mrr-growth)',
      ),
  ),
});

/** A series answer (one row per period) as its table: one row per measure, one column per period. */
function asTable({ currency, result }: { currency: string; result: readonly object[] }) {
  return { currency, result: seriesTable(result, 'date', ['end_date']) };
}

/**
 * The table under a report's chart: the same answer as the series report, one row per measure
 * and one column per period. Breakdowns and comparisons stay with the series reports. It is made
 * from the series' own answer, kept per snapshot (a dashboard asks for both with the same
 * query), rather than by computing the series again; being made from it each time is cheap.
 */
function tableOf(
  reports: readonly ReportDefinition[],
  of: string,
  path: `/reports/${string}`,
  query: z.ZodObject = reportRangeQuery,
): ReportDefinition {
  const series = reports.find((report) => report.path === of);
  if (!series) throw new Error(`No report ${of} to make a table of`);
  return defineReport({
    path,
    summary: `${of.slice('/reports/'.length)} as a table: one row per measure, one column per period`,
    ...(series.tag === undefined ? {} : { tag: series.tag }),
    query,
    result: tableAnswer,
    madeEachTime: true,
    run: async (services, accountId, raw) => {
      const answer = await answerOf(series, services, accountId, raw);
      return asTable(JSON.parse(answer.toString()) as { currency: string; result: object[] });
    },
  });
}

export const tableReports: readonly ReportDefinition[] = [
  tableOf(mrrReports, '/reports/mrr', '/reports/mrr-table'),
  defineReport({
    path: '/reports/mrr-table-subtypes',
    summary: 'mrr-table with the subtypes of expansion, contraction and churn as rows of their own',
    description:
      'The rows of /reports/mrr-table, each of expansion, contraction and churn followed by one row per ' +
      "subtype (<kind>_<subtype>), and each of their customer counts by the subtypes' counts " +
      "(<kind>_<subtype>_customers). A kind's subtype rows add up to its row.",
    query: reportRangeQuery.extend({
      committed: z.string().optional().describe('true counts movements scheduled after today (CMRR)'),
    }),
    result: tableAnswer,
    run: async (services, accountId, raw) => asTable(await services.reports.mrrWithSubtypes(accountId, raw)),
  }),
  tableOf(
    mrrReports,
    '/reports/mrr-growth',
    '/reports/mrr-growth-table',
    reportRangeQuery.extend({
      compareMonth: z.string().optional().describe('YYYY-MM; default the month before'),
      types: z.string().optional().describe('Movement kinds to add up, comma-separated; default all'),
    }),
  ),
  tableOf(cashflowReports, '/reports/transactions', '/reports/transactions-table'),
  tableOf(cashflowReports, '/reports/cashflow-failed-payments', '/reports/cashflow-failed-payments-table'),
  tableOf(cashflowReports, '/reports/cashflow-refunds', '/reports/cashflow-refunds-table'),
];
