import type { FunnelColumns } from '../account-snapshot.js';
import { eachFunnel } from './leads-funnel.js';
import { percentageChange, SUMMARY_OFFSETS } from './summary.js';

export interface LeadsSummaryQuery {
  today: number;
  /** The last day of every window. */
  end: number;
  customers: Uint8Array | null;
}

/** The stages the summary counts, in the order of its fields. */
export const LEADS_SUMMARY_STAGES = ['leads', 'trials'] as const;

/** A window of the last `length` days and the one just before it, with what each holds. */
interface Window {
  length: number;
  now: number;
  before: number;
}

/**
 * Leads and trials of the last 30, 60, 180 and 365 days up to `end` (`leads_30` ...), and
 * `<stage>_percentage_change_<N>` from the N days just before that window.
 */
export function leadsSummary(funnel: FunnelColumns, query: LeadsSummaryQuery): Record<string, number | null> {
  const windows = {
    leads: SUMMARY_OFFSETS.map((length): Window => ({ length, now: 0, before: 0 })),
    trials: SUMMARY_OFFSETS.map((length): Window => ({ length, now: 0, before: 0 })),
  };
  const count = (stageWindows: readonly Window[], day: number | null) => {
    if (day === null) return;
    const ago = query.end - day;
    for (const window of stageWindows) {
      if (ago < 0 || ago >= 2 * window.length) continue;
      if (ago < window.length) window.now += 1;
      else window.before += 1;
    }
  };
  eachFunnel(funnel, query.customers, query.today, ({ lead, trial }) => {
    count(windows.leads, lead);
    count(windows.trials, trial);
  });
  const summary: Record<string, number | null> = {};
  for (const stage of LEADS_SUMMARY_STAGES) {
    for (const window of windows[stage]) summary[`${stage}_${window.length}`] = window.now;
  }
  for (const stage of LEADS_SUMMARY_STAGES) {
    for (const window of windows[stage]) {
      summary[`${stage}_percentage_change_${window.length}`] = percentageChange(window.now, window.before);
    }
  }
  return summary;
}
