import {
  type Cancellation,
  type CancellationTiming,
  cancellations,
  cancellationTimingReport,
} from '../engine/reports/cancellation-timing.js';
import { type ChurnReason, churnReasonsReport } from '../engine/reports/churn-reasons.js';
import type { Clock } from './clock.js';
import type { ReportInputs } from './report-inputs.js';
import { parseBoolean, type RawReportParams } from './report-query.js';

export interface ChurnReasonsResponse {
  currency: string;
  /** Markdown, one bullet per reason; null when no cancellation of the range gives one. */
  summary: string | null;
  /** Why `summary` is null. */
  reason?: 'no_comments';
  comment_count: number;
  /** A string, as the hosted service's clients read it (docs/decisions.md). */
  total_cancellations: string;
  generated_at: string;
  reasons: ChurnReason[];
}

function money(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
}

function bullet(entry: ChurnReason, currency: string): string {
  const label = entry.reason === null ? 'No reason given' : `**${entry.reason}**`;
  const count = `${entry.cancellations} cancellation${entry.cancellations === 1 ? '' : 's'}`;
  return `- ${label}: ${count} (${entry.share_pct}%), ${money(entry.churned_mrr, currency)} of MRR`;
}

/**
 * What the churns of a range say: the reasons their customers record (with a Markdown summary
 * of the same figures) and how long they had been paying.
 */
export function createChurnService(prepare: ReportInputs, clock: Clock) {
  return {
    async reasonsSummary(
      accountId: string,
      raw: RawReportParams & { regenerate?: string },
    ): Promise<ChurnReasonsResponse> {
      // Accepted for the hosted service's clients; every answer is computed afresh anyway.
      parseBoolean('regenerate', raw.regenerate);
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const report = churnReasonsReport(snapshot, { ...query, customers }, table);
      const currency = query.baseCurrency;
      const common = {
        currency,
        comment_count: report.comment_count,
        total_cancellations: String(report.total_cancellations),
        generated_at: clock.now().toISOString(),
        reasons: report.reasons,
      };
      if (report.comment_count === 0) return { ...common, summary: null, reason: 'no_comments' };
      const heading = `${report.total_cancellations} cancellations, ${report.comment_count} with a reason:`;
      const summary = [heading, '', ...report.reasons.map((entry) => bullet(entry, currency))].join('\n');
      return { ...common, summary };
    },

    async timing(
      accountId: string,
      raw: RawReportParams,
    ): Promise<{ currency: string } & CancellationTiming> {
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      return {
        currency: query.baseCurrency,
        ...cancellationTimingReport(snapshot, { ...query, customers }, table),
      };
    },

    async timingDetail(
      accountId: string,
      raw: RawReportParams,
      page: { limit: number; offset: number },
    ): Promise<{ currency: string; result: { count: number; list: Cancellation[] } }> {
      const { query, snapshot, customers, table } = await prepare(accountId, raw);
      const list = cancellations(snapshot, { ...query, customers }, table).slice(
        page.offset,
        page.offset + page.limit,
      );
      return { currency: query.baseCurrency, result: { count: list.length, list } };
    },
  };
}
