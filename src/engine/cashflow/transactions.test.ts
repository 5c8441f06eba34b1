import { describe, expect, it } from 'vitest';
import { customers, fx, table, TODAY } from '../../../test/helpers/cashflow-fixture.js';
import { dayNumber as d } from '../days.js';
import type { CashflowQuery } from './cashflow-data.js';
import { isRefund } from './refunds.js';
import { transactionItems, transactionsReport, transactionsSummary } from './transactions.js';

const everything = { offset: 0, limit: 1_000 };

const query: CashflowQuery = {
  from: d('2026-08-01'),
  to: TODAY,
  interval: 'month',
  baseCurrency: 'usd',
  fixedRateDay: null,
};

describe('transactionsReport', () => {
  it('adds up successful payments less refunds per period, failed attempts left out', () => {
    const rows = transactionsReport(table, null, query, fx);
    expect(
      rows.map((row) => [row.date, row.payments, row.refund, row.net_amount, row.net_amount_change_pct]),
    ).toEqual([
      ['2026-08-01', 0, 0, 0, null],
      // o2 500 + k0 4000; the change from 0 has no base: null.
      ['2026-09-01', 4500, 0, 4500, null],
      // p1 10000: (10000 - 4500) / 4500 = 122.22 %.
      ['2026-10-01', 10000, 0, 10000, 122.22],
      // p2 10000 + e1 8000 EUR x 1.25 + r1 6000 = 26000, less 2500: 23500, +135 %.
      ['2026-11-01', 26000, 2500, 23500, 135],
    ]);
    expect(rows[3]).toMatchObject({ end_date: '2026-11-23', payment_count: 3, refund_count: 1 });
  });

  it('converts into another base currency, at one rate with a fixed day', () => {
    const november = { ...query, from: d('2026-11-01'), baseCurrency: 'eur' };
    // 10000 / 1.25 + 8000 + 6000 / 1.25 = 8000 + 8000 + 4800; refund 2500 / 1.25 = 2000.
    expect(transactionsReport(table, null, november, fx)[0]).toMatchObject({
      payments: 20800,
      refund: 2000,
      net_amount: 18800,
    });
    // At Sep 1's 1.20: 10000 / 1.2 = 8333.33, 6000 / 1.2 = 5000 -> 21333.33 -> 21333; 2083.33 -> 2083.
    const fixed = { ...november, fixedRateDay: d('2026-09-01') };
    expect(transactionsReport(table, null, fixed, fx)[0]).toMatchObject({
      payments: 21333,
      refund: 2083,
      net_amount: 19250,
    });
  });
});

describe('transactionsSummary', () => {
  it('gives month, quarter and year to date beside the same spans before', () => {
    const summary = transactionsSummary(
      table,
      null,
      { today: TODAY, baseCurrency: 'usd', fixedRateDay: null },
      fx,
    );
    expect(summary).toMatchObject({
      // Nov 1-23 against Oct 1-23.
      mtd_payments: 26000,
      prev_mtd_payments: 10000,
      mtd_payments_change_pct: 160,
      mtd_refunds: 2500,
      prev_mtd_refunds: 0,
      mtd_refunds_change_pct: null,
      mtd_net_amount: 23500,
      prev_mtd_net_amount: 10000,
      mtd_net_amount_change_pct: 135,
      // Oct 1 - Nov 23 against Jul 1 - Aug 23, which had nothing.
      qtd_payments: 36000,
      qtd_net_amount: 33500,
      prev_qtd_net_amount: 0,
      qtd_net_amount_change_pct: null,
      // Jan 1 - Nov 23: 4500 + 10000 + 26000 - 2500.
      ytd_payments: 40500,
      ytd_net_amount: 38000,
      prev_ytd_net_amount: 0,
    });
    expect(Object.keys(summary)).toHaveLength(3 * (3 * 2 + 3));
  });
});

describe('transactionItems', () => {
  it('lists each transaction of the range, newest first, in both currencies', () => {
    const items = transactionItems(
      table,
      null,
      customers,
      { ...query, from: d('2026-11-01') },
      fx,
      everything,
    );
    expect(
      items.map((item) => [
        item.date,
        item.invoice_ref,
        item.type,
        item.result,
        item.amount,
        item.amount_base_currency,
      ]),
    ).toEqual([
      ['2026-11-12', 'r1', 'payment', 'successful', 6000, 6000],
      ['2026-11-10', 'p2', 'refund', 'successful', 2500, 2500],
      ['2026-11-08', 'r1', 'payment', 'failed', 6000, 6000],
      ['2026-11-05', 'r1', 'payment', 'failed', 6000, 6000],
      ['2026-11-02', 'e1', 'payment', 'successful', 8000, 10000],
      ['2026-11-01', 'p2', 'payment', 'successful', 10000, 10000],
    ]);
    expect(items[4]).toMatchObject({
      customer_id: 'c_eur',
      customer_name: 'C_EUR',
      currency: 'eur',
      invoice_number: 'E1',
    });
  });

  it('keeps only what the predicate accepts: the refunds detail', () => {
    expect(
      transactionItems(table, null, customers, query, fx, everything, isRefund).map(
        (item) => item.transaction_id,
      ),
    ).toHaveLength(1);
  });
});
