import { breakdownGroups } from '../engine/breakdown.js';
import type { Interval } from '../engine/periods.js';
import { type MapReport, mapReport } from '../engine/reports/map.js';
import { type RetentionRow, retentionReport } from '../engine/reports/retention.js';
import type { CashflowTables } from './cashflow-tables.js';
import { InvalidInputError } from './errors.js';
import { MAX_TRAILING_MONTHS } from './limits.js';
import type { ReportInputs } from './report-inputs.js';
import { checkBreakdownSize, parseBreakdown, type RawReportParams } from './report-query.js';

/** Without `trailing_months`, each row's baseline lies one period back (at least a month). */
const DEFAULT_TRAILING_MONTHS: Record<Interval, number> = { day: 1, week: 1, month: 1, quarter: 3, year: 12 };

export interface RetentionResponse {
  currency: string;
  breakdown?: string;
  result: (RetentionRow & { breakdown_value?: string | null })[];
  trailing_months: number;
  baseline_period: string;
  target_period: string;
}

function parseTrailingMonths(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const months = Number(raw);
  if (!/^\d+$/.test(raw) || months < 1 || months > MAX_TRAILING_MONTHS) {
    throw new InvalidInputError(
      `Invalid query parameter "trailing_months": expected a whole number of months from 1 to ${MAX_TRAILING_MONTHS}`,
    );
  }
  return months;
}

/**
 * The world map and the retention series (docs/metrics.md, "World map" and "Retention"), pure engine
 * functions over the snapshot.
 */
export function createMapRetentionService(
  prepare: ReportInputs,
  prepareWithCashflow: ReportInputs,
  cashflowTables: CashflowTables,
) {
  return {
    async map(accountId: string, raw: RawReportParams): Promise<{ currency: string; result: MapReport }> {
      const { query, snapshot, customers, table } = await prepareWithCashflow(accountId, raw);
      const cashflow = await cashflowTables(accountId, snapshot);
      return {
        currency: query.baseCurrency,
        result: mapReport(snapshot, cashflow, { ...query, customers }, table),
      };
    },

    async retention(
      accountId: string,
      raw: RawReportParams & { breakdown?: string; trailing_months?: string },
    ): Promise<RetentionResponse> {
      const breakdown = parseBreakdown(raw.breakdown);
      const askedMonths = parseTrailingMonths(raw.trailing_months);
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const trailingMonths = askedMonths ?? DEFAULT_TRAILING_MONTHS[query.interval];
      const groups =
        breakdown === undefined
          ? {
              values: [null],
              groupOf: Int32Array.from(snapshot.customers, (_, index) =>
                customers === null || customers[index] === 1 ? 0 : -1,
              ),
            }
          : breakdownGroups(snapshot, breakdown, customers, query.to);
      if (breakdown !== undefined) checkBreakdownSize(breakdown, groups.values.length, query, query.interval);
      const report = retentionReport(
        snapshot,
        { ...query, trailingMonths, groupOf: groups.groupOf, groupCount: groups.values.length },
        table,
      );
      const periods = {
        trailing_months: trailingMonths,
        baseline_period: report.baselinePeriod,
        target_period: report.targetPeriod,
      };
      if (breakdown === undefined)
        return { currency: query.baseCurrency, result: report.rows[0]!, ...periods };
      const result = groups.values
        .flatMap((value, group) => report.rows[group]!.map((row) => ({ ...row, breakdown_value: value })))
        .sort((a, b) => a.date.localeCompare(b.date));
      return { currency: query.baseCurrency, breakdown, result, ...periods };
    },
  };
}

export type MapRetentionService = ReturnType<typeof createMapRetentionService>;
