import { describe, expect, it } from 'vitest';
import { customers, fx, table } from '../../../test/helpers/cashflow-fixture.js';
import { invoicePage, invoiceRecords } from './invoice-details.js';

describe('invoiceRecords', () => {
  it('shows each invoice newest first, the total converted at the invoice date', () => {
    const page = invoicePage(table, null, { offset: 0, limit: 100 });
    const lines = page.map(() => []);
    const records = invoiceRecords(
      table,
      page,
      lines,
      customers,
      { baseCurrency: 'usd', fixedRateDay: null },
      fx,
    );
    expect(records.map((record) => record.invoice_ref)).toEqual([
      'o3',
      'r1',
      'e1',
      'p2',
      'o1',
      'k1',
      'p1',
      'k0',
      'o2',
    ]);
    // 8000 EUR x 1.25 on Nov 2.
    expect(records[2]).toMatchObject({
      invoice_date: '2026-11-02',
      customer_id: 'c_eur',
      currency: 'eur',
      total: 8000,
      total_base_currency: 10000,
      transaction_count: 1,
    });
  });
});
