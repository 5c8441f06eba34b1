import { describe, expect, it } from 'vitest';
import { customers, fx, table, TODAY } from '../../../test/helpers/cashflow-fixture.js';
import { dayNumber as d } from '../days.js';
import { failedPaymentItems, failedPaymentsReport, failedPaymentsSummary } from './failed-payments.js';

const query = {
  today: TODAY,
  from: d('2026-09-01'),
  to: TODAY,
  interval: 'month' as const,
  baseCurrency: 'usd',
  fixedRateDay: null,
};

describe('failedPaymentsReport', () => {
  it('dates failed invoices by their first failure and splits them by outcome', () => {
    const rows = failedPaymentsReport(table, null, customers, query, fx);
    expect(rows[0]).toMatchObject({
      date: '2026-09-01',
      failed_amount: 0,
      failed_invoices: 0,
      affected_customers: 0,
    });
    // k1: 4000 failed on Oct 15, retried once on Oct 20, customer churned on Nov 18.
    expect(rows[1]).toEqual({
      date: '2026-10-01',
      end_date: '2026-10-31',
      currency: 'usd',
      failed_amount: 4000,
      recovered: 0,
      still_unpaid: 0,
      churned: 4000,
      failed_invoices: 1,
      recovered_customers: 0,
      still_unpaid_customers: 0,
      churned_customers: 1,
      affected_customers: 1,
      total_retry_attempts: 1,
    });
    // r1: 6000 failed on Nov 5, retried on Nov 8 (failed) and Nov 12 (paid).
    expect(rows[2]).toMatchObject({
      failed_amount: 6000,
      recovered: 6000,
      churned: 0,
      recovered_customers: 1,
      affected_customers: 1,
      total_retry_attempts: 2,
    });
  });
});

describe('failedPaymentsSummary', () => {
  it('computes every summary field with its twin and changes', () => {
    const summary = failedPaymentsSummary(
      table,
      null,
      customers,
      { today: TODAY, baseCurrency: 'usd', fixedRateDay: null },
      fx,
    );
    expect(summary).toEqual({
      // Nov 1-23: r1 failed and was recovered. Attempted: p2, e1, r1 -> 1 / 3 = 33.33 %.
      mtd_still_unpaid: 0,
      prev_mtd_still_unpaid: 4000, // Oct 1-23: k1, as it stood on Oct 23
      mtd_recovery_rate: 100,
      prev_mtd_recovery_rate: 0,
      mtd_failed_pct: 33.33,
      prev_mtd_failed_pct: 50, // Oct 1-23: k1 of p1, k1
      mtd_failed_invoices: 1,
      prev_mtd_failed_invoices: 1,
      mtd_still_unpaid_change_pct: -100, // (0 - 4000) / 4000
      mtd_recovery_rate_change: 100,
      mtd_failed_pct_change: -16.67, // 33.33 - 50
      // Jan 1 - Nov 23: k1 churned, r1 recovered: 1 / 2 = 50 %; attempted o2, k0, p1, k1, p2, e1, r1: 2 / 7.
      ytd_still_unpaid: 0,
      prev_ytd_still_unpaid: 0,
      ytd_recovery_rate: 50,
      prev_ytd_recovery_rate: null, // nothing failed in 2025
      ytd_failed_pct: 28.57,
      prev_ytd_failed_pct: null, // nothing attempted in 2025
      ytd_failed_invoices: 2,
      prev_ytd_failed_invoices: 0,
      ytd_still_unpaid_change_pct: null, // from 0
      ytd_recovery_rate_change: null,
      ytd_failed_pct_change: null,
    });
  });
});

describe('failedPaymentItems', () => {
  it('lists failed invoices, newest failure first, with their outcome', () => {
    expect(failedPaymentItems(table, null, customers, query, fx, { offset: 0, limit: 100 })).toEqual([
      {
        date: '2026-11-05',
        invoice_ref: 'r1',
        invoice_number: 'R1',
        customer_id: 'c_rec',
        customer_name: 'C_REC',
        customer_email: 'c_rec@example.com',
        currency: 'usd',
        amount: 6000,
        amount_base_currency: 6000,
        retry_attempts: 2,
        outcome: 'recovered',
        outcome_date: '2026-11-12',
      },
      expect.objectContaining({ invoice_ref: 'k1', outcome: 'churned', outcome_date: '2026-11-18' }),
    ]);
  });
});
