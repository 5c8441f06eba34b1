import { describe, expect, it } from 'vitest';
import { DOCS_EXAMPLE, FUNNEL, FUNNEL_TODAY } from '../../../test/helpers/funnel-customers.js';
import { dayNumber as d } from '../days.js';
import { leadsDaysReport } from './leads-days.js';
import { leadsSummary } from './leads-summary.js';
import { leadsReport } from './leads.js';

// The worked examples of docs/metrics.md ("Leads, trials and conversions"), which they must match.
describe('the lead reports example of docs/metrics.md', () => {
  const query = { today: FUNNEL_TODAY, from: d('2026-09-01'), to: d('2026-11-23'), customers: DOCS_EXAMPLE };

  it('gives the table, the changes and the forecast', () => {
    const rows = leadsReport(FUNNEL, { ...query, interval: 'month' });
    expect(
      rows.map((row) => [
        row.leads,
        row.trials,
        row.leads_converted,
        row.lead_to_trial_rate,
        row.trial_to_paid_rate,
        row.lead_to_paid_rate,
        row.lead_to_paid_days,
        row.trial_to_paid_days,
        row.leads_percent_change,
        row.trials_percent_change,
      ]),
    ).toEqual([
      [4, 2, 3, 75, 50, 75, 12, 14, null, null],
      // October: no leads, so its lead rates and lead-to-paid days are 0 / 0 -> 0.
      [0, 1, 0, 0, 100, 0, 0, 14, -100, -50],
      [2, 1, 1, 50, 100, 50, 16, 14, null, 0],
    ]);
    // October's 0 rates stand for "no leads": no change is measured to them or from them,
    // where a real 0 would read -100 % and then nothing.
    expect(rows.map((row) => row.lead_to_trial_rate_percent_change)).toEqual([null, null, null]);
    expect(rows[2]).toMatchObject({
      leads_forecast: 3,
      trials_forecast: 1,
      conversions_forecast: 1,
      trial_to_paid_rate_forecast: 100,
    });
  });

  it('gives the summary and the distribution', () => {
    const summary = leadsSummary(FUNNEL, {
      today: FUNNEL_TODAY,
      end: FUNNEL_TODAY,
      customers: DOCS_EXAMPLE,
    });
    expect(summary).toMatchObject({ leads_30: 2, leads_percentage_change_30: 100 });
    const days = leadsDaysReport(FUNNEL, query);
    expect(days.summary).toEqual({ leads: 6, converted: 4, average_days: 13 });
    expect(
      days.result.filter((bucket) => bucket.customers > 0).map((bucket) => [bucket.bucket, bucket.percent]),
    ).toEqual([
      ['1-7', 25],
      ['8-14', 25],
      ['15-30', 50],
    ]);
  });
});
