import { describe, expect, it } from 'vitest';
import { customers, invoiceIndex, table, TODAY } from '../../../test/helpers/cashflow-fixture.js';
import { dayNumber as d } from '../days.js';
import { failedInvoice } from './failed-invoice.js';

describe('failedInvoice', () => {
  it('is recovered once a later payment succeeds, with the retries counted', () => {
    expect(failedInvoice(table, invoiceIndex('r1'), customers[2]!, TODAY)).toMatchObject({
      day: d('2026-11-05'),
      amount: 6000,
      outcome: 'recovered',
      outcomeDay: d('2026-11-12'),
      retries: 2,
    });
    // On Nov 10 the retry of Nov 8 had failed and the payment of Nov 12 was still to come.
    expect(failedInvoice(table, invoiceIndex('r1'), customers[2]!, d('2026-11-10'))).toMatchObject({
      outcome: 'still_unpaid',
      outcomeDay: null,
      retries: 1,
    });
  });

  it('is churned when the customer churns with it unpaid, still unpaid before that', () => {
    expect(failedInvoice(table, invoiceIndex('k1'), customers[3]!, TODAY)).toMatchObject({
      outcome: 'churned',
      outcomeDay: d('2026-11-18'),
      retries: 1,
    });
    expect(failedInvoice(table, invoiceIndex('k1'), customers[3]!, d('2026-10-23'))!.outcome).toBe(
      'still_unpaid',
    );
  });

  it('is null for an invoice without a failed attempt, or before the first one', () => {
    expect(failedInvoice(table, invoiceIndex('p1'), customers[0]!, TODAY)).toBeNull();
    expect(failedInvoice(table, invoiceIndex('r1'), customers[2]!, d('2026-11-04'))).toBeNull();
  });
});
