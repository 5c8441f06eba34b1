import type { FxRate } from '../engine/fx-table.js';
import type { Queryable } from './db.js';

// Three arrays of this many elements stay far below any parameter or message size limit.
const CHUNK = 10_000;
// Any fixed number: loads take it so that each one's loaded_at follows the previous commit.
const LOAD_LOCK_ID = 727_003;

export interface FxRatesSummary {
  rates: number;
  firstDay: string | null;
  lastDay: string | null;
  /** Changes whenever a rate is added or changed: the row count and the latest loaded_at in µs. */
  version: string;
}

/** Exchange rates loaded after install. Global reference data: no account_id. */
export function fxRatesRepo(db: Queryable) {
  return {
    /**
     * Serialises loads; inside a transaction, held to its end. Without it a load that started
     * earlier but committed later could stamp loaded_at below the version a reader already saw.
     */
    async lockForLoad(): Promise<void> {
      await db.query('select pg_advisory_xact_lock($1)', [LOAD_LOCK_ID]);
    },

    /**
     * Inserts or replaces rates, one statement per chunk of arrays (unnest). A rate that is
     * already stored with the same value is left alone, so reloading a file moves no version.
     * Returns the rows written.
     */
    async upsert(rates: readonly FxRate[]): Promise<number> {
      let written = 0;
      for (let start = 0; start < rates.length; start += CHUNK) {
        const chunk = rates.slice(start, start + CHUNK);
        const [row] = await db.query<{ written: number }>(
          `with written as (
             insert into fx_rates (currency, day, per_eur, loaded_at)
             select currency, day, per_eur, statement_timestamp()
             from unnest($1::text[], $2::date[], $3::double precision[]) as rate (currency, day, per_eur)
             on conflict (currency, day) do update
               set per_eur = excluded.per_eur, loaded_at = excluded.loaded_at
               where fx_rates.per_eur is distinct from excluded.per_eur
             returning 1
           )
           select count(*)::int as written from written`,
          [
            chunk.map((rate) => rate.currency),
            chunk.map((rate) => rate.day),
            chunk.map((rate) => rate.perEur),
          ],
        );
        written += row!.written;
      }
      return written;
    },

    async all(): Promise<FxRate[]> {
      const rows = await db.query<{ currency: string; day: string; per_eur: number }>(
        'select currency, day, per_eur from fx_rates order by currency, day',
      );
      return rows.map((row) => ({ day: row.day, currency: row.currency, perEur: row.per_eur }));
    },

    /** Cheap enough to ask once a minute: one aggregate over the loaded rates only. */
    async summary(): Promise<FxRatesSummary> {
      const [row] = await db.query<{
        rates: number;
        first_day: string | null;
        last_day: string | null;
        version: string;
      }>(
        `select count(*)::int as rates, min(day) as first_day, max(day) as last_day,
           count(*) || ':' || coalesce((extract(epoch from max(loaded_at)) * 1000000)::bigint::text, '') as version
         from fx_rates`,
      );
      return { rates: row!.rates, firstDay: row!.first_day, lastDay: row!.last_day, version: row!.version };
    },
  };
}
