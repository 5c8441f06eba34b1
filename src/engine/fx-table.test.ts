import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayNumber, dayString } from './days.js';
import { type FxRate, FxTable, UnknownCurrencyError } from './fx-table.js';

const d = dayNumber;

// Friday 2024-03-01 and Monday 2024-03-04 are business days; the weekend between has no rates.
const RATES: FxRate[] = [
  { day: '2024-03-01', currency: 'usd', perEur: 1.1 },
  { day: '2024-03-01', currency: 'gbp', perEur: 0.85 },
  { day: '2024-03-04', currency: 'usd', perEur: 1.2 },
  // GBP has no rate on Monday: it keeps Friday's 0.85.
  { day: '2024-03-05', currency: 'usd', perEur: 1.25 },
  { day: '2024-03-05', currency: 'gbp', perEur: 0.8 },
  // JPY starts later than the others.
  { day: '2024-03-04', currency: 'jpy', perEur: 160 },
];

const table = FxTable.build(RATES);

describe('FxTable', () => {
  it('crosses through EUR on a business day', () => {
    // 1000 USD cents = 1000 / 1.10 EUR cents = 909.0909...; x 0.85 = 772.7272... GBP cents.
    expect(table.convert(1000, 'usd', 'gbp', d('2024-03-01'))).toBeCloseTo(772.727_272_727, 9);
    // GBP per USD: 0.85 / 1.10 = 0.772727...; USD per GBP: 1.10 / 0.85 = 1.294117...
    expect(table.rate('usd', 'gbp', d('2024-03-01'))).toBeCloseTo(0.772_727_272_727, 12);
    expect(table.rate('gbp', 'usd', d('2024-03-01'))).toBeCloseTo(1.294_117_647_059, 12);
  });

  it('treats EUR as 1 on every day, and returns same-currency amounts exactly', () => {
    // 1000 EUR cents x 1.10 = 1100 USD cents; 1100 USD cents / 1.10 = 1000 EUR cents.
    expect(table.convert(1000, 'eur', 'usd', d('2024-03-01'))).toBeCloseTo(1100, 9);
    expect(table.convert(1100, 'usd', 'eur', d('2024-03-01'))).toBeCloseTo(1000, 9);
    expect(table.rate('eur', 'eur', d('1990-01-01'))).toBe(1);
    expect(table.convert(12_345.678, 'gbp', 'gbp', d('2024-03-02'))).toBe(12_345.678);
    expect(table.rate('usd', 'usd', d('2024-03-02'))).toBe(1);
  });

  it("uses Friday's rate on the weekend", () => {
    // Saturday and Sunday: USD 1.10, GBP 0.85, as on Friday.
    expect(table.rate('eur', 'usd', d('2024-03-02'))).toBe(1.1);
    expect(table.rate('eur', 'usd', d('2024-03-03'))).toBe(1.1);
    expect(table.convert(1000, 'usd', 'gbp', d('2024-03-03'))).toBeCloseTo(772.727_272_727, 9);
  });

  it('uses the last earlier rate of a currency absent on a day where others have one', () => {
    // Monday: USD 1.20 of its own, GBP still 0.85 from Friday; 1200 USD cents = 1000 EUR = 850 GBP.
    expect(table.convert(1200, 'usd', 'gbp', d('2024-03-04'))).toBeCloseTo(850, 9);
    // Tuesday both move: 1250 USD cents = 1000 EUR cents = 800 GBP cents.
    expect(table.convert(1250, 'usd', 'gbp', d('2024-03-05'))).toBeCloseTo(800, 9);
  });

  it("uses a currency's first rate before it, and its last rate after it", () => {
    // JPY's first rate is Monday's 160; on Friday 1 EUR = 160 JPY still, 1 USD = 160 / 1.10 JPY.
    expect(table.rate('usd', 'jpy', d('2024-03-01'))).toBeCloseTo(145.454_545_454_5, 9);
    expect(table.rate('eur', 'usd', d('2000-01-01'))).toBe(1.1);
    expect(table.rate('eur', 'gbp', d('2030-01-01'))).toBe(0.8);
  });

  it('lets a later rate for the same currency and day win, in one source or across sources', () => {
    const corrected = FxTable.build(RATES, [{ day: '2024-03-01', currency: 'usd', perEur: 1.5 }]);
    expect(corrected.rate('eur', 'usd', d('2024-03-01'))).toBe(1.5);
    expect(corrected.rate('eur', 'usd', d('2024-03-03'))).toBe(1.5);
    expect(corrected.rate('eur', 'usd', d('2024-03-04'))).toBe(1.2);
  });

  it('describes itself', () => {
    expect(table.currencies()).toEqual(['eur', 'gbp', 'jpy', 'usd']);
    expect(table.has('usd')).toBe(true);
    expect(table.has('eur')).toBe(true);
    expect(table.has('chf')).toBe(false);
    expect(table.firstDay()).toBe(d('2024-03-01'));
    expect(table.lastDay()).toBe(d('2024-03-05'));
    expect(Object.isFrozen(table)).toBe(true);
  });

  it('throws UnknownCurrencyError naming the currency, whichever side it is on', () => {
    expect(() => table.rate('xyz', 'usd', 0)).toThrow(UnknownCurrencyError);
    expect(() => table.convert(1, 'usd', 'xyz', 0)).toThrow(
      'Unknown currency "xyz": no exchange rates for it',
    );
    // The same currency needs no rate, known or not.
    expect(table.convert(1, 'xyz', 'xyz', 0)).toBe(1);
    expect(table.converter('xyz', 'xyz')(7, 0)).toBe(7);
    expect(() => table.converter('usd', 'xyz')).toThrow(UnknownCurrencyError);
  });

  it('refuses to build from nothing, or with rates for EUR itself', () => {
    expect(() => FxTable.build([])).toThrow(RangeError);
    expect(() => FxTable.build([{ day: '2024-03-01', currency: 'eur', perEur: 1 }])).toThrow(RangeError);
  });
});

describe('FxTable properties', () => {
  const CURRENCIES = ['usd', 'gbp', 'jpy', 'chf'];
  const FIRST = d('2024-01-01');
  const ratesArb = fc
    .array(
      fc.record({
        day: fc.integer({ min: FIRST, max: FIRST + 60 }),
        currency: fc.constantFrom(...CURRENCIES),
        perEur: fc.double({ min: 1e-3, max: 1e5, noNaN: true }),
      }),
      { minLength: 1, maxLength: 80 },
    )
    // Every currency gets a rate at FIRST + 30, so all of them are known and some start late.
    .map((rows) => [...CURRENCIES.map((currency) => ({ day: FIRST + 30, currency, perEur: 1 })), ...rows]);
  const toFxRates = (rows: { day: number; currency: string; perEur: number }[]): FxRate[] =>
    rows.map((row) => ({ ...row, day: dayString(row.day) }));
  const tableArb = ratesArb.map((rows) => FxTable.build(toFxRates(rows)));
  const currencyArb = fc.constantFrom('eur', ...CURRENCIES);
  const dayArb = fc.integer({ min: FIRST - 10, max: FIRST + 70 });

  it('rate(a, b) x rate(b, a) is 1', () => {
    fc.assert(
      fc.property(tableArb, currencyArb, currencyArb, dayArb, (fx, a, b, day) => {
        expect(fx.rate(a, b, day) * fx.rate(b, a, day)).toBeCloseTo(1, 12);
      }),
    );
  });

  it('converting through a third currency equals converting directly, within 1e-9 relative', () => {
    fc.assert(
      fc.property(
        tableArb,
        currencyArb,
        currencyArb,
        currencyArb,
        dayArb,
        fc.integer({ min: -1e9, max: 1e9 }),
        (fx, a, b, c, day, cents) => {
          const direct = fx.convert(cents, a, c, day);
          const through = fx.convert(fx.convert(cents, a, b, day), b, c, day);
          expect(Math.abs(through - direct)).toBeLessThanOrEqual(1e-9 * Math.abs(direct));
          expect(fx.converter(a, c)(cents, day)).toBe(direct);
          const { divisor, multiplier } = fx.factors(a, c, day);
          expect((cents / divisor) * multiplier).toBe(direct);
        },
      ),
    );
  });

  it('matches a naive search: the last rate on or before the day, the later row on a tie, else the first', () => {
    fc.assert(
      fc.property(ratesArb, fc.constantFrom(...CURRENCIES), dayArb, (rows, currency, day) => {
        const own = rows.filter((row) => row.currency === currency);
        const earlierDays = own.map((row) => row.day).filter((rowDay) => rowDay <= day);
        const target =
          earlierDays.length > 0 ? Math.max(...earlierDays) : Math.min(...own.map((row) => row.day));
        const expected = own.filter((row) => row.day === target).at(-1)!;
        expect(FxTable.build(toFxRates(rows)).rate('eur', currency, day)).toBe(expected.perEur);
      }),
    );
  });
});
