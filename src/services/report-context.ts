import { normaliseCountry } from '../engine/country-codes.js';
import { dayNumber } from '../engine/days.js';
import type { Store } from '../store/open-store.js';
import type { Clock } from './clock.js';
import { InvalidInputError, NotFoundError } from './errors.js';
import type { FxService } from './fx-service.js';
import { isUuid } from './ids.js';
import { planKey } from './customer-history.js';
import {
  buildReportQuery,
  type RawReportParams,
  type ReportQuery,
  type ReportQueryContext,
} from './report-query.js';

/** Today on the service's clock, as a day number (UTC). */
export function today(clock: Clock): number {
  return dayNumber(clock.now().toISOString().slice(0, 10));
}

/**
 * A report's range without `date`: `days` back to today or, `ahead`, from tomorrow on; with
 * `endDateAlone`, `date` may be the range's last day alone.
 */
export interface DefaultRange {
  days: number;
  ahead: boolean;
  endDateAlone?: boolean;
}

/** What parsing filters needs to know of one account: its currencies, plan groups and segments. */
export function createQueryContexts(store: Store, clock: Clock, fx: FxService) {
  return async function queryContext(
    accountId: string,
    defaultRange: DefaultRange = { days: 365, ahead: false },
  ): Promise<ReportQueryContext> {
    const account = await store.accounts.get(accountId);
    if (!account) throw new NotFoundError(`Account ${accountId} not found`);
    const table = await fx.table();
    return {
      today: today(clock),
      baseCurrency: account.base_currency,
      defaultRangeDays: defaultRange.days,
      defaultRangeAhead: defaultRange.ahead,
      endDateAlone: defaultRange.endDateAlone,
      currency: (code) => (table.has(code.toLowerCase()) ? code.toLowerCase() : undefined),
      country: normaliseCountry,
      async plansOfGroups(groupIds) {
        if (groupIds.length === 0) return [];
        const unknown = (id: string) =>
          new InvalidInputError(`Invalid query parameter "plan": unknown plan group "${id}"`);
        const malformed = groupIds.find((id) => !isUuid(id));
        if (malformed !== undefined) throw unknown(malformed);
        const rows = await store.planGroups.planKeys(accountId, groupIds);
        const found = new Set(rows.map((row) => row.group_id));
        const missing = groupIds.find((id) => !found.has(id));
        if (missing !== undefined) throw unknown(missing);
        return rows.flatMap((row) =>
          row.plan === null ? [] : [planKey(row.plan.dataSourceId, row.plan.id)],
        );
      },
      async segmentFilters(segmentId) {
        const segment = isUuid(segmentId) ? await store.segments.get(accountId, segmentId) : undefined;
        if (!segment) {
          throw new InvalidInputError(`Invalid query parameter "segment": unknown segment "${segmentId}"`);
        }
        return segment.filters;
      },
    };
  };
}

export type QueryContexts = ReturnType<typeof createQueryContexts>;

/** Builds each account's ReportQuery from a request: the one place reports learn about the account. */
export function createReportQueries(queryContext: QueryContexts) {
  return async function reportQuery(
    accountId: string,
    raw: RawReportParams,
    defaultRange?: DefaultRange,
  ): Promise<ReportQuery> {
    return buildReportQuery(raw, await queryContext(accountId, defaultRange));
  };
}

export type ReportQueries = ReturnType<typeof createReportQueries>;
