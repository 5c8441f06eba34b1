import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayNumber } from '../../src/engine/days.js';
import { fixedClock } from '../../src/services/clock.js';
import { InvalidInputError } from '../../src/services/errors.js';
import { createFxService, type FxService } from '../../src/services/fx-service.js';
import { shippedFxTable } from '../../src/services/shipped-fx-rates.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../helpers/stores.js';

// A day after the shipped history, a new currency, and a correction of a shipped rate
// (the file says USD 1.1122 on 2020-03-02).
const NEWER = strToU8(['Date,USD,GBP,AED,', '2026-04-14,1.2,0.9,N/A,', '2020-03-02,2,N/A,4.1,'].join('\r\n'));

const usdOn = async (fx: FxService, day: string) => (await fx.table()).rate('eur', 'usd', dayNumber(day));

describe.each(STORE_KINDS)('fx service on %s', (kind) => {
  let test: TestStore;
  const clock = fixedClock('2026-04-15T10:00:00Z');
  let fx: FxService;
  beforeAll(async () => {
    test = await openTestStore(kind);
    fx = createFxService(test.store, clock);
  });
  afterAll(() => test.dispose());

  it('serves the shipped history while the store holds no rates', async () => {
    expect(await fx.table()).toBe(shippedFxTable());
    expect(await fx.status()).toEqual({
      currencies: shippedFxTable().currencies(),
      firstDay: '1999-01-04',
      lastDay: '2026-04-13',
      loaded: { rates: 0, firstDay: null, lastDay: null },
    });
  });

  it('checks currencies against the rates, naming the field when asked', async () => {
    expect(await fx.assertCurrency('USD')).toBe('usd');
    expect(await fx.assertCurrency('eur')).toBe('eur');
    await expect(fx.assertCurrency('xyz')).rejects.toThrow(InvalidInputError);
    await expect(fx.assertCurrency('xyz')).rejects.toThrow(
      'Unknown currency "xyz": no exchange rates for it',
    );
    await expect(fx.assertCurrency('AED', 'baseCurrency')).rejects.toThrow(
      'baseCurrency: Unknown currency "AED": no exchange rates for it',
    );
  });

  it('loads a newer file; loaded rates win over shipped ones; reloading it writes nothing', async () => {
    expect(await fx.load(NEWER)).toEqual({
      rates: 4,
      written: 4,
      days: 2,
      currencies: ['aed', 'gbp', 'usd'],
      firstDay: '2020-03-02',
      lastDay: '2026-04-14',
    });
    // This process sees its own load at once, without waiting for the minute.
    expect(await usdOn(fx, '2026-04-14')).toBe(1.2);
    expect(await usdOn(fx, '2026-04-20')).toBe(1.2);
    expect(await usdOn(fx, '2020-03-02')).toBe(2);
    expect(await usdOn(fx, '2020-03-03')).toBe(1.1117);
    // GBP has no loaded rate on 2020-03-02: the shipped 0.87113 stays.
    expect((await fx.table()).rate('eur', 'gbp', dayNumber('2020-03-02'))).toBe(0.87113);
    expect(await fx.assertCurrency('AED', 'baseCurrency')).toBe('aed');
    expect((await fx.status()).loaded).toEqual({ rates: 4, firstDay: '2020-03-02', lastDay: '2026-04-14' });
    expect((await fx.status()).lastDay).toBe('2026-04-14');

    expect((await fx.load(NEWER)).written).toBe(0);
  });

  it('reads the zip the ECB publishes', async () => {
    const zip = zipSync({ 'eurofxref.csv': strToU8('Date, USD, \n15 April 2026, 1.25, \n') });
    expect(await fx.load(zip)).toMatchObject({ rates: 1, written: 1, firstDay: '2026-04-15' });
    expect(await usdOn(fx, '2026-04-15')).toBe(1.25);
  });

  it('rejects a malformed file as invalid input and stores nothing of it', async () => {
    const before = await test.store.fxRates.summary();
    await expect(fx.load(strToU8('Date,USD\n2026-04-16,1.3\n2026-04-17,oops\n'))).rejects.toThrow(
      'Not an ECB rate file: Line 3: "oops" in USD is not a positive rate',
    );
    await expect(fx.load(strToU8('Date,USD,\n'))).rejects.toThrow('The file holds no exchange rates');
    await expect(fx.load(zipSync({ 'readme.txt': strToU8('hello') }))).rejects.toThrow(
      'Expected one CSV file in the zip, found 0',
    );
    await expect(fx.load(strToU8('PK\u0003\u0004 not really a zip'))).rejects.toThrow(InvalidInputError);
    expect(await test.store.fxRates.summary()).toEqual(before);
  });

  it('picks up rates loaded by another process within a minute', async () => {
    const other = createFxService(test.store, clock);
    await other.load(strToU8('Date,USD\n2026-04-16,1.3\n'));
    // Checked less than a minute ago: still the cached table.
    clock.set('2026-04-15T10:00:59Z');
    expect(await usdOn(fx, '2026-04-16')).toBe(1.25);
    clock.set('2026-04-15T10:01:01Z');
    expect(await usdOn(fx, '2026-04-16')).toBe(1.3);
  });

  it('keeps the cached table when the version has not moved', async () => {
    const before = await fx.table();
    clock.set('2026-04-15T10:05:00Z');
    expect(await fx.table()).toBe(before);
  });
});
