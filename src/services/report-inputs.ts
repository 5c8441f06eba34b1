import { type AccountSnapshot, filteredCustomers } from '../engine/account-snapshot.js';
import type { FxService } from './fx-service.js';
import type { MetricsService } from './metrics-service.js';
import type { ReportAnswers } from './report-answers.js';
import type { ReportQueries } from './report-context.js';
import type { RawReportParams } from './report-query.js';

/**
 * What every report starts from: the parsed query, the account snapshot, the customers the
 * filters keep (null when there is no filter) and the exchange rates. `acceptStale` says whether
 * the previous snapshot will do while a newer one is built (by default it does). Once they are
 * read, a report run through `answers` is given the answer kept for the same inputs, if any.
 */
export function createReportInputs(
  metrics: MetricsService,
  fx: FxService,
  reportQuery: ReportQueries,
  answers: ReportAnswers,
  acceptStale?: (accountId: string, held: AccountSnapshot) => boolean,
) {
  return async function reportInputs<Own = undefined>(
    accountId: string,
    raw: RawReportParams,
    defaultRange?: Parameters<ReportQueries>[2],
    /**
     * A report's own parameters that depend on the parsed query (its interval, its range),
     * parsed and checked here, before any data is loaded; returned as `own`.
     */
    parseOwn?: (query: Awaited<ReturnType<ReportQueries>>) => Own,
  ) {
    // The query first: a bad parameter fails before any data is loaded.
    const query = await reportQuery(accountId, raw, defaultRange);
    const own = parseOwn?.(query) as Own;
    const snapshot = await metrics.snapshotToRead(
      accountId,
      acceptStale && ((held) => acceptStale(accountId, held)),
    );
    const table = await fx.table();
    answers.reuse({ snapshot, table, query });
    const customers = filteredCustomers(snapshot, query.filters, query.to);
    return { query, own, snapshot, customers, table };
  };
}

export type ReportInputs = ReturnType<typeof createReportInputs>;
