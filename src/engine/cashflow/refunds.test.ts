import { describe, expect, it } from 'vitest';
import { fx, table, TODAY } from '../../../test/helpers/cashflow-fixture.js';
import { dayNumber as d } from '../days.js';
import { refundsReport } from './refunds.js';

describe('refundsReport', () => {
  it('adds up successful refunds per period with the customers refunded', () => {
    const query = { from: d('2026-10-01'), to: TODAY, interval: 'month' as const, fixedRateDay: null };
    expect(refundsReport(table, null, { ...query, baseCurrency: 'usd' }, fx)).toEqual([
      {
        date: '2026-10-01',
        end_date: '2026-10-31',
        refund_amount: 0,
        refund_count: 0,
        customers_refunded: 0,
      },
      // p2: 2500 back on Nov 10.
      {
        date: '2026-11-01',
        end_date: '2026-11-23',
        refund_amount: 2500,
        refund_count: 1,
        customers_refunded: 1,
      },
    ]);
    // 2500 / 1.25 = 2000 EUR.
    expect(refundsReport(table, null, { ...query, baseCurrency: 'eur' }, fx)[1]!.refund_amount).toBe(2000);
  });
});
