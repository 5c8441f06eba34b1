import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { customerView } from '../../../test/helpers/customer-view.js';
import { funnelColumns } from '../account-snapshot.js';
import { dayNumber, dayString } from '../days.js';
import type { Interval } from '../periods.js';
import { leadsDaysReport } from './leads-days.js';
import { leadsSummary } from './leads-summary.js';
import { leadsReport } from './leads.js';

const START = dayNumber('2025-01-01');
const TODAY = START + 500;
const instant = (offset: number) => `${dayString(START + offset)}T12:00:00.000Z`;

const funnelArb = fc
  .array(
    fc.record({
      lead: fc.integer({ min: 0, max: 600 }),
      trial: fc.option(fc.integer({ min: 0, max: 600 })),
      paid: fc.option(fc.integer({ min: 0, max: 600 })),
    }),
    { maxLength: 40 },
  )
  .map((rows) => ({
    leadDays: rows.map((row) => START + row.lead),
    funnel: funnelColumns(
      rows.map((row, index) =>
        customerView(`c${index}`, {
          createdDate: instant(row.lead),
          trialStarted: row.trial === null ? null : instant(row.trial),
          firstPaidDay: row.paid === null ? null : START + row.paid,
        }),
      ),
    ),
  }));
const rangeArb = fc
  .tuple(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 200 }))
  .map(([from, length]) => ({ from: START + from, to: START + from + length }));
const intervalArb = fc.constantFrom<Interval>('day', 'week', 'month', 'quarter', 'year');

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

describe('lead reports, properties', () => {
  it('count each lead once whatever the interval, and agree with leads-days', () => {
    fc.assert(
      fc.property(funnelArb, rangeArb, intervalArb, ({ leadDays, funnel }, range, interval) => {
        const query = { today: TODAY, ...range, customers: null };
        const rows = leadsReport(funnel, { ...query, interval });
        const days = leadsDaysReport(funnel, query);
        const expected = leadDays.filter((day) => day >= range.from && day <= Math.min(range.to, TODAY));
        expect(sum(rows.map((row) => row.leads))).toBe(expected.length);
        expect(days.summary.leads).toBe(expected.length);
        expect(sum(rows.map((row) => row.leads_converted))).toBe(days.summary.converted);
        expect(sum(days.result.map((bucket) => bucket.customers))).toBe(days.summary.converted);
      }),
    );
  });

  it('keep rates between 0 and 100 and forecast only the period holding today', () => {
    fc.assert(
      fc.property(funnelArb, rangeArb, intervalArb, ({ funnel }, range, interval) => {
        const rows = leadsReport(funnel, { today: TODAY, ...range, interval, customers: null });
        for (const row of rows) {
          for (const rate of [row.lead_to_trial_rate, row.trial_to_paid_rate, row.lead_to_paid_rate]) {
            if (rate !== null) expect(rate).toBeGreaterThanOrEqual(0);
            if (rate !== null) expect(rate).toBeLessThanOrEqual(100);
          }
          if (row.leads_forecast !== undefined) expect(row.leads_forecast).toBeGreaterThanOrEqual(row.leads);
        }
        const forecasts = rows.filter((row) => row.leads_forecast !== undefined).length;
        expect(forecasts).toBe(range.from <= TODAY && TODAY <= range.to ? 1 : 0);
      }),
    );
  });

  it('sum up in the summary windows what the series counts over the same days', () => {
    fc.assert(
      fc.property(funnelArb, fc.integer({ min: 0, max: 600 }), ({ funnel }, endOffset) => {
        const end = START + endOffset;
        const summary = leadsSummary(funnel, { today: TODAY, end, customers: null });
        for (const length of [30, 60, 180, 365]) {
          const rows = leadsReport(funnel, {
            today: TODAY,
            from: end - length + 1,
            to: end,
            interval: 'month',
            customers: null,
          });
          expect(summary[`leads_${length}`]).toBe(sum(rows.map((row) => row.leads)));
          expect(summary[`trials_${length}`]).toBe(sum(rows.map((row) => row.trials)));
        }
      }),
    );
  });
});
