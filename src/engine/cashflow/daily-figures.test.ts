import { describe, expect, it } from 'vitest';
import { fx, table, TODAY } from '../../../test/helpers/cashflow-fixture.js';
import { dayNumber as d } from '../days.js';
import { FxTable } from '../fx-table.js';
import { type CashflowInvoice, transactionDays } from './cashflow-data.js';
import { buildCashflowTable } from './cashflow-table.js';
import { dailyAttempts } from './daily-attempts.js';
import { dailyFlows } from './daily-flows.js';
import { failureCounts } from './failure-rate.js';
import { transactionsReport } from './transactions.js';

const now = { baseCurrency: 'usd', fixedRateDay: null };

describe("the whole account's figures per day", () => {
  it('are kept per table and sum a span as a filter keeping everyone sums it', () => {
    const everyone = new Uint8Array(Math.max(...table.invoiceCustomer) + 1).fill(1);
    const november = { from: d('2026-11-01'), to: TODAY };
    const whole = dailyFlows(table, null, november, fx, now);
    expect(dailyFlows(table, null, { from: 0, to: 1 }, fx, now)).toBe(whole);
    // Another base currency or rate table is another day's worth of sums.
    const inEuros = dailyFlows(table, null, november, fx, { ...now, baseCurrency: 'eur' });
    expect(inEuros).not.toBe(whole);
    // 10000 / 1.25 + 8000 + 6000 / 1.25; the refund 2500 / 1.25.
    expect(inEuros.between(november.from, november.to)).toMatchObject({ payments: 20800, refunds: 2000 });
    const otherRates = FxTable.build([{ day: '2026-01-01', currency: 'usd', perEur: 2 }]);
    expect(dailyFlows(table, null, november, otherRates, now)).not.toBe(whole);
    // p2 10000 + e1 8000 EUR x 1.25 + r1 6000; p2's refund 2500.
    const flow = { payments: 26000, refunds: 2500, paymentCount: 3, refundCount: 1 };
    expect(whole.between(november.from, november.to)).toEqual(flow);
    expect(dailyFlows(table, everyone, november, fx, now).between(november.from, november.to)).toEqual(flow);
  });

  it('are not kept for a table whose transactions span more than 40,000 days, which a pass counts', () => {
    const invoice = (id: string, day: number, successful: boolean): CashflowInvoice => ({
      id,
      number: null,
      description: null,
      customer: 0,
      currency: 'usd',
      day,
      dueDay: null,
      paymentDay: null,
      status: 'open',
      total: 1000,
      transactions: [{ id: `t_${id}`, day, type: 'payment', successful, amount: 1000, paymentMethod: null }],
    });
    const wide = buildCashflowTable([invoice('old', 0, true), invoice('new', 45_000, false)]);
    expect(transactionDays(wide)).toBeNull();
    expect(dailyAttempts(wide)).toBeNull();
    expect(failureCounts(wide, null, { start: 0, end: 45_000 })).toEqual({ attempted: 2, failed: 1 });
    const range = { from: 0, to: 45_000, interval: 'year' as const, ...now };
    const rows = transactionsReport(wide, null, range, fx);
    // Only the old invoice's payment succeeded, in the first year.
    expect(rows.reduce((sum, row) => sum + row.payments, 0)).toBe(1000);
    expect(rows[0]!.payments).toBe(1000);
  });
});
