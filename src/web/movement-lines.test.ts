import { describe, expect, it } from 'vitest';
import { type Invoice, linesBehind } from './movement-lines.js';

const invoice = (ref: string, start: string, end: string, amount: number, status = 'paid'): Invoice => ({
  invoice_ref: ref,
  invoice_number: null,
  invoice_date: start,
  invoice_status: status,
  currency: 'usd',
  total: amount,
  lines: [{ description: 'Basic', amount, period_start: start, period_end: end }],
});

// Monthly from April; the price doubles in June; the last period ends Aug 1; a void invoice for
// August and a one-time charge (no period) count for nothing.
const invoices = [
  invoice('apr', '2026-04-01', '2026-05-01', 5000),
  invoice('may', '2026-05-01', '2026-06-01', 5000),
  invoice('jun', '2026-06-01', '2026-07-01', 10000),
  invoice('jul', '2026-07-01', '2026-08-01', 10000),
  invoice('aug', '2026-08-01', '2026-09-01', 10000, 'void'),
  {
    ...invoice('setup', '2026-04-01', '2026-04-02', 900),
    lines: [{ description: 'Setup', amount: 900, period_start: null, period_end: null }],
  },
];

describe('linesBehind', () => {
  it('gives a new or changed MRR the lines whose period holds its day', () => {
    expect(linesBehind({ date: '2026-04-01', type: 'new' }, invoices).map((line) => line.invoice)).toEqual([
      'apr',
    ]);
    expect(linesBehind({ date: '2026-06-01', type: 'expansion' }, invoices)).toEqual([
      {
        invoice: 'jun',
        currency: 'usd',
        description: 'Basic',
        amount: 10000,
        period_start: '2026-06-01',
        period_end: '2026-07-01',
      },
    ]);
  });

  it('gives a churn the lines that ended last before it, not a void invoice after', () => {
    // Jul's period ends Aug 1; with the grace days the churn is on Aug 4.
    expect(linesBehind({ date: '2026-08-04', type: 'churn' }, invoices).map((line) => line.invoice)).toEqual([
      'jul',
    ]);
    expect(linesBehind({ date: '2026-03-01', type: 'churn' }, invoices)).toEqual([]);
  });
});
