import { z } from 'zod';
import { seriesTable } from '../../engine/reports/series-table.js';
import { reportRangeQuery } from '../report-schemas.js';
import { cashflowReports } from './cashflow.js';
import { mrrReports } from './mrr.js';
import { defineReport, type ReportDefinition } from './registry.js';

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

/**
 * The table under a report's chart: the same answer as the series report, one row per measure
 * and one column per period. Breakdowns and comparisons stay with the series reports.
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
    run: async (services, accountId, raw) => {
      const answer = (await series.run(services, accountId, raw)) as { currency: string; result: object[] };
      return { currency: answer.currency, result: seriesTable(answer.result, 'date', ['end_date']) };
    },
  });
}

export const tableReports: readonly ReportDefinition[] = [
  tableOf(mrrReports, '/reports/mrr', '/reports/mrr-table'),
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
