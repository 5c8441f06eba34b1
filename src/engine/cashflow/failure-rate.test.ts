import { describe, expect, it } from 'vitest';
import { table, TODAY } from '../../../test/helpers/cashflow-fixture.js';
import { dayNumber as d } from '../days.js';
import { failureCounts, failureRateReport, failureRateSummary } from './failure-rate.js';

describe('failureRateReport', () => {
  it('divides invoices first failing in a period by invoices attempted in it; 0 without attempts', () => {
    const query = {
      from: d('2026-08-01'),
      to: TODAY,
      interval: 'month' as const,
      baseCurrency: 'usd',
      fixedRateDay: null,
    };
    const rows = failureRateReport(table, null, query);
    expect(
      rows.map((row) => [row.date, row.attempted_invoices, row.failed_invoices, row.failure_rate]),
    ).toEqual([
      ['2026-08-01', 0, 0, 0], // 0 / 0: nothing attempted, so 0 (attempted_invoices tells)
      ['2026-09-01', 2, 0, 0], // o2, k0
      ['2026-10-01', 2, 1, 50], // p1, k1
      ['2026-11-01', 3, 1, 33.33], // p2, e1, r1
    ]);
  });
});

describe('failureRateSummary', () => {
  it('gives the rate to date beside its twin, with the absolute change', () => {
    expect(failureRateSummary(table, null, TODAY)).toEqual({
      mtd_failure_rate: 33.33,
      prev_mtd_failure_rate: 50,
      mtd_failed_invoices: 1,
      prev_mtd_failed_invoices: 1,
      mtd_attempted_invoices: 3,
      prev_mtd_attempted_invoices: 2,
      mtd_failure_rate_change: -16.67,
      // Oct 1 - Nov 23: k1, r1 of p1, k1, p2, e1, r1 = 40 %; Jul 1 - Aug 23 had no attempt.
      qtd_failure_rate: 40,
      prev_qtd_failure_rate: null,
      qtd_failed_invoices: 2,
      prev_qtd_failed_invoices: 0,
      qtd_attempted_invoices: 5,
      prev_qtd_attempted_invoices: 0,
      qtd_failure_rate_change: null,
      ytd_failure_rate: 28.57, // 2 / 7
      prev_ytd_failure_rate: null,
      ytd_failed_invoices: 2,
      prev_ytd_failed_invoices: 0,
      ytd_attempted_invoices: 7,
      prev_ytd_attempted_invoices: 0,
      ytd_failure_rate_change: null,
    });
  });
});

describe('failureCounts', () => {
  it("counts the whole account's span from its days as a filter keeping everyone counts it", () => {
    const span = { start: d('2026-11-01'), end: TODAY };
    // p2, e1, r1 attempted in November; r1 first failed in it.
    expect(failureCounts(table, null, span)).toEqual({ attempted: 3, failed: 1 });
    const everyone = new Uint8Array(Math.max(...table.invoiceCustomer) + 1).fill(1);
    expect(failureCounts(table, everyone, span)).toEqual({ attempted: 3, failed: 1 });
  });
});
