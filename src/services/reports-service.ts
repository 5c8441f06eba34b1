import { isBreakdown, breakdownMasks } from '../engine/breakdown.js';
import { customerMask } from '../engine/customer-filter.js';
import { shiftMonths } from '../engine/periods.js';
import { mrrReport, type MrrQuery, type MrrRow } from '../engine/reports/mrr.js';
import { type Summary, summaryReport } from '../engine/reports/summary.js';
import { InvalidInputError } from './errors.js';
import type { FxService } from './fx-service.js';
import type { MetricsService } from './metrics-service.js';
import type { ReportQueries } from './report-context.js';
import type { RawReportParams, ReportQuery } from './report-query.js';

export type MrrSeriesRow = MrrRow & { breakdown_value?: string | null };

export interface MrrResponse {
  currency: string;
  breakdown?: string;
  result: MrrSeriesRow[];
  /** The same rows for the comparison range, when `compare` was asked for. */
  compare?: MrrRow[];
}

export const COMPARES = ['last-period', 'last-year'] as const;

/** The range to compare with: the same dates a year earlier, or the equally long range just before. */
function shiftRange(query: ReportQuery, compare: (typeof COMPARES)[number]): { from: number; to: number } {
  if (compare === 'last-year') return { from: shiftMonths(query.from, -12), to: shiftMonths(query.to, -12) };
  const days = query.to - query.from + 1;
  return { from: query.from - days, to: query.to - days };
}

/** The MRR reports of SPEC 4.6, each a pure engine function over the account snapshot. */
export function createReportsService(metrics: MetricsService, fx: FxService, reportQuery: ReportQueries) {
  async function prepare(accountId: string, raw: RawReportParams) {
    const query = await reportQuery(accountId, raw);
    const snapshot = await metrics.snapshot(accountId);
    const customers = customerMask(snapshot.attributes, query.filters, query.to);
    return { query, snapshot, customers, table: await fx.table() };
  }

  return {
    async summary(accountId: string, raw: RawReportParams): Promise<{ currency: string; summary: Summary }> {
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const summary = summaryReport(
        snapshot.movements,
        { today: query.today, baseCurrency: query.baseCurrency, fixFx: query.fixFx, customers },
        table,
      );
      return { currency: query.baseCurrency, summary };
    },

    async mrr(
      accountId: string,
      raw: RawReportParams & { breakdown?: string; compare?: string; committed?: string },
    ): Promise<MrrResponse> {
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      if (raw.breakdown !== undefined && !isBreakdown(raw.breakdown)) {
        throw new InvalidInputError(
          `Invalid query parameter "breakdown": unknown dimension "${raw.breakdown}"`,
        );
      }
      if (raw.compare !== undefined && !(COMPARES as readonly string[]).includes(raw.compare)) {
        throw new InvalidInputError(`Invalid query parameter "compare": expected ${COMPARES.join(' or ')}`);
      }
      if (raw.committed !== undefined && raw.committed !== 'true' && raw.committed !== 'false') {
        throw new InvalidInputError('Invalid query parameter "committed": expected true or false');
      }
      const base: MrrQuery = {
        today: query.today,
        committed: raw.committed === 'true',
        from: query.from,
        to: query.to,
        interval: query.interval,
        baseCurrency: query.baseCurrency,
        fixFx: query.fixFx,
        customers,
      };
      const response: MrrResponse = { currency: query.baseCurrency, result: [] };
      if (raw.breakdown === undefined) {
        response.result = mrrReport(snapshot.movements, base, table);
      } else {
        response.breakdown = raw.breakdown;
        response.result = breakdownMasks(snapshot.customers, raw.breakdown, customers)
          .flatMap(({ value, customers: group }) =>
            mrrReport(snapshot.movements, { ...base, customers: group }, table).map((row) => ({
              ...row,
              breakdown_value: value,
            })),
          )
          .sort((a, b) => a.date.localeCompare(b.date));
      }
      if (raw.compare !== undefined) {
        const shifted = shiftRange(query, raw.compare as (typeof COMPARES)[number]);
        response.compare = mrrReport(
          snapshot.movements,
          { ...base, from: shifted.from, to: shifted.to },
          table,
        );
      }
      return response;
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
