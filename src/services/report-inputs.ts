import { filteredCustomers } from '../engine/account-snapshot.js';
import type { FxService } from './fx-service.js';
import type { MetricsService } from './metrics-service.js';
import type { ReportQueries } from './report-context.js';
import type { RawReportParams } from './report-query.js';

/**
 * What every report starts from: the parsed query, the account snapshot, the customers the
 * filters keep (null when there is no filter) and the exchange rates.
 */
export function createReportInputs(metrics: MetricsService, fx: FxService, reportQuery: ReportQueries) {
  return async function reportInputs(
    accountId: string,
    raw: RawReportParams,
    defaultRange?: Parameters<ReportQueries>[2],
    /** A report's own check of the parsed query, such as a limit only it has. */
    check?: (query: Awaited<ReturnType<ReportQueries>>) => void,
  ) {
    // The query first: a bad parameter fails before any data is loaded.
    const query = await reportQuery(accountId, raw, defaultRange);
    check?.(query);
    const snapshot = await metrics.snapshot(accountId);
    const customers = filteredCustomers(snapshot, query.filters, query.to);
    return { query, snapshot, customers, table: await fx.table() };
  };
}

export type ReportInputs = ReturnType<typeof createReportInputs>;
