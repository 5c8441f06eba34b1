import { breakdownGroups, breakdownMasks } from '../engine/breakdown.js';
import { dayString } from '../engine/days.js';
import { periodStart, shiftMonths } from '../engine/periods.js';
import { listMovements, movementPage } from '../engine/reports/movement-list.js';
import { type MrrGrowthRow, mrrGrowthReport } from '../engine/reports/mrr-growth.js';
import { firstInOrder } from '../engine/select.js';
import type { MovementKind } from '../engine/types.js';
import { mrrReport, type MrrQuery, type MrrRow } from '../engine/reports/mrr.js';
import { knownSince } from '../engine/reports/scheduled.js';
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
  parseReportDay,
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

/** The MRR reports of SPEC 4.6, each a pure engine function over the account snapshot. */
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
      const listed = listMovements(
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
      // day. The list comes in day order, so reading it from the end keeps the heap still.
      const known = listed.map((movement) =>
        movement.day > query.today ? knownSince(movement.knownDay, query.today) : movement.day,
      );
      const newest = (a: number, b: number) =>
        known[b]! - known[a]! || listed[b]!.day - listed[a]!.day || a - b;
      const result = firstInOrder(listed.length, options.limit, newest, true).map((n): ActivityItem => {
        const movement = listed[n]!;
        const customer = snapshot.customers[movement.customerIndex]!;
        return {
          source: movement.day > query.today ? 'scheduled' : 'mrr',
          type: movement.kind,
          subtype: null,
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

    async mrr(
      accountId: string,
      raw: RawReportParams & { breakdown?: string; compare?: string; committed?: string },
    ): Promise<MrrResponse> {
      const breakdown = parseBreakdown(raw.breakdown);
      if (raw.compare !== undefined && !(COMPARES as readonly string[]).includes(raw.compare)) {
        throw new InvalidInputError(`Invalid query parameter "compare": expected ${COMPARES.join(' or ')}`);
      }
      const committed = parseBoolean('committed', raw.committed);
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const base: MrrQuery = { ...query, customers, committed };
      const response: MrrResponse = { currency: query.baseCurrency, result: [] };
      if (breakdown === undefined) {
        response.result = mrrReport(snapshot.movements, base, table);
      } else {
        response.breakdown = breakdown;
        const groups = breakdownGroups(snapshot.customers, breakdown, customers, query.to);
        checkBreakdownSize(breakdown, groups.values.length, query, query.interval);
        response.result = breakdownMasks(groups)
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
