import { describe, expect, it, vi } from 'vitest';
import { FxTable } from '../fx-table.js';
import type { CashflowInvoice, CashflowTransaction } from './cashflow-data.js';
import { PAYMENTS, selectTransactions, SUCCESSFUL_TRANSACTIONS } from './cashflow-data.js';
import {
  buildCashflowTable,
  CashflowTableBuilder,
  firstAtOrBefore,
  NO_DAY,
  patchCashflowTable,
  REFUND,
  SUCCESSFUL,
} from './cashflow-table.js';

const tx = (id: string, day: number, amount: number, type: 'payment' | 'refund', successful: boolean) => ({
  id,
  day,
  type,
  successful,
  amount,
  paymentMethod: type === 'refund' ? null : 'card',
});

const invoice = (
  id: string,
  customer: number,
  day: number,
  currency: string,
  transactions: CashflowTransaction[],
): CashflowInvoice => ({
  id,
  number: id.toUpperCase(),
  description: null,
  customer,
  currency,
  day,
  dueDay: day + 14,
  paymentDay: null,
  status: 'open',
  total: 1000,
  transactions,
});

// b fails on day 10 and is paid on day 12; a (EUR) is paid and half refunded on day 12; c has nothing.
const table = buildCashflowTable([
  invoice('b', 0, 10, 'usd', [tx('x2', 10, 1000, 'payment', false), tx('x1', 12, 1000, 'payment', true)]),
  invoice('a', 1, 11, 'eur', [tx('y', 12, 1000, 'payment', true), tx('z', 12, 500, 'refund', true)]),
  invoice('c', 0, 11, 'usd', []),
]);

describe('buildCashflowTable', () => {
  it('keeps each invoice its contiguous transactions, with flags and interned strings', () => {
    expect(table.invoiceCount).toBe(3);
    expect(table.transactionCount).toBe(4);
    expect([...table.transactionStart]).toEqual([0, 2, 4, 4]);
    expect([...table.transactionInvoice]).toEqual([0, 0, 1, 1]);
    expect([...table.transactionFlags]).toEqual([0, SUCCESSFUL, SUCCESSFUL, SUCCESSFUL | REFUND]);
    expect(table.currencies).toEqual(['usd', 'eur']);
    expect([...table.invoiceCurrency]).toEqual([0, 1, 0]);
    expect(table.paymentMethods).toEqual(['card']);
    expect([...table.transactionMethod]).toEqual([0, 0, 0, -1]);
    expect([...table.paymentDay]).toEqual([NO_DAY, NO_DAY, NO_DAY]);
    expect([...table.dueDay]).toEqual([24, 25, 25]);
    expect([...table.openAndDue]).toEqual([0, 1, 2]);
  });

  it('keeps columns sized for the expected rows as they are, and copies doubled ones to their size', () => {
    const many = Array.from({ length: 3000 }, (_, index) =>
      invoice(`i${index}`, 0, index, 'usd', [tx(`t${index}`, index, 10, 'payment', true)]),
    );
    const sized = new CashflowTableBuilder(undefined, [], { invoices: 3000, transactions: 3000 });
    const doubled = new CashflowTableBuilder();
    for (const each of many) {
      sized.add(each);
      doubled.add(each);
    }
    const [kept, copied] = [sized.finish(), doubled.finish()];
    // Sized ahead: 3,000 rows and 1,024 spare, 4 bytes each, the buffer the rows were written to.
    expect(kept.invoiceDay.buffer.byteLength).toBe((3000 + 1024) * 4);
    expect(kept.transactionAmount.buffer.byteLength).toBe((3000 + 1024) * 8);
    // Grown from 1,024 to 2,048 to 4,096, then copied to the 3,000 rows it holds.
    expect(copied.invoiceDay.buffer.byteLength).toBe(3000 * 4);
    expect([...kept.invoiceDay]).toEqual([...copied.invoiceDay]);
    expect(kept.invoiceId.at(2999)).toBe('i2999');
    expect(copied.invoiceId.at(2999)).toBe('i2999');
  });

  it('orders transactions and invoices newest first, ties by invoice id then transaction id', () => {
    // Day 12: a's y and z, then b's x1; day 10: b's x2.
    expect([...table.transactionsNewestFirst]).toEqual([2, 3, 1, 0]);
    // Day 11: a, c; day 10: b.
    expect([...table.invoicesNewestFirst]).toEqual([1, 2, 0]);
  });

  it("finds each invoice's first failed attempt and the payment that recovered it", () => {
    expect([...table.firstFailure]).toEqual([0, -1, -1]);
    expect([...table.recovery]).toEqual([1, -1, -1]);
    expect([...table.failingNewestFirst]).toEqual([0]);
    expect(table.failureDay(0)).toBe(10);
  });

  it('converts every amount once per rate table and base currency, at its own day', () => {
    const fx = FxTable.build([{ day: '1970-01-01', currency: 'usd', perEur: 1.25 }]);
    const inUsd = table.amountsIn(fx, 'usd');
    // a's 1000 and 500 EUR at 1.25.
    expect([...inUsd]).toEqual([1000, 1000, 1250, 625]);
    expect(table.amountsIn(fx, 'usd')).toBe(inUsd);
    // b's 1000 USD / 1.25.
    expect([...table.amountsIn(fx, 'eur')]).toEqual([800, 800, 1000, 500]);
  });
});

describe('patchCashflowTable, base amounts', () => {
  const fx = FxTable.build([{ day: '1970-01-01', currency: 'usd', perEur: 1.25 }]);
  const keepAll = Int32Array.from([0, 1]);
  const paid = (id: string, currency: string, amount: number) =>
    invoice(id, 0, 13, currency, [tx(`${id}-1`, 13, amount, 'payment', true)]);

  it('carries the amounts a report read, converting only the added transactions', () => {
    const first = buildCashflowTable([paid('a', 'eur', 1000)]);
    first.amountsIn(fx, 'usd');
    const second = patchCashflowTable(first, keepAll, [paid('b', 'eur', 400)]);
    // Converted at the patch, not when read: the same array a later read gets.
    const carried = second.amountsIn(fx, 'usd');
    expect([...carried]).toEqual([1250, 500]);
    expect(second.amountsIn(fx, 'usd')).toBe(carried);
  });

  it('stops carrying a base currency no report read for eight tables', () => {
    let current = buildCashflowTable([paid('a', 'eur', 1000)]);
    current.amountsIn(fx, 'usd');
    const converters = vi.spyOn(FxTable.prototype, 'converter');
    const convertedAt: boolean[] = [];
    for (let n = 1; n <= 9; n++) {
      converters.mockClear();
      current = patchCashflowTable(current, keepAll, [paid(`b${n}`, 'eur', 400)]);
      convertedAt.push(converters.mock.calls.length > 0);
    }
    converters.mockRestore();
    expect(convertedAt).toEqual([true, true, true, true, true, true, true, true, false]);
    expect([...current.amountsIn(fx, 'usd')].slice(0, 2)).toEqual([1250, 500]);
  });

  it('converts afresh when the rates it carried cannot convert an added currency', () => {
    const first = buildCashflowTable([paid('a', 'eur', 1000)]);
    first.amountsIn(fx, 'usd');
    const wider = FxTable.build([
      { day: '1970-01-01', currency: 'usd', perEur: 1.25 },
      { day: '1970-01-01', currency: 'gbp', perEur: 0.5 },
    ]);
    const second = patchCashflowTable(first, keepAll, [paid('b', 'gbp', 400)]);
    expect([...second.amountsIn(wider, 'usd')]).toEqual([1250, 1000]);
  });
});

describe('selectTransactions', () => {
  it('keeps a kind in a day range, of the customers a mask keeps, in table order', () => {
    const select = (from: number, to: number, mask: Uint8Array | null = null) => [
      ...selectTransactions(table, mask, { from, to }, SUCCESSFUL_TRANSACTIONS),
    ];
    expect(select(0, 20)).toEqual([1, 2, 3]);
    expect(select(11, 12, Uint8Array.of(0, 1))).toEqual([2, 3]);
    expect(select(13, 20)).toEqual([]);
    expect([...selectTransactions(table, null, { from: 10, to: 12 }, PAYMENTS)]).toEqual([0, 1, 2]);
  });

  it('reads a narrow range from the newest-first order, back in table order', () => {
    // 20 invoices of two payments each on day k % 10; ids fall as k grows, so newest first puts
    // invoice 10 before invoice 0. Day 0 holds 4 of the 40 transactions: a narrow range.
    const many = buildCashflowTable(
      Array.from({ length: 20 }, (_, k) =>
        invoice(`i${99 - k}`, k, k % 10, 'usd', [
          tx(`p${k}`, k % 10, 100, 'payment', true),
          tx(`q${k}`, k % 10, 100, 'payment', true),
        ]),
      ),
    );
    expect([...many.transactionsNewestFirst.subarray(-4)]).toEqual([20, 21, 0, 1]);
    expect([...selectTransactions(many, null, { from: 0, to: 0 }, PAYMENTS)]).toEqual([0, 1, 20, 21]);
    const onlyInvoice10 = Uint8Array.from({ length: 20 }, (_, k) => (k === 10 ? 1 : 0));
    expect([...selectTransactions(many, onlyInvoice10, { from: 0, to: 0 }, PAYMENTS)]).toEqual([20, 21]);
  });
});

describe('firstAtOrBefore', () => {
  it('binary-searches a newest-first order', () => {
    const dayOf = (transaction: number) => table.transactionDay[transaction]!;
    expect(firstAtOrBefore(table.transactionsNewestFirst, dayOf, 12)).toBe(0);
    expect(firstAtOrBefore(table.transactionsNewestFirst, dayOf, 11)).toBe(3);
    expect(firstAtOrBefore(table.transactionsNewestFirst, dayOf, 9)).toBe(4);
  });
});
