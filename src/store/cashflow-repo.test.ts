import { describe, expect, it } from 'vitest';
import { type InvoiceColumnsRow, type TransactionOfInvoice, withTransactions } from './cashflow-repo.js';

const SOURCE = '00000000-0000-4000-8000-000000000001';
const invoice = (id: string): InvoiceColumnsRow => ({
  id,
  data_source: SOURCE,
  customer_id: 'c',
  date: '2026-01-01',
  due_date: null,
  currency: 'usd',
  status: 'paid',
  number: null,
  description: null,
  payment_date: null,
  amount: 100,
});
const transaction = (invoiceId: string, id: string): TransactionOfInvoice => ({
  data_source_id: SOURCE,
  invoice_id: invoiceId,
  id,
  date: '2026-01-02T00:00:00.000Z',
  type: 'payment',
  result: 'successful',
  amount: 100,
  payment_method: null,
});
const ids = (rows: ReturnType<typeof withTransactions>) =>
  rows.map((row) => [row.id, row.transactions.map((t) => t.id)]);

describe('withTransactions', () => {
  it('gives each invoice its transactions in order, across invoices without any', () => {
    // 100 invoices without transactions between i000 and i101: past the 64 looked ahead.
    const invoices = Array.from({ length: 102 }, (_, n) => invoice(`i${String(n).padStart(3, '0')}`));
    const rows = withTransactions(invoices, [
      transaction('i000', 'a'),
      transaction('i000', 'b'),
      transaction('i001', 'c'),
      transaction('i101', 'd'),
    ]);
    expect(ids(rows).filter(([, own]) => own!.length > 0)).toEqual([
      ['i000', ['a', 'b']],
      ['i001', ['c']],
      ['i101', ['d']],
    ]);
    expect(rows[0]!.transactions[0]).toEqual({
      id: 'a',
      date: '2026-01-02T00:00:00.000Z',
      type: 'payment',
      result: 'successful',
      amount: 100,
      payment_method: null,
    });
  });

  it('leaves out a transaction of an invoice not read, and goes on with the next ones', () => {
    // 'i1x' was written between the two reads: its transaction is in the range, its invoice not.
    const rows = withTransactions(
      [invoice('i1'), invoice('i2')],
      [transaction('i1', 'a'), transaction('i1x', 'orphan'), transaction('i2', 'b')],
    );
    expect(ids(rows)).toEqual([
      ['i1', ['a']],
      ['i2', ['b']],
    ]);
  });
});
