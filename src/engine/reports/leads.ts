import type { RangeQuery } from '../range-query.js';
import type { FunnelColumns } from '../account-snapshot.js';
import { seriesPeriods } from '../cashflow/cashflow-data.js';
import { percentOf } from '../cashflow/to-date.js';
import { dayString } from '../days.js';
import { nextPeriodStart, periodStart } from '../periods.js';
import { ratioOrZero } from '../ratio.js';
import { daysBetween, eachFunnel } from './leads-funnel.js';
import { percentageChange } from './summary.js';

export type LeadsQuery = Pick<RangeQuery, 'today' | 'from' | 'to' | 'interval' | 'customers'>;

export interface LeadsForecast {
  leads_forecast: number;
  trials_forecast: number;
  conversions_forecast: number;
  trial_to_paid_rate_forecast: number;
}

export interface LeadsRow extends Partial<LeadsForecast> {
  date: string;
  leads: number;
  leads_percent_change: number | null;
  trials: number;
  trials_percent_change: number | null;
  leads_converted: number;
  trials_converted: number;
  /** Rates and days are 0 where nothing was counted (ratioOrZero); their changes stay null then. */
  lead_to_trial_rate: number;
  lead_to_trial_rate_percent_change: number | null;
  trial_to_paid_rate: number;
  trial_to_paid_rate_percent_change: number | null;
  lead_to_paid_rate: number;
  lead_to_paid_rate_percent_change: number | null;
  lead_to_paid_days: number;
  trial_to_paid_days: number;
}

/** What one period adds up: its leads and what became of them, its trials and what became of them. */
interface Tally {
  leads: number;
  leadsTrialed: number;
  leadsConverted: number;
  leadToPaidDays: number;
  trials: number;
  trialsConverted: number;
  trialToPaidDays: number;
}

const emptyTally = (): Tally => ({
  leads: 0,
  leadsTrialed: 0,
  leadsConverted: 0,
  leadToPaidDays: 0,
  trials: 0,
  trialsConverted: 0,
  trialToPaidDays: 0,
});

function tallyPeriods(funnel: FunnelColumns, query: LeadsQuery) {
  const { periods, indexOf } = seriesPeriods(query);
  const tallies = periods.map(emptyTally);
  eachFunnel(funnel, query.customers, query.today, ({ lead, trial, paid }) => {
    const leadTally = lead === null ? undefined : tallies[indexOf(lead)];
    if (lead !== null && leadTally !== undefined) {
      leadTally.leads += 1;
      if (trial !== null) leadTally.leadsTrialed += 1;
      if (paid !== null) {
        leadTally.leadsConverted += 1;
        leadTally.leadToPaidDays += daysBetween(lead, paid);
      }
    }
    const trialTally = trial === null ? undefined : tallies[indexOf(trial)];
    if (trial !== null && trialTally !== undefined) {
      trialTally.trials += 1;
      if (paid !== null) {
        trialTally.trialsConverted += 1;
        trialTally.trialToPaidDays += daysBetween(trial, paid);
      }
    }
  });
  return { periods, tallies, indexOf };
}

/**
 * The forecast of the period holding today: each count extrapolated linearly from the days
 * gone (today included) to the whole period, from the row's start to the period's own end
 * even when the range ends sooner. Scaling trials and their conversions alike keeps the
 * trial-to-paid rate.
 */
function forecast(
  row: LeadsRow,
  tally: Tally,
  start: number,
  query: Pick<LeadsQuery, 'today' | 'interval'>,
): LeadsForecast {
  const end = nextPeriodStart(periodStart(query.today, query.interval), query.interval) - 1;
  const scale = (end - start + 1) / (query.today - start + 1);
  return {
    leads_forecast: Math.round(tally.leads * scale),
    trials_forecast: Math.round(tally.trials * scale),
    conversions_forecast: Math.round(tally.leadsConverted * scale),
    trial_to_paid_rate_forecast: row.trial_to_paid_rate,
  };
}

/**
 * Leads, trials and conversions per period of the range (the first and last cut to it).
 * Leads count in the period of their creation and trials in that of their start; a
 * conversion counts with its lead or trial, so a period's rates say what became of the
 * leads and trials it brought (docs/metrics.md, "Leads, trials and conversions"). Changes
 * are from the row before, null on the first row.
 */
export function leadsReport(funnel: FunnelColumns, query: LeadsQuery): LeadsRow[] {
  const { periods, tallies, indexOf } = tallyPeriods(funnel, query);
  const current = indexOf(query.today);
  let previous: LeadsRow | null = null;
  return periods.map((period, index) => {
    const tally = tallies[index]!;
    // Null rates where nothing was counted, so that no change is measured from or to them.
    const figures = {
      leads: tally.leads,
      trials: tally.trials,
      lead_to_trial_rate: percentOf(tally.leadsTrialed, tally.leads),
      trial_to_paid_rate: percentOf(tally.trialsConverted, tally.trials),
      lead_to_paid_rate: percentOf(tally.leadsConverted, tally.leads),
    };
    const change = (figure: keyof typeof figures) =>
      previous === null ? null : percentageChange(figures[figure], previous[figure]);
    const row: LeadsRow = {
      date: dayString(period.start),
      leads: figures.leads,
      leads_percent_change: change('leads'),
      trials: figures.trials,
      trials_percent_change: change('trials'),
      leads_converted: tally.leadsConverted,
      trials_converted: tally.trialsConverted,
      lead_to_trial_rate: figures.lead_to_trial_rate ?? 0,
      lead_to_trial_rate_percent_change: change('lead_to_trial_rate'),
      trial_to_paid_rate: figures.trial_to_paid_rate ?? 0,
      trial_to_paid_rate_percent_change: change('trial_to_paid_rate'),
      lead_to_paid_rate: figures.lead_to_paid_rate ?? 0,
      lead_to_paid_rate_percent_change: change('lead_to_paid_rate'),
      lead_to_paid_days: Math.round(ratioOrZero(tally.leadToPaidDays, tally.leadsConverted)),
      trial_to_paid_days: Math.round(ratioOrZero(tally.trialToPaidDays, tally.trialsConverted)),
    };
    if (index === current) Object.assign(row, forecast(row, tally, period.start, query));
    previous = row;
    return row;
  });
}
