import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FAILED_PAYMENTS_SUMMARY } from '../engine/cashflow/failed-payments.js';
import { FAILURE_RATE_SUMMARY } from '../engine/cashflow/failure-rate.js';
import { TRANSACTIONS_SUMMARY } from '../engine/cashflow/transactions.js';
import type { Services } from '../services/index.js';
import { authOf } from './auth.js';
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
} from './cashflow-schemas.js';
import { pageQuery } from './data-schemas.js';
import { reportFilterQuery, reportRangeQuery } from './report-schemas.js';
import { authErrors, errorSchema, listOf } from './schemas.js';

const tags = ['Reports: cashflow'];
const errors = { 400: errorSchema, ...authErrors } as const;
const summaryQuery = reportFilterQuery.extend({
  fix_fx: z.string().optional().describe("true converts every amount at today's rate"),
});
const detailQuery = reportRangeQuery.extend(pageQuery.shape);
const series = <T extends z.ZodType>(row: T) => z.object({ currency: z.string(), result: z.array(row) });
const summary = <T extends z.ZodType>(fields: T) => z.object({ currency: z.string(), summary: fields });
const detail = <T extends z.ZodType>(item: T) => listOf(item).extend({ currency: z.string() });

export function cashflowRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    const cashflow = services.cashflow;
    const split = ({ limit, offset, ...raw }: z.infer<typeof detailQuery>) =>
      [raw, { limit, offset }] as const;

    app.get(
      '/reports/transactions',
      {
        schema: {
          tags,
          summary: 'Net cash per period: successful payments less refunds',
          querystring: reportRangeQuery,
          response: { 200: series(transactionsRow), ...errors },
        },
      },
      (request) => cashflow.transactions(authOf(request).accountId, request.query),
    );

    app.get(
      '/reports/transactions-summary',
      {
        schema: {
          tags,
          summary:
            'Payments, refunds and net cash month, quarter and year to date, beside the same spans before',
          querystring: summaryQuery,
          response: { 200: summary(toDateSummarySchema(TRANSACTIONS_SUMMARY)), ...errors },
        },
      },
      (request) => cashflow.transactionsSummary(authOf(request).accountId, request.query),
    );

    app.get(
      '/reports/transactions-detail',
      {
        schema: {
          tags,
          summary: 'Every payment and refund attempt of the range, newest first',
          querystring: detailQuery,
          response: { 200: detail(transactionItem), ...errors },
        },
      },
      (request) => cashflow.transactionsDetail(authOf(request).accountId, ...split(request.query)),
    );

    app.get(
      '/reports/cashflow-failed-payments',
      {
        schema: {
          tags,
          summary: 'Invoices with a failed payment per period, by what became of them',
          querystring: reportRangeQuery,
          response: { 200: series(failedPaymentsRow), ...errors },
        },
      },
      (request) => cashflow.failedPayments(authOf(request).accountId, request.query),
    );

    app.get(
      '/reports/cashflow-failed-payments-summary',
      {
        schema: {
          tags,
          summary: 'Failed payments month and year to date, beside the month and year before',
          querystring: summaryQuery,
          response: { 200: summary(toDateSummarySchema(FAILED_PAYMENTS_SUMMARY)), ...errors },
        },
      },
      (request) => cashflow.failedPaymentsSummary(authOf(request).accountId, request.query),
    );

    app.get(
      '/reports/cashflow-failed-payments-detail',
      {
        schema: {
          tags,
          summary: 'One item per failed invoice of the range with its outcome',
          querystring: detailQuery,
          response: { 200: detail(failedPaymentItem), ...errors },
        },
      },
      (request) => cashflow.failedPaymentsDetail(authOf(request).accountId, ...split(request.query)),
    );

    app.get(
      '/reports/cashflow-refunds',
      {
        schema: {
          tags,
          summary: 'Refunds per period',
          querystring: reportRangeQuery,
          response: { 200: series(refundsRow), ...errors },
        },
      },
      (request) => cashflow.refunds(authOf(request).accountId, request.query),
    );

    app.get(
      '/reports/cashflow-refunds-detail',
      {
        schema: {
          tags,
          summary: 'Every refund of the range, newest first',
          querystring: detailQuery,
          response: { 200: detail(transactionItem), ...errors },
        },
      },
      (request) => cashflow.refundsDetail(authOf(request).accountId, ...split(request.query)),
    );

    app.get(
      '/reports/cashflow-failure-rate',
      {
        schema: {
          tags,
          summary: 'Share of invoices attempted in a period that first failed in it',
          querystring: reportRangeQuery,
          response: { 200: series(failureRateRow), ...errors },
        },
      },
      (request) => cashflow.failureRate(authOf(request).accountId, request.query),
    );

    app.get(
      '/reports/cashflow-failure-rate-summary',
      {
        schema: {
          tags,
          summary: 'Failure rate month, quarter and year to date, beside the same spans before',
          querystring: summaryQuery,
          response: { 200: summary(toDateSummarySchema(FAILURE_RATE_SUMMARY)), ...errors },
        },
      },
      (request) => cashflow.failureRateSummary(authOf(request).accountId, request.query),
    );

    app.get(
      '/reports/cashflow-outstanding-unpaid',
      {
        schema: {
          tags,
          summary: 'What open invoices past their due date still owe, by days past due',
          querystring: reportFilterQuery,
          response: { 200: summary(outstandingSummarySchema), ...errors },
        },
      },
      (request) => cashflow.outstandingUnpaid(authOf(request).accountId, request.query),
    );

    app.get(
      '/reports/invoices-detail',
      {
        schema: {
          tags,
          summary: 'Invoices with their lines, newest first; 404 for a customer that does not exist',
          querystring: reportFilterQuery.extend(pageQuery.shape),
          response: {
            200: z.object({ result: z.object({ list: z.array(invoiceRecord) }) }),
            404: errorSchema,
            ...errors,
          },
        },
      },
      (request) => {
        const { limit, offset, ...raw } = request.query;
        return cashflow.invoicesDetail(authOf(request).accountId, raw, { limit, offset });
      },
    );
  };
}
