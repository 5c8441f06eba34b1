import type { AccountSnapshot } from '../engine/account-snapshot.js';
import { breakdownGroups, breakdownMasks } from '../engine/breakdown.js';
import { dayString } from '../engine/days.js';
import { periodStart, shiftMonths } from '../engine/periods.js';
import { listedPositions, movementPage } from '../engine/reports/movement-list.js';
import { type MrrGrowthRow, mrrGrowthReport } from '../engine/reports/mrr-growth.js';
import { firstInOrder } from '../engine/select.js';
import type { MovementKind, MovementSubtype } from '../engine/types.js';
import { mrrReport, type MrrQuery, type MrrRow } from '../engine/reports/mrr.js';
import {
  mrrRowsWithSubtypes,
  mrrSubtypesReport,
  type MrrSubtypesRow,
  type SplitKind,
} from '../engine/reports/mrr-subtypes.js';
import { MOVEMENT_SUBTYPES, SUBTYPES_OF_KIND } from '../engine/vocabulary.js';
import { knownDayOf } from '../engine/reports/scheduled.js';
import { type ConcentrationReport, concentrationReport } from '../engine/reports/concentration.js';
import { type Summary, summaryReport } from '../engine/reports/summary.js';
import { InvalidInputError } from './errors.js';
import { movementItem, type MovementItem } from './movement-items.js';
import type { ReportInputs } from './report-inputs.js';
import {
  checkBreakdownSize,
  parseBoolean,
  parseBreakdown,
  parseKinds,
  SUBTYPE_BREAKDOWN,
  parseReportDay,
  parseSplitKind,
  type RawReportParams,
  type ReportQuery,
} from './report-query.js';

export type MrrSeriesRow = MrrRow & { breakdown_value?: string | null };

export interface MrrResponse {
  currency: string;
  breakdown?: string;
  result: MrrSeriesRow[];
  /** The same rows for the comparison range, when `compare` was asked for. */
  compare?: MrrRow[];
}

export const COMPARES = ['last-period', 'last-year'] as const;

export interface ActivityItem {
  source: 'mrr' | 'scheduled' | 'payments';
  type: MovementKind | 'failed_payment';
  subtype: string | null;
  date: string;
  effective_date: string;
  overdue_date: string | null;
  customer_id: string;
  customer_name: string | null;
  customer_email: string | null;
  amount: number;
  currency: string;
}

function parseMonth(raw: string): number {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(raw)) {
    throw new InvalidInputError('Invalid query parameter "compareMonth": expected a month YYYY-MM');
  }
  return parseReportDay('compareMonth', `${raw}-01`);
}

/** The range to compare with: the same dates a year earlier, or the equally long range just before. */
function shiftRange(query: ReportQuery, compare: (typeof COMPARES)[number]): { from: number; to: number } {
  if (compare === 'last-year') return { from: shiftMonths(query.from, -12), to: shiftMonths(query.to, -12) };
  const days = query.to - query.from + 1;
  return { from: query.from - days, to: query.to - days };
}

/**
 * The series of an MRR breakdown, each with the query of its report. A customer dimension gives
 * one series per value, of that value's customers; `subtype` one per subtype, every subtype
 * listed, each the report of that subtype's movements alone.
 */
function mrrSeries(
  snapshot: AccountSnapshot,
  breakdown: string,
  base: MrrQuery,
): { value: string | null; query: MrrQuery }[] {
  if (breakdown === SUBTYPE_BREAKDOWN) {
    checkBreakdownSize(breakdown, MOVEMENT_SUBTYPES.length, base, base.interval);
    return MOVEMENT_SUBTYPES.map((value, subtype) => ({ value, query: { ...base, subtype } }));
  }
  const groups = breakdownGroups(snapshot, breakdown, base.customers, base.to);
  checkBreakdownSize(breakdown, groups.values.length, base, base.interval);
  return breakdownMasks(groups).map(({ value, customers }) => ({ value, query: { ...base, customers } }));
}

/** The MRR reports under /reports (docs/api.md, "Reports"), each a pure engine function over the account snapshot. */
export function createReportsService(prepare: ReportInputs) {
  return {
    async movementTable(
      accountId: string,
      raw: RawReportParams & { type?: string; committed?: string },
      page: { sort: 'date' | 'mrr_change'; order: 'asc' | 'desc'; limit: number; offset: number },
    ): Promise<{ currency: string; result: { count: number; list: MovementItem[] } }> {
      const kinds = parseKinds('type', raw.type);
      const committed = parseBoolean('committed', raw.committed);
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const list = movementPage(
        snapshot,
        {
          ...query,
          fixedRateDay: query.fixFx ? query.to : null,
          customers,
          kinds,
          committed,
        },
        table,
        page,
      ).map((movement) => movementItem(snapshot, movement));
      return { currency: query.baseCurrency, result: { count: list.length, list } };
    },

    async latestActivity(
      accountId: string,
      raw: RawReportParams,
      options: { limit: number; days: number; includeScheduled: boolean },
    ): Promise<{ currency: string; result: ActivityItem[] }> {
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const listed = listedPositions(
        snapshot,
        {
          ...query,
          from: query.today - options.days + 1,
          // Scheduled movements reach into the future; a year ahead is plenty for a feed.
          to: options.includeScheduled ? query.today + 366 : query.today,
          fixedRateDay: null,
          customers,
          kinds: null,
          committed: options.includeScheduled,
        },
        table,
      );
      // A scheduled movement shows on the day it became known; newest first, then by effective
      // day. The list comes in day order, so reading it from the end keeps the heap still. Made
      // at every request, it builds only the movements of the page.
      const { movements } = snapshot;
      const day = new Int32Array(listed.count);
      for (let n = 0; n < listed.count; n++) day[n] = movements.movementDay[listed.position(n)]!;
      const known = day.map((effective, n) =>
        effective > query.today ? knownDayOf(movements, listed.position(n), query.today) : effective,
      );
      const newest = (a: number, b: number) => known[b]! - known[a]! || day[b]! - day[a]! || a - b;
      const result = firstInOrder(listed.count, options.limit, newest, true).map((n): ActivityItem => {
        const movement = listed.at(n);
        const customer = snapshot.customers[movement.customerIndex]!;
        return {
          source: movement.day > query.today ? 'scheduled' : 'mrr',
          type: movement.kind,
          subtype: movement.subtype,
          date: dayString(known[n]!),
          effective_date: dayString(movement.day),
          overdue_date: null,
          customer_id: customer.id,
          customer_name: customer.name,
          customer_email: customer.email,
          amount: movement.amountBase,
          currency: query.baseCurrency,
        };
      });
      return { currency: query.baseCurrency, result };
    },

    async mrrGrowth(
      accountId: string,
      raw: RawReportParams & { compareMonth?: string; types?: string },
    ): Promise<{ currency: string; result: MrrGrowthRow[] }> {
      const askedCompareMonth = raw.compareMonth === undefined ? undefined : parseMonth(raw.compareMonth);
      const kinds = parseKinds('types', raw.types);
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const month = raw.date === undefined ? query.today : query.to;
      const compareMonth = askedCompareMonth ?? shiftMonths(periodStart(month, 'month'), -1);
      const result = mrrGrowthReport(
        snapshot,
        {
          month,
          compareMonth,
          today: query.today,
          baseCurrency: query.baseCurrency,
          customers,
          kinds,
        },
        table,
      );
      return { currency: query.baseCurrency, result };
    },

    async concentration(
      accountId: string,
      raw: RawReportParams & { q?: string },
    ): Promise<{ currency: string; result: ConcentrationReport }> {
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const search = raw.q?.trim() ? raw.q.trim().toLowerCase() : null;
      const result = concentrationReport(
        snapshot,
        { today: query.today, baseCurrency: query.baseCurrency, customers, search },
        table,
      );
      return { currency: query.baseCurrency, result };
    },

    async summary(accountId: string, raw: RawReportParams): Promise<{ currency: string; summary: Summary }> {
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const summary = summaryReport(snapshot.movements, { ...query, customers }, table);
      return { currency: query.baseCurrency, summary };
    },

    async mrrSubtypes(
      accountId: string,
      raw: RawReportParams & { type?: string; committed?: string },
    ): Promise<{ currency: string; type: SplitKind; subtypes: MovementSubtype[]; result: MrrSubtypesRow[] }> {
      const kind = parseSplitKind(raw.type);
      const committed = parseBoolean('committed', raw.committed);
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      // The engine's rows may be kept for the snapshot, shared and frozen: the response gets
      // its own array of them.
      const result = [
        ...mrrSubtypesReport(snapshot.movements, { ...query, customers, committed }, kind, table),
      ];
      return { currency: query.baseCurrency, type: kind, subtypes: [...SUBTYPES_OF_KIND[kind]], result };
    },

    /** The MRR rows with the subtypes of expansion, contraction and churn beside them. */
    async mrrWithSubtypes(
      accountId: string,
      raw: RawReportParams & { committed?: string },
    ): Promise<{ currency: string; result: Record<string, number | string | null>[] }> {
      const committed = parseBoolean('committed', raw.committed);
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const result = mrrRowsWithSubtypes(snapshot.movements, { ...query, customers, committed }, table);
      return { currency: query.baseCurrency, result };
    },

    async mrr(
      accountId: string,
      raw: RawReportParams & { breakdown?: string; compare?: string; committed?: string },
    ): Promise<MrrResponse> {
      const breakdown =
        raw.breakdown === SUBTYPE_BREAKDOWN ? SUBTYPE_BREAKDOWN : parseBreakdown(raw.breakdown);
      if (raw.compare !== undefined && !(COMPARES as readonly string[]).includes(raw.compare)) {
        throw new InvalidInputError(`Invalid query parameter "compare": expected ${COMPARES.join(' or ')}`);
      }
      const committed = parseBoolean('committed', raw.committed);
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const base: MrrQuery = { ...query, customers, committed };
      const response: MrrResponse = { currency: query.baseCurrency, result: [] };
      if (breakdown === undefined) {
        // Its own array of the kept rows, as for the subtypes.
        response.result = [...mrrReport(snapshot.movements, base, table)];
      } else {
        response.breakdown = breakdown;
        response.result = mrrSeries(snapshot, breakdown, base)
          .flatMap(({ value, query: seriesQuery }) =>
            mrrReport(snapshot.movements, seriesQuery, table).map((row) => ({
              ...row,
              breakdown_value: value,
            })),
          )
          .sort((a, b) => a.date.localeCompare(b.date));
      }
      if (raw.compare !== undefined) {
        const shifted = shiftRange(query, raw.compare as (typeof COMPARES)[number]);
        response.compare = [
          ...mrrReport(snapshot.movements, { ...base, from: shifted.from, to: shifted.to }, table),
        ];
      }
      return response;
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
