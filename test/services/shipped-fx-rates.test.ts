import { describe, expect, it } from 'vitest';
import { dayNumber, dayString } from '../../src/engine/days.js';
import { shippedFxRates, shippedFxTable } from '../../src/services/shipped-fx-rates.js';

describe('the shipped ECB history', () => {
  const table = shippedFxTable();

  it('is parsed once and spans 1999-01-04 to 2026-04-13', () => {
    expect(shippedFxRates()).toBe(shippedFxRates());
    expect(shippedFxTable()).toBe(table);
    expect(dayString(table.firstDay())).toBe('1999-01-04');
    expect(dayString(table.lastDay())).toBe('2026-04-13');
    // Current currencies and ones the euro has since replaced (Cypriot pound) are both there.
    expect(table.currencies()).toEqual(expect.arrayContaining(['eur', 'usd', 'gbp', 'jpy', 'chf', 'cyp']));
    expect(table.has('xyz')).toBe(false);
  });

  it('gives the published rates of a business day', () => {
    // The file's line for 2020-03-02: USD 1.1122, GBP 0.87113 per euro.
    expect(table.rate('eur', 'usd', dayNumber('2020-03-02'))).toBe(1.1122);
    // 1000 USD cents / 1.1122 x 0.87113 = 783.24942... GBP cents.
    expect(table.convert(1000, 'usd', 'gbp', dayNumber('2020-03-02'))).toBeCloseTo(783.249_415_57, 6);
  });

  it("uses Friday's rate on Saturday and Sunday", () => {
    // Friday 2020-03-06: USD 1.1336; Monday 2020-03-09: USD 1.1456.
    expect(table.rate('eur', 'usd', dayNumber('2020-03-07'))).toBe(1.1336);
    expect(table.rate('eur', 'usd', dayNumber('2020-03-08'))).toBe(1.1336);
    expect(table.rate('eur', 'usd', dayNumber('2020-03-09'))).toBe(1.1456);
  });
});
