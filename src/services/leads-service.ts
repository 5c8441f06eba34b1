import { type LeadsDaysReport, leadsDaysReport } from '../engine/reports/leads-days.js';
import { leadsSummary } from '../engine/reports/leads-summary.js';
import { type LeadItem, leadsTable } from '../engine/reports/leads-table.js';
import { leadsReport, type LeadsRow } from '../engine/reports/leads.js';
import type { ReportInputs } from './report-inputs.js';
import type { RawReportParams } from './report-query.js';

/** The lead and trial funnel (docs/metrics.md), pure engine functions over the snapshot. */
export function createLeadsService(prepare: ReportInputs) {
  return {
    async leads(accountId: string, raw: RawReportParams): Promise<{ currency: string; result: LeadsRow[] }> {
      const { query, snapshot, customers } = await prepare(accountId, raw);
      return {
        currency: query.baseCurrency,
        result: leadsReport(snapshot.funnel, { ...query, customers }),
      };
    },

    async leadsSummary(
      accountId: string,
      raw: RawReportParams,
    ): Promise<{ currency: string; summary: Record<string, number | null> }> {
      const { query, snapshot, customers } = await prepare(accountId, raw);
      return {
        currency: query.baseCurrency,
        summary: leadsSummary(snapshot.funnel, { today: query.today, end: query.to, customers }),
      };
    },

    async leadsDays(
      accountId: string,
      raw: RawReportParams,
    ): Promise<{ currency: string } & LeadsDaysReport> {
      const { query, snapshot, customers } = await prepare(accountId, raw);
      return {
        currency: query.baseCurrency,
        ...leadsDaysReport(snapshot.funnel, { ...query, customers }),
      };
    },

    async leadsTable(
      accountId: string,
      raw: RawReportParams,
      page: { limit: number; offset: number },
    ): Promise<{ currency: string; result: { count: number; list: LeadItem[] } }> {
      const { query, snapshot, customers } = await prepare(accountId, raw);
      const list = leadsTable(snapshot, { ...query, customers }).slice(page.offset, page.offset + page.limit);
      return { currency: query.baseCurrency, result: { count: list.length, list } };
    },
  };
}

export type LeadsService = ReturnType<typeof createLeadsService>;
