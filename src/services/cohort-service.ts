import {
  type AverageCohort,
  type ChartPeriod,
  type Cohort,
  cohortChart,
  type CohortLimits,
  cohortInterval,
  cohortReport,
  type CohortReport,
} from '../engine/reports/cohort.js';
import { MAX_COHORTS } from './limits.js';
import type { ReportInputs } from './report-inputs.js';
import { breakdownGroups } from '../engine/breakdown.js';
import {
  checkBreakdownSize,
  checkPeriodCount,
  parseBreakdown,
  type RawReportParams,
} from './report-query.js';

/** `date` is an end date or a range (as the reference sends it); alone, cohorts start up to 365 days before it. */
const RANGE = { days: 365, ahead: false, endDateAlone: true };

interface CohortEnvelope {
  currency: string;
  breakdown?: string;
}

export interface CohortListResponse extends CohortEnvelope {
  result: { list: (Cohort | AverageCohort)[]; limits: CohortLimits };
}

export interface CohortChartResponse extends CohortEnvelope {
  result: ChartPeriod[];
}

/** Cohort retention (/reports/cohort), as a list or laid out for a chart. */
export function createCohortService(prepare: ReportInputs) {
  async function report(
    accountId: string,
    raw: RawReportParams & { breakdown?: string },
  ): Promise<{ envelope: CohortEnvelope; report: CohortReport }> {
    const breakdown = parseBreakdown(raw.breakdown);
    const { query, snapshot, customers, table } = await prepare(accountId, raw, RANGE, (parsed) =>
      checkPeriodCount(parsed, cohortInterval(parsed.interval), MAX_COHORTS, 'cohorts'),
    );
    if (breakdown !== undefined) {
      const { values } = breakdownGroups(snapshot, breakdown, customers, query.to);
      checkBreakdownSize(breakdown, values.length, query, cohortInterval(query.interval));
    }
    return {
      envelope:
        breakdown === undefined
          ? { currency: query.baseCurrency }
          : { currency: query.baseCurrency, breakdown },
      report: cohortReport(snapshot, { ...query, customers, breakdown: breakdown ?? null }, table),
    };
  }

  return {
    async cohort(
      accountId: string,
      raw: RawReportParams & { breakdown?: string },
    ): Promise<CohortListResponse> {
      const { envelope, report: cohorts } = await report(accountId, raw);
      return { ...envelope, result: { list: [...cohorts.cohorts, cohorts.average], limits: cohorts.limits } };
    },

    async cohortChart(
      accountId: string,
      raw: RawReportParams & { breakdown?: string },
    ): Promise<CohortChartResponse> {
      const { envelope, report: cohorts } = await report(accountId, raw);
      return { ...envelope, result: cohortChart(cohorts) };
    },
  };
}

export type CohortService = ReturnType<typeof createCohortService>;
