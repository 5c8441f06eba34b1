import { dayString } from '../engine/days.js';
import { FxTable, UnknownCurrencyError } from '../engine/fx-table.js';
import type { Store } from '../store/open-store.js';
import type { Clock } from './clock.js';
import { readEcbFile } from './ecb-file.js';
import { InvalidInputError } from './errors.js';
import { shippedFxRates, shippedFxTable } from './shipped-fx-rates.js';

/** A rate file loaded by another process (the CLI) reaches this one within this long. */
const RECHECK_MS = 60_000;

export interface FxLoadResult {
  /** Rates in the file, and how many of them were new or changed. */
  rates: number;
  written: number;
  days: number;
  currencies: string[];
  firstDay: string;
  lastDay: string;
}

export interface FxStatus {
  currencies: string[];
  firstDay: string;
  lastDay: string;
  /** The rates loaded after install, on top of the shipped history. */
  loaded: { rates: number; firstDay: string | null; lastDay: string | null };
}

interface Cached {
  table: FxTable;
  version: string;
  checkedAt: number;
}

/**
 * Exchange rates: the shipped ECB history merged with the rates loaded into the store, the
 * loaded ones winning on the same currency and day. The table is cached and rebuilt when the
 * store's version moves, which is asked at most once a minute.
 */
export function createFxService(store: Store, clock: Clock) {
  let cached: Cached | undefined;
  let refreshing: Promise<FxTable> | undefined;
  // Bumped by load(), so a refresh that began before it cannot put back the table it replaced.
  let generation = 0;

  async function refresh(): Promise<FxTable> {
    const started = generation;
    const checkedAt = clock.now().getTime();
    const { version } = await store.fxRates.summary();
    let next: Cached;
    if (cached !== undefined && cached.version === version) {
      next = { ...cached, checkedAt };
    } else {
      const loaded = await store.fxRates.all();
      const table = loaded.length === 0 ? shippedFxTable() : FxTable.build(shippedFxRates(), loaded);
      next = { table, version, checkedAt };
    }
    if (started === generation) cached = next;
    return next.table;
  }

  async function table(): Promise<FxTable> {
    if (cached !== undefined && clock.now().getTime() - cached.checkedAt < RECHECK_MS) return cached.table;
    refreshing ??= refresh().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  return {
    table,

    /** The lower-case code when rates exist for it; else invalid input, prefixed by `field` if given. */
    async assertCurrency(code: string, field?: string): Promise<string> {
      const currency = code.toLowerCase();
      if ((await table()).has(currency)) return currency;
      const message = new UnknownCurrencyError(code).message;
      throw new InvalidInputError(field === undefined ? message : `${field}: ${message}`);
    },

    /** Stores the rates of an ECB CSV file (or the zip holding it), all or nothing. */
    async load(contents: Uint8Array): Promise<FxLoadResult> {
      const rates = readEcbFile(contents);
      if (rates.length === 0) throw new InvalidInputError('The file holds no exchange rates');
      const written = await store.transaction(async (tx) => {
        await tx.fxRates.lockForLoad();
        return tx.fxRates.upsert(rates);
      });
      generation++;
      cached = undefined;
      const days = [...new Set(rates.map((rate) => rate.day))].sort();
      return {
        rates: rates.length,
        written,
        days: days.length,
        currencies: [...new Set(rates.map((rate) => rate.currency))].sort(),
        firstDay: days[0]!,
        lastDay: days.at(-1)!,
      };
    },

    async status(): Promise<FxStatus> {
      const fx = await table();
      const loaded = await store.fxRates.summary();
      return {
        currencies: fx.currencies(),
        firstDay: dayString(fx.firstDay()),
        lastDay: dayString(fx.lastDay()),
        loaded: { rates: loaded.rates, firstDay: loaded.firstDay, lastDay: loaded.lastDay },
      };
    },
  };
}

export type FxService = ReturnType<typeof createFxService>;
