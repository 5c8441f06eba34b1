import { z } from 'zod';
import { FAILED_PAYMENTS_SUMMARY } from '../../engine/cashflow/failed-payments.js';
import { FAILURE_RATE_SUMMARY } from '../../engine/cashflow/failure-rate.js';
import { TRANSACTIONS_SUMMARY } from '../../engine/cashflow/transactions.js';
import { defineReport, type ReportDefinition } from './registry.js';
import {
  failedPaymentItem,
  failedPaymentsRow,
  failureRateRow,
  invoiceRecord,
  outstandingSummarySchema,
  refundsRow,
  toDateSummarySchema,
  transactionItem,
  transactionsRow,
} from '../cashflow-schemas.js';
import { pageQuery } from '../data-schemas.js';
import { reportFilterQuery, reportRangeQuery } from '../report-schemas.js';
import { listOf } from '../schemas.js';

const tag = 'Reports: cashflow';
const summaryQuery = reportFilterQuery.extend({
  fix_fx: z.string().optional().describe("true converts every amount at today's rate"),
});
const detailQuery = reportRangeQuery.extend(pageQuery.shape);
const series = <T extends z.ZodType>(row: T) => z.object({ currency: z.string(), result: z.array(row) });
const summary = <T extends z.ZodType>(fields: T) => z.object({ currency: z.string(), summary: fields });
const detail = <T extends z.ZodType>(item: T) => listOf(item).extend({ currency: z.string() });
const split = ({ limit, offset, ...raw }: z.infer<typeof detailQuery>) => [raw, { limit, offset }] as const;

export const cashflowReports: readonly ReportDefinition[] = [
  defineReport({
    tag,
    path: '/reports/transactions',
    summary: 'Net cash per period: successful payments less refunds',
    query: reportRangeQuery,
    result: series(transactionsRow),
    run: (services, accountId, query) => services.cashflow.transactions(accountId, query),
  }),
  defineReport({
    tag,
    path: '/reports/transactions-summary',
    summary: 'Payments, refunds and net cash month, quarter and year to date, beside the same spans before',
    query: summaryQuery,
    result: summary(toDateSummarySchema(TRANSACTIONS_SUMMARY)),
    run: (services, accountId, query) => services.cashflow.transactionsSummary(accountId, query),
  }),
  defineReport({
    tag,
    path: '/reports/transactions-detail',
    summary: 'Every payment and refund attempt of the range, newest first',
    query: detailQuery,
    result: detail(transactionItem),
    run: (services, accountId, query) => services.cashflow.transactionsDetail(accountId, ...split(query)),
  }),
  defineReport({
    tag,
    path: '/reports/cashflow-failed-payments',
    summary: 'Invoices with a failed payment per period, by what became of them',
    query: reportRangeQuery,
    result: series(failedPaymentsRow),
    run: (services, accountId, query) => services.cashflow.failedPayments(accountId, query),
  }),
  defineReport({
    tag,
    path: '/reports/cashflow-failed-payments-summary',
    summary: 'Failed payments month and year to date, beside the month and year before',
    query: summaryQuery,
    result: summary(toDateSummarySchema(FAILED_PAYMENTS_SUMMARY)),
    run: (services, accountId, query) => services.cashflow.failedPaymentsSummary(accountId, query),
  }),
  defineReport({
    tag,
    path: '/reports/cashflow-failed-payments-detail',
    summary: 'One item per failed invoice of the range with its outcome',
    query: detailQuery,
    result: detail(failedPaymentItem),
    run: (services, accountId, query) => services.cashflow.failedPaymentsDetail(accountId, ...split(query)),
  }),
  defineReport({
    tag,
    path: '/reports/cashflow-refunds',
    summary: 'Refunds per period',
    query: reportRangeQuery,
    result: series(refundsRow),
    run: (services, accountId, query) => services.cashflow.refunds(accountId, query),
  }),
  defineReport({
    tag,
    path: '/reports/cashflow-refunds-detail',
    summary: 'Every refund of the range, newest first',
    query: detailQuery,
    result: detail(transactionItem),
    run: (services, accountId, query) => services.cashflow.refundsDetail(accountId, ...split(query)),
  }),
  defineReport({
    tag,
    path: '/reports/cashflow-failure-rate',
    summary: 'Share of invoices attempted in a period that first failed in it',
    query: reportRangeQuery,
    result: series(failureRateRow),
    run: (services, accountId, query) => services.cashflow.failureRate(accountId, query),
  }),
  defineReport({
    tag,
    path: '/reports/cashflow-failure-rate-summary',
    summary: 'Failure rate month, quarter and year to date, beside the same spans before',
    query: summaryQuery,
    result: summary(toDateSummarySchema(FAILURE_RATE_SUMMARY)),
    run: (services, accountId, query) => services.cashflow.failureRateSummary(accountId, query),
  }),
  defineReport({
    tag,
    path: '/reports/cashflow-outstanding-unpaid',
    summary: 'What open invoices past their due date still owe, by days past due',
    query: reportFilterQuery,
    result: summary(outstandingSummarySchema),
    run: (services, accountId, query) => services.cashflow.outstandingUnpaid(accountId, query),
  }),
  defineReport({
    tag,
    path: '/reports/invoices-detail',
    summary: 'Invoices with their lines, newest first; 404 for a customer that does not exist',
    query: reportFilterQuery.extend(pageQuery.shape),
    result: z.object({ result: z.object({ list: z.array(invoiceRecord) }) }),
    notFound: true,
    madeEachTime: true,
    run: (services, accountId, query) => {
      const { limit, offset, ...raw } = query;
      return services.cashflow.invoicesDetail(accountId, raw, { limit, offset });
    },
  }),
];
