import { describe, expect, it } from 'vitest';
import { customerView } from '../../../test/helpers/customer-view.js';
import { funnelColumns } from '../account-snapshot.js';
import { FUNNEL, FUNNEL_TODAY, WITHOUT_M } from '../../../test/helpers/funnel-customers.js';
import { dayNumber as d, dayString } from '../days.js';
import { leadsDaysReport } from './leads-days.js';

const counts = (report: ReturnType<typeof leadsDaysReport>) =>
  Object.fromEntries(report.result.map((bucket) => [bucket.bucket, bucket.customers]));

describe('leadsDaysReport', () => {
  it('puts each converted lead of the range in the bucket of its days from lead to paid', () => {
    const report = leadsDaysReport(FUNNEL, {
      today: FUNNEL_TODAY,
      from: d('2026-09-01'),
      to: d('2026-11-23'),
      customers: WITHOUT_M,
    });
    // Leads a to j: 11. Paying: n 0 days, c 5, a 14, g 16, d 18, e 30: 6, on average 83 / 6 = 13.83.
    expect(report.summary).toEqual({ leads: 11, converted: 6, average_days: 14 });
    // 1 / 6 = 16.67 % each for 0, 1-7 and 8-14; d, e and g: 3 / 6 = 50 %.
    expect(report.result).toEqual([
      { bucket: '0', min_days: 0, max_days: 0, customers: 1, percent: 16.67 },
      { bucket: '1-7', min_days: 1, max_days: 7, customers: 1, percent: 16.67 },
      { bucket: '8-14', min_days: 8, max_days: 14, customers: 1, percent: 16.67 },
      { bucket: '15-30', min_days: 15, max_days: 30, customers: 3, percent: 50 },
      { bucket: '31-60', min_days: 31, max_days: 60, customers: 0, percent: 0 },
      { bucket: '61-90', min_days: 61, max_days: 90, customers: 0, percent: 0 },
      { bucket: '91-180', min_days: 91, max_days: 180, customers: 0, percent: 0 },
      { bucket: '181-365', min_days: 181, max_days: 365, customers: 0, percent: 0 },
      { bucket: '366+', min_days: 366, max_days: null, customers: 0, percent: 0 },
    ]);
  });

  it('keeps the leads of the range and of the mask', () => {
    // October, m included: leads e, f, n, m; paying e 30 days, n 0, m 7: (30 + 0 + 7) / 3 = 12.33.
    const report = leadsDaysReport(FUNNEL, {
      today: FUNNEL_TODAY,
      from: d('2026-10-01'),
      to: d('2026-10-31'),
      customers: null,
    });
    expect(report.summary).toEqual({ leads: 4, converted: 3, average_days: 12 });
    expect(counts(report)).toMatchObject({ '0': 1, '1-7': 1, '15-30': 1 });
  });

  it('has nothing to share out without conversions', () => {
    // November's leads g to j: g pays 16 days on; j's payment on Dec 1 is after today.
    const november = {
      today: FUNNEL_TODAY,
      from: d('2026-11-01'),
      to: d('2026-11-30'),
      customers: WITHOUT_M,
    };
    expect(leadsDaysReport(FUNNEL, november).summary).toEqual({
      leads: 4,
      converted: 1,
      average_days: 16,
    });
    const empty = leadsDaysReport(FUNNEL, {
      ...november,
      from: d('2026-11-05'),
      to: d('2026-11-23'),
    });
    expect(empty.summary).toEqual({ leads: 3, converted: 0, average_days: null });
    expect(empty.result.every((bucket) => bucket.customers === 0 && bucket.percent === null)).toBe(true);
  });

  it('bounds the buckets inclusively, the last one open', () => {
    const lead = d('2020-01-01');
    const days = [7, 8, 30, 31, 60, 61, 90, 91, 180, 181, 365, 366, 1000];
    const customers = days.map((after) =>
      customerView(`after_${after}`, {
        createdDate: `${dayString(lead)}T00:00:00.000Z`,
        firstPaidDay: lead + after,
      }),
    );
    const report = leadsDaysReport(funnelColumns(customers), {
      today: FUNNEL_TODAY,
      from: lead,
      to: lead,
      customers: null,
    });
    expect(counts(report)).toEqual({
      '0': 0,
      '1-7': 1,
      '8-14': 1,
      '15-30': 1,
      '31-60': 2,
      '61-90': 2,
      '91-180': 2,
      '181-365': 2,
      '366+': 2,
    });
  });
});
