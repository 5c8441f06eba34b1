import { dayString } from '../engine/days.js';
import type { CashflowService } from './cashflow-service.js';
import type { Clock } from './clock.js';
import { today } from './report-context.js';
import type { RawReportParams } from './report-query.js';
import type { ActivityItem, ReportsService } from './reports-service.js';

export interface ActivityOptions {
  limit: number;
  days: number;
  includeScheduled: boolean;
  includeFailed: boolean;
}

const compact = (day: number) => dayString(day).replaceAll('-', '');

/** The latest-activity feed: MRR movements (and scheduled ones) merged with failed payments, newest first. */
export function createActivityService(reports: ReportsService, cashflow: CashflowService, clock: Clock) {
  return {
    async latest(
      accountId: string,
      raw: RawReportParams,
      options: ActivityOptions,
    ): Promise<{ currency: string; result: ActivityItem[] }> {
      const feed = await reports.latestActivity(accountId, raw, options);
      if (!options.includeFailed) return feed;
      const end = today(clock);
      const failed = await cashflow.failedPaymentsDetail(
        accountId,
        { ...raw, date: `${compact(end - options.days + 1)}-${compact(end)}` },
        { limit: options.limit, offset: 0 },
      );
      const payments = failed.result.list.map((item): ActivityItem => ({
        source: 'payments',
        type: 'failed_payment',
        subtype: item.outcome,
        date: item.date,
        effective_date: item.date,
        overdue_date: item.date,
        customer_id: item.customer_id,
        customer_name: item.customer_name,
        customer_email: item.customer_email,
        amount: item.amount_base_currency,
        currency: feed.currency,
      }));
      const result = [...feed.result, ...payments]
        .sort((a, b) => b.date.localeCompare(a.date))
        .slice(0, options.limit);
      return { currency: feed.currency, result };
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
