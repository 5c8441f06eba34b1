import type { CashflowQuery } from '../engine/cashflow/cashflow-data.js';
import {
  failedPaymentItems,
  failedPaymentsReport,
  failedPaymentsSummary,
} from '../engine/cashflow/failed-payments.js';
import { failureRateReport, failureRateSummary } from '../engine/cashflow/failure-rate.js';
import { invoicePage, invoiceRecords } from '../engine/cashflow/invoice-details.js';
import { outstandingSummary } from '../engine/cashflow/outstanding.js';
import { isRefund, refundsReport } from '../engine/cashflow/refunds.js';
import {
  transactionItems,
  transactionsReport,
  transactionsSummary,
} from '../engine/cashflow/transactions.js';
import type { Store } from '../store/open-store.js';
import { type CashflowTables, invoiceLines } from './cashflow-tables.js';
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

/**
 * The cashflow reports (docs/api.md, "Reports: cashflow"; docs/metrics.md, "Cashflow"), each a pure
 * engine function over the account's cashflow table; the invoices detail reads its page's lines
 * from the store.
 */
export function createCashflowService(
  cashflowTables: CashflowTables,
  store: Store,
  reportInputs: ReportInputs,
) {
  async function prepare(accountId: string, raw: RawReportParams) {
    const inputs = await reportInputs(accountId, raw);
    return {
      ...inputs,
      currency: inputs.query.baseCurrency,
      cashflow: await cashflowTables(accountId, inputs.snapshot),
      people: inputs.snapshot.customers,
    };
  }

  return {
    async transactions(accountId: string, raw: RawReportParams) {
      const { cashflow, currency, customers, query, table } = await prepare(accountId, raw);
      return { currency, result: transactionsReport(cashflow, customers, rangeQuery(query), table) };
    },

    async transactionsSummary(accountId: string, raw: RawReportParams) {
      const { cashflow, currency, customers, query, table } = await prepare(accountId, raw);
      return { currency, summary: transactionsSummary(cashflow, customers, todayQuery(query), table) };
    },

    async transactionsDetail(accountId: string, raw: RawReportParams, page: Page) {
      const { cashflow, currency, customers, people, query, table } = await prepare(accountId, raw);
      return {
        currency,
        result: listed(transactionItems(cashflow, customers, people, rangeQuery(query), table, page)),
      };
    },

    async failedPayments(accountId: string, raw: RawReportParams) {
      const { cashflow, currency, customers, people, query, table } = await prepare(accountId, raw);
      return {
        currency,
        result: failedPaymentsReport(cashflow, customers, people, rangeQuery(query), table),
      };
    },

    async failedPaymentsSummary(accountId: string, raw: RawReportParams) {
      const { cashflow, currency, customers, people, query, table } = await prepare(accountId, raw);
      return {
        currency,
        summary: failedPaymentsSummary(cashflow, customers, people, todayQuery(query), table),
      };
    },

    async failedPaymentsDetail(accountId: string, raw: RawReportParams, page: Page) {
      const { cashflow, currency, customers, people, query, table } = await prepare(accountId, raw);
      return {
        currency,
        result: listed(failedPaymentItems(cashflow, customers, people, rangeQuery(query), table, page)),
      };
    },

    async refunds(accountId: string, raw: RawReportParams) {
      const { cashflow, currency, customers, query, table } = await prepare(accountId, raw);
      return { currency, result: refundsReport(cashflow, customers, rangeQuery(query), table) };
    },

    async refundsDetail(accountId: string, raw: RawReportParams, page: Page) {
      const { cashflow, currency, customers, people, query, table } = await prepare(accountId, raw);
      return {
        currency,
        result: listed(
          transactionItems(cashflow, customers, people, rangeQuery(query), table, page, isRefund),
        ),
      };
    },

    async failureRate(accountId: string, raw: RawReportParams) {
      const { cashflow, currency, customers, query } = await prepare(accountId, raw);
      return { currency, result: failureRateReport(cashflow, customers, rangeQuery(query)) };
    },

    async failureRateSummary(accountId: string, raw: RawReportParams) {
      const { cashflow, currency, customers, query } = await prepare(accountId, raw);
      return { currency, summary: failureRateSummary(cashflow, customers, query.today) };
    },

    async outstandingUnpaid(accountId: string, raw: RawReportParams) {
      const { cashflow, currency, customers, query, table } = await prepare(accountId, raw);
      return { currency, summary: outstandingSummary(cashflow, customers, query, table) };
    },

    /** A customer that does not exist is a 404, not an empty list (docs/api.md, "Reports: cashflow"). */
    async invoicesDetail(accountId: string, raw: RawReportParams, page: Page) {
      const { cashflow, customers, people, query, snapshot, table } = await prepare(accountId, raw);
      const customer = raw.customer?.trim();
      if (
        customer !== undefined &&
        customer !== '' &&
        !snapshot.customers.some((item) => item.id === customer)
      ) {
        throw new NotFoundError(`Customer ${customer} not found`);
      }
      const invoices = invoicePage(cashflow, customers, page);
      const keys = invoices.map((invoice) => ({
        dataSourceId: people[cashflow.invoiceCustomer[invoice]!]!.dataSourceId,
        id: cashflow.invoiceId.at(invoice)!,
      }));
      const lines = await invoiceLines(store, accountId, keys);
      return {
        result: { list: invoiceRecords(cashflow, invoices, lines, people, rangeQuery(query), table) },
      };
    },
  };
}

export type CashflowService = ReturnType<typeof createCashflowService>;
