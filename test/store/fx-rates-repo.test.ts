import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayNumber, dayString } from '../../src/engine/days.js';
import type { FxRate } from '../../src/engine/fx-table.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../helpers/stores.js';

describe.each(STORE_KINDS)('fx rates repo on %s', (kind) => {
  let test: TestStore;
  beforeAll(async () => {
    test = await openTestStore(kind);
  });
  afterAll(() => test.dispose());

  it('starts empty', async () => {
    expect(await test.store.fxRates.all()).toEqual([]);
    expect(await test.store.fxRates.summary()).toEqual({
      rates: 0,
      firstDay: null,
      lastDay: null,
      version: '0:',
    });
  });

  it('upserts in chunks, replaces changed rates and leaves identical ones alone', async () => {
    // 25,000 rows: three chunks of at most 10,000.
    const many: FxRate[] = Array.from({ length: 25_000 }, (_, i) => ({
      day: dayString(dayNumber('1990-01-01') + i),
      currency: 'usd',
      perEur: 1 + i / 1e5,
    }));
    expect(await test.store.fxRates.upsert(many)).toBe(25_000);
    const first = await test.store.fxRates.summary();
    expect(first).toMatchObject({ rates: 25_000, firstDay: '1990-01-01', lastDay: '2058-06-12' });

    expect(await test.store.fxRates.upsert(many.slice(0, 10))).toBe(0);
    expect(await test.store.fxRates.summary()).toEqual(first);

    expect(await test.store.fxRates.upsert([{ day: '1990-01-01', currency: 'usd', perEur: 2.5 }])).toBe(1);
    const changed = await test.store.fxRates.summary();
    expect(changed.rates).toBe(25_000);
    expect(changed.version).not.toBe(first.version);
    expect((await test.store.fxRates.all())[0]).toEqual({ day: '1990-01-01', currency: 'usd', perEur: 2.5 });
  });

  it('rejects EUR and malformed codes, all or nothing inside a transaction', async () => {
    const before = await test.store.fxRates.summary();
    for (const currency of ['eur', 'USD', 'us']) {
      await expect(
        test.store.transaction((tx) =>
          tx.fxRates.upsert([
            { day: '2001-01-01', currency: 'gbp', perEur: 0.6 },
            { day: '2001-01-01', currency, perEur: 1 },
          ]),
        ),
      ).rejects.toThrow();
    }
    expect(await test.store.fxRates.summary()).toEqual(before);
  });
});
