import { describe, expect, it } from 'vitest';
import { FUNNEL, FUNNEL_TODAY, WITHOUT_M } from '../../../test/helpers/funnel-customers.js';
import { dayNumber as d } from '../days.js';
import type { Interval } from '../periods.js';
import { leadsReport } from './leads.js';

const report = (from: string, to: string, interval: Interval, customers: Uint8Array | null = WITHOUT_M) =>
  leadsReport(FUNNEL, { today: FUNNEL_TODAY, from: d(from), to: d(to), interval, customers });

describe('leadsReport', () => {
  it('counts leads and trials by their own period and conversions with them (fixture: test/helpers)', () => {
    expect(report('2026-09-01', '2026-11-23', 'month')).toEqual([
      {
        date: '2026-09-01',
        // Leads a, b, c, d; of them a, b, d started a trial (3 / 4) and a, c, d pay (3 / 4).
        leads: 4,
        leads_percent_change: null,
        // Trials a, b; a pays (1 / 2). d's trial is October's.
        trials: 2,
        trials_percent_change: null,
        leads_converted: 3,
        trials_converted: 1,
        lead_to_trial_rate: 75,
        lead_to_trial_rate_percent_change: null,
        trial_to_paid_rate: 50,
        trial_to_paid_rate_percent_change: null,
        lead_to_paid_rate: 75,
        lead_to_paid_rate_percent_change: null,
        // (14 + 5 + 18) / 3 = 12.33; a's trial: 14.
        lead_to_paid_days: 12,
        trial_to_paid_days: 14,
      },
      {
        date: '2026-10-01',
        // Leads e, f, n: (3 - 4) / 4 = -25 %. Trialed e, f: 2 / 3; paying e, n: 2 / 3.
        leads: 3,
        leads_percent_change: -25,
        // Trials d, e, f: (3 - 2) / 2 = +50 %; d and e pay: 2 / 3.
        trials: 3,
        trials_percent_change: 50,
        leads_converted: 2,
        trials_converted: 2,
        // 66.67 against 75: -8.33 / 75 = -11.11 %.
        lead_to_trial_rate: 66.67,
        lead_to_trial_rate_percent_change: -11.11,
        // 66.67 against 50: 16.67 / 50 = 33.34 % (from the rounded rates).
        trial_to_paid_rate: 66.67,
        trial_to_paid_rate_percent_change: 33.34,
        lead_to_paid_rate: 66.67,
        lead_to_paid_rate_percent_change: -11.11,
        // e 30 and n 0 (it paid before it became a lead): 15. Trials d 14 and e 30: 22.
        lead_to_paid_days: 15,
        trial_to_paid_days: 22,
      },
      {
        date: '2026-11-01',
        // Leads g, h, i, j (j today; its trial and payment on Dec 1 are not reached yet).
        // (4 - 3) / 3 = 33.33 %. Trialed g, i: 2 / 4; paying g: 1 / 4.
        leads: 4,
        leads_percent_change: 33.33,
        // Trials g, i: (2 - 3) / 3 = -33.33 %; g pays: 1 / 2.
        trials: 2,
        trials_percent_change: -33.33,
        leads_converted: 1,
        trials_converted: 1,
        // (50 - 66.67) / 66.67 = -25 %; (25 - 66.67) / 66.67 = -62.5 %.
        lead_to_trial_rate: 50,
        lead_to_trial_rate_percent_change: -25,
        trial_to_paid_rate: 50,
        trial_to_paid_rate_percent_change: -25,
        lead_to_paid_rate: 25,
        lead_to_paid_rate_percent_change: -62.5,
        lead_to_paid_days: 16,
        trial_to_paid_days: 14,
        // November holds today: 23 of its 30 days are gone, so each count x 30 / 23:
        // leads 4 x 30 / 23 = 5.22, trials 2 x 30 / 23 = 2.61, conversions 1 x 30 / 23 = 1.30.
        leads_forecast: 5,
        trials_forecast: 3,
        conversions_forecast: 1,
        trial_to_paid_rate_forecast: 50,
      },
    ]);
  });

  it('counts every customer the mask keeps, and only those', () => {
    // With m (lead, trial Oct 1, paid Oct 8): October leads e, f, n, m, trialed e, f, m (3 / 4),
    // paying e, n, m (3 / 4), (30 + 0 + 7) / 3 = 12.33 days; trials d, e, f, m, paying d, e, m
    // (3 / 4) after (14 + 30 + 7) / 3 = 17 days.
    expect(report('2026-10-01', '2026-10-31', 'month', null)).toEqual([
      expect.objectContaining({
        leads: 4,
        trials: 4,
        lead_to_trial_rate: 75,
        lead_to_paid_rate: 75,
        trial_to_paid_rate: 75,
        lead_to_paid_days: 12,
        trial_to_paid_days: 17,
      }),
    ]);
  });

  it('forecasts a year from its days gone, today included', () => {
    // 2026: leads a to j but k (after today) and m (masked): 11. Trialed a, b, d, e, f, g, i:
    // 7 / 11 = 63.64 %; paying a, c, d, e, n, g: 6 / 11 = 54.55 %, after
    // (14 + 5 + 18 + 30 + 0 + 16) / 6 = 13.83 days. Trials (j's is after today) 7, of which
    // a, d, e, g pay: 4 / 7 = 57.14 %, after (14 + 14 + 30 + 14) / 4 = 18 days.
    // Nov 23 is day 327 of 365: leads 11 x 365 / 327 = 12.28, trials 7.81, conversions 6.70.
    expect(report('2026-01-01', '2026-12-31', 'year')).toEqual([
      {
        date: '2026-01-01',
        leads: 11,
        leads_percent_change: null,
        trials: 7,
        trials_percent_change: null,
        leads_converted: 6,
        trials_converted: 4,
        lead_to_trial_rate: 63.64,
        lead_to_trial_rate_percent_change: null,
        trial_to_paid_rate: 57.14,
        trial_to_paid_rate_percent_change: null,
        lead_to_paid_rate: 54.55,
        lead_to_paid_rate_percent_change: null,
        lead_to_paid_days: 14,
        trial_to_paid_days: 18,
        leads_forecast: 12,
        trials_forecast: 8,
        conversions_forecast: 7,
        trial_to_paid_rate_forecast: 57.14,
      },
    ]);
  });

  it('forecasts from the start of a cut period to the end of the whole period', () => {
    // Nov 10 to 30, today Nov 23: 14 days gone of 21. Leads h, i, j: 3 x 21 / 14 = 4.5 -> 5;
    // trial i: 1.5 -> 2; no conversion yet; trial-to-paid 0 / 1 = 0 %.
    const [row] = report('2026-11-10', '2026-11-30', 'month');
    expect(row).toMatchObject({ date: '2026-11-10', leads: 3, trials: 1, trial_to_paid_rate: 0 });
    expect(row).toMatchObject({
      leads_forecast: 5,
      trials_forecast: 2,
      conversions_forecast: 0,
      trial_to_paid_rate_forecast: 0,
    });
  });

  it('forecasts by week (Monday to Sunday) and by day', () => {
    const weeks = report('2026-11-02', '2026-11-23', 'week');
    // Weeks from Monday Nov 2: leads g; h; i; j (the week of today, cut to the range at Nov 23).
    // Trials g (Nov 4); none; i (Nov 20); none: -100 %, then null from 0, then -100 %.
    expect(
      weeks.map((row) => [
        row.date,
        row.leads,
        row.leads_percent_change,
        row.trials,
        row.trials_percent_change,
      ]),
    ).toEqual([
      ['2026-11-02', 1, null, 1, null],
      ['2026-11-09', 1, 0, 0, -100],
      ['2026-11-16', 1, 0, 1, null],
      ['2026-11-23', 1, 0, 0, -100],
    ]);
    // The week of today runs to Sunday Nov 29: 1 day gone of 7, so 1 lead x 7. No trial: the
    // rate is 0 / 0 -> 0, and so is its forecast.
    expect(weeks.map((row) => row.leads_forecast)).toEqual([undefined, undefined, undefined, 7]);
    expect(weeks[3]).toMatchObject({
      trials_forecast: 0,
      conversions_forecast: 0,
      trial_to_paid_rate_forecast: 0,
    });
    // A day holding today is all gone: the forecast is the count.
    expect(report('2026-11-23', '2026-11-23', 'day')).toEqual([
      expect.objectContaining({ date: '2026-11-23', leads: 1, leads_forecast: 1, trial_to_paid_rate: 0 }),
    ]);
  });

  it('forecasts nothing for finished periods and counts nothing after today', () => {
    const finished = report('2026-09-01', '2026-11-10', 'month');
    // Nov 1 to 10: leads g and h; every period of the range is over, so no forecast fields.
    expect(finished.map((row) => [row.date, row.leads])).toEqual([
      ['2026-09-01', 4],
      ['2026-10-01', 3],
      ['2026-11-01', 2],
    ]);
    for (const row of finished) expect(row).not.toHaveProperty('leads_forecast');
    // December: k's lead and j's trial and payment lie after today. Nothing counted, so every
    // rate and average is 0 / 0 -> 0, and no change is measured.
    expect(report('2026-12-01', '2026-12-31', 'month')).toEqual([
      {
        date: '2026-12-01',
        leads: 0,
        leads_percent_change: null,
        trials: 0,
        trials_percent_change: null,
        leads_converted: 0,
        trials_converted: 0,
        lead_to_trial_rate: 0,
        lead_to_trial_rate_percent_change: null,
        trial_to_paid_rate: 0,
        trial_to_paid_rate_percent_change: null,
        lead_to_paid_rate: 0,
        lead_to_paid_rate_percent_change: null,
        lead_to_paid_days: 0,
        trial_to_paid_days: 0,
      },
    ]);
  });
});
