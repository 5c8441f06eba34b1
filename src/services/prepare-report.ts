import { customerMask } from '../engine/customer-filter.js';
import type { FxService } from './fx-service.js';
import type { MetricsService } from './metrics-service.js';
import type { ReportQueries } from './report-context.js';
import type { RawReportParams } from './report-query.js';

/**
 * What every report starts from: the parsed query, the account's snapshot, the customers the
 * filters keep (customer age measured on the range's last day) and the exchange rates. The
 * query is built first: a bad parameter fails before any data is loaded.
 */
export function createReportPreparer(metrics: MetricsService, fx: FxService, reportQuery: ReportQueries) {
  return async function prepare(
    accountId: string,
    raw: RawReportParams,
    defaultRange?: Parameters<ReportQueries>[2],
  ) {
    const query = await reportQuery(accountId, raw, defaultRange);
    const snapshot = await metrics.snapshot(accountId);
    const customers = customerMask(snapshot.attributes, query.filters, query.to);
    return { query, snapshot, customers, table: await fx.table() };
  };
}

export type PrepareReport = ReturnType<typeof createReportPreparer>;
