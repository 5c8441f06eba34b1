import { ownValue } from '../engine/own-value.js';
import { breakdownMask, breakdownValue } from '../engine/breakdown.js';
import type { Interval } from '../engine/periods.js';
import { cmrrSummary } from '../engine/reports/cmrr-summary.js';
import { scheduledChurnMovements } from '../engine/reports/scheduled-churn-movements.js';
import type { MovementOrder } from '../engine/reports/movement-list.js';
import { type ScheduledChurnRow, scheduledChurnSeries } from '../engine/reports/scheduled-churn-series.js';
import { scheduledChurnSummary } from '../engine/reports/scheduled-churn-summary.js';
import { OPEN_END } from '../engine/types.js';
import { InvalidInputError } from './errors.js';
import { movementItem, type MovementItem, sortMovements } from './movement-items.js';
import type { ReportInputs } from './report-inputs.js';
import { parseBreakdown, parseSelectedPeriod, type RawReportParams } from './report-query.js';

/** `selected-type` values and the period each one selects. */
export const SELECTED_TYPES: Record<string, Interval> = {
  day_churn: 'day',
  week_churn: 'week',
  month_churn: 'month',
  quarter_churn: 'quarter',
  year_churn: 'year',
};

export interface ScheduledMovementsParams {
  'selected-date'?: string | undefined;
  'selected-type'?: string | undefined;
  breakdown?: string | undefined;
  'breakdown-value'?: string | undefined;
}

/** A series of what is scheduled runs, without `date`, over the next 365 days from tomorrow. */
const AHEAD = { days: 365, ahead: true };

/**
 * Scheduled churn and committed MRR (docs/metrics.md, "Scheduled churn" and "Committed MRR"), pure
 * engine functions over the snapshot.
 */
export function createScheduledReportsService(prepare: ReportInputs) {
  return {
    async churnScheduledMovements(
      accountId: string,
      raw: RawReportParams & ScheduledMovementsParams,
      listOrder: MovementOrder,
    ): Promise<{ result: { list: MovementItem[] } }> {
      const breakdown = parseBreakdown(raw.breakdown);
      const wanted = raw['breakdown-value'];
      if (wanted !== undefined && breakdown === undefined) {
        throw new InvalidInputError('Invalid query parameter "breakdown-value": needs "breakdown"');
      }
      const {
        query,
        own: period,
        snapshot,
        customers,
        table,
      } = await prepare(accountId, raw, undefined, (parsed) => {
        const selectedType = raw['selected-type'];
        const interval =
          selectedType === undefined ? parsed.interval : ownValue(SELECTED_TYPES, selectedType);
        if (interval === undefined) {
          throw new InvalidInputError(
            `Invalid query parameter "selected-type": expected one of ${Object.keys(SELECTED_TYPES).join(', ')}`,
          );
        }
        return parseSelectedPeriod(raw['selected-date'], interval);
      });
      const kept =
        breakdown === undefined || wanted === undefined
          ? customers
          : breakdownMask(snapshot.customers, breakdown, customers, wanted, query.to);
      const listed = scheduledChurnMovements(
        snapshot,
        {
          today: query.today,
          from: period?.start ?? query.today + 1,
          to: period?.end ?? OPEN_END,
          baseCurrency: query.baseCurrency,
          // One rate for the whole list: the end of the period, or today's (the latest known) for all.
          fixedRateDay: query.fixFx ? (period?.end ?? query.today) : null,
          customers: kept,
        },
        table,
      );
      // With a breakdown but no value to keep, the items of one value come together, in value
      // order, those without a value last.
      sortMovements(listed, listOrder, (movement) =>
        breakdown === undefined
          ? null
          : breakdownValue(snapshot.customers[movement.customerIndex]!, breakdown, query.to),
      );
      return { result: { list: listed.map((movement) => movementItem(snapshot, movement)) } };
    },

    async churnScheduled(
      accountId: string,
      raw: RawReportParams,
    ): Promise<{ currency: string; result: ScheduledChurnRow[] }> {
      const { query, snapshot, customers, table } = await prepare(accountId, raw, AHEAD);
      const result = scheduledChurnSeries(snapshot.movements, { ...query, customers }, table);
      return { currency: query.baseCurrency, result };
    },

    async churnScheduledSummary(
      accountId: string,
      raw: RawReportParams,
    ): Promise<{ currency: string; summary: Record<string, number> }> {
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const summary = scheduledChurnSummary(snapshot.movements, { ...query, customers }, table);
      return { currency: query.baseCurrency, summary };
    },

    async cmrrSummary(
      accountId: string,
      raw: RawReportParams,
    ): Promise<{ currency: string; summary: Record<string, number> }> {
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      return {
        currency: query.baseCurrency,
        summary: cmrrSummary(snapshot.movements, { ...query, customers }, table),
      };
    },
  };
}

export type ScheduledReportsService = ReturnType<typeof createScheduledReportsService>;
