import type { CashflowQuery } from '../engine/cashflow/cashflow-data.js';
import { invoicesOf } from '../engine/cashflow/cashflow-data.js';
import {
  failedPaymentItems,
  failedPaymentsReport,
  failedPaymentsSummary,
} from '../engine/cashflow/failed-payments.js';
import { failureRateReport, failureRateSummary } from '../engine/cashflow/failure-rate.js';
import { invoiceRecords } from '../engine/cashflow/invoice-details.js';
import { outstandingSummary } from '../engine/cashflow/outstanding.js';
import { isRefund, refundsReport } from '../engine/cashflow/refunds.js';
import {
  transactionItems,
  transactionsReport,
  transactionsSummary,
} from '../engine/cashflow/transactions.js';
import type { CashflowInvoices } from './cashflow-invoices.js';
import { NotFoundError } from './errors.js';
import type { ReportInputs } from './report-inputs.js';
import type { RawReportParams, ReportQuery } from './report-query.js';

export interface Page {
  limit: number;
  offset: number;
}

/** Series and details read the range; with fix_fx every amount converts at its last day. */
const rangeQuery = (query: ReportQuery): CashflowQuery & { today: number } => ({
  today: query.today,
  from: query.from,
  to: query.to,
  interval: query.interval,
  baseCurrency: query.baseCurrency,
  fixedRateDay: query.fixFx ? query.to : null,
});

/** Summaries are as of today; with fix_fx every amount converts at today's rate. */
const todayQuery = (query: ReportQuery) => ({
  today: query.today,
  baseCurrency: query.baseCurrency,
  fixedRateDay: query.fixFx ? query.today : null,
});

const listed = <T>(list: T[]) => ({ count: list.length, list });
const paged = <T>(items: readonly T[], page: Page) =>
  listed(items.slice(page.offset, page.offset + page.limit));

/** The cashflow reports of SPEC 4.6 (DESIGN 4.9), each a pure engine function over the invoices. */
export function createCashflowService(cashflowInvoices: CashflowInvoices, reportInputs: ReportInputs) {
  async function prepare(accountId: string, raw: RawReportParams) {
    const inputs = await reportInputs(accountId, raw);
    const all = await cashflowInvoices(accountId, inputs.snapshot);
    return {
      ...inputs,
      currency: inputs.query.baseCurrency,
      invoices: invoicesOf(all, inputs.customers),
      people: inputs.snapshot.customers,
    };
  }

  return {
    async transactions(accountId: string, raw: RawReportParams) {
      const { currency, invoices, query, table } = await prepare(accountId, raw);
      return { currency, result: transactionsReport(invoices, rangeQuery(query), table) };
    },

    async transactionsSummary(accountId: string, raw: RawReportParams) {
      const { currency, invoices, query, table } = await prepare(accountId, raw);
      return { currency, summary: transactionsSummary(invoices, todayQuery(query), table) };
    },

    async transactionsDetail(accountId: string, raw: RawReportParams, page: Page) {
      const { currency, invoices, people, query, table } = await prepare(accountId, raw);
      return { currency, result: listed(transactionItems(invoices, people, rangeQuery(query), table, page)) };
    },

    async failedPayments(accountId: string, raw: RawReportParams) {
      const { currency, invoices, people, query, table } = await prepare(accountId, raw);
      return { currency, result: failedPaymentsReport(invoices, people, rangeQuery(query), table) };
    },

    async failedPaymentsSummary(accountId: string, raw: RawReportParams) {
      const { currency, invoices, people, query, table } = await prepare(accountId, raw);
      return { currency, summary: failedPaymentsSummary(invoices, people, todayQuery(query), table) };
    },

    async failedPaymentsDetail(accountId: string, raw: RawReportParams, page: Page) {
      const { currency, invoices, people, query, table } = await prepare(accountId, raw);
      return {
        currency,
        result: paged(failedPaymentItems(invoices, people, rangeQuery(query), table), page),
      };
    },

    async refunds(accountId: string, raw: RawReportParams) {
      const { currency, invoices, query, table } = await prepare(accountId, raw);
      return { currency, result: refundsReport(invoices, rangeQuery(query), table) };
    },

    async refundsDetail(accountId: string, raw: RawReportParams, page: Page) {
      const { currency, invoices, people, query, table } = await prepare(accountId, raw);
      return {
        currency,
        result: listed(transactionItems(invoices, people, rangeQuery(query), table, page, isRefund)),
      };
    },

    async failureRate(accountId: string, raw: RawReportParams) {
      const { currency, invoices, query } = await prepare(accountId, raw);
      return { currency, result: failureRateReport(invoices, rangeQuery(query)) };
    },

    async failureRateSummary(accountId: string, raw: RawReportParams) {
      const { currency, invoices, query } = await prepare(accountId, raw);
      return { currency, summary: failureRateSummary(invoices, query.today) };
    },

    async outstandingUnpaid(accountId: string, raw: RawReportParams) {
      const { currency, invoices, query, table } = await prepare(accountId, raw);
      return { currency, summary: outstandingSummary(invoices, query, table) };
    },

    /** SPEC 4.6: a customer that does not exist is a 404, not an empty list. */
    async invoicesDetail(accountId: string, raw: RawReportParams, page: Page) {
      const { invoices, people, query, snapshot, table } = await prepare(accountId, raw);
      const customer = raw.customer?.trim();
      if (customer !== undefined && customer !== '' && !snapshot.attributes.id.includes(customer)) {
        throw new NotFoundError(`Customer ${customer} not found`);
      }
      return { result: { list: invoiceRecords(invoices, people, rangeQuery(query), table, page) } };
    },
  };
}

export type CashflowService = ReturnType<typeof createCashflowService>;
