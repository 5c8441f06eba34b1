import { describe, expect, it } from 'vitest';
import { fx, table, TODAY } from '../../../test/helpers/cashflow-fixture.js';
import { outstandingSummary } from './outstanding.js';

describe('outstandingSummary', () => {
  it('adds up what open invoices past due still owe, by days past due', () => {
    // o1: 3000, 20 days past due; o2: 2000 - 500 paid = 1500, 90 days; o3 is not due yet.
    expect(outstandingSummary(table, null, { today: TODAY, baseCurrency: 'usd' }, fx)).toEqual({
      outstanding_current: 4500,
      invoices_current: 2,
      outstanding_30: 1500,
      invoices_30: 1,
      outstanding_60: 1500,
      invoices_60: 1,
      outstanding_180: 0,
      invoices_180: 0,
      outstanding_365: 0,
      invoices_365: 0,
    });
  });

  it("converts at today's rate", () => {
    // 4500 / 1.25 = 3600 EUR.
    expect(
      outstandingSummary(table, null, { today: TODAY, baseCurrency: 'eur' }, fx).outstanding_current,
    ).toBe(3600);
  });
});
