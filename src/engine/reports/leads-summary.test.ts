import { describe, expect, it } from 'vitest';
import { FUNNEL, FUNNEL_TODAY, WITHOUT_M } from '../../../test/helpers/funnel-customers.js';
import { dayNumber as d } from '../days.js';
import { leadsSummary } from './leads-summary.js';

describe('leadsSummary', () => {
  it('counts leads and trials of the last 30, 60, 180 and 365 days against the days before', () => {
    // Days before Nov 23 of each lead: a 79, b 74, c 64, d 56, e 51, f 39, n 34, g 21, h 13,
    // i 3, j 0 (k is after today). Of each trial: a 79, b 72, d 52, e 51, f 38, g 19, i 3.
    expect(leadsSummary(FUNNEL, { today: FUNNEL_TODAY, end: FUNNEL_TODAY, customers: WITHOUT_M })).toEqual({
      // Oct 25 to Nov 23 (0 to 29 days back): g, h, i, j; Sep 25 to Oct 24 (30 to 59): d, e, f, n.
      leads_30: 4,
      // Sep 25 to Nov 23: d to j, 8; Jul 27 to Sep 24: a, b, c.
      leads_60: 8,
      leads_180: 11,
      leads_365: 11,
      // g, i against d, e, f.
      trials_30: 2,
      // d, e, f, g, i against a, b.
      trials_60: 5,
      trials_180: 7,
      trials_365: 7,
      // (4 - 4) / 4; (8 - 3) / 3; nothing in the 180 and 365 days before.
      leads_percentage_change_30: 0,
      leads_percentage_change_60: 166.67,
      leads_percentage_change_180: null,
      leads_percentage_change_365: null,
      // (2 - 3) / 3; (5 - 2) / 2.
      trials_percentage_change_30: -33.33,
      trials_percentage_change_60: 150,
      trials_percentage_change_180: null,
      trials_percentage_change_365: null,
    });
  });

  it('ends the windows on the given day', () => {
    const summary = leadsSummary(FUNNEL, {
      today: FUNNEL_TODAY,
      end: d('2026-10-31'),
      customers: null,
    });
    // Oct 2 to 31: leads e, f, n; Sep 2 to Oct 1: a, b, c, d and m (Oct 1), so (3 - 5) / 5.
    // Trials d (Oct 2), e, f against a, b, m. Sep 1 to Oct 31: all 8 leads; nothing before.
    expect(summary).toMatchObject({
      leads_30: 3,
      leads_percentage_change_30: -40,
      trials_30: 3,
      trials_percentage_change_30: 0,
      leads_60: 8,
      leads_percentage_change_60: null,
    });
  });
});
