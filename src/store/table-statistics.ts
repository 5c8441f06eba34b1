import type { Queryable } from './db.js';
import { throttledUpkeep } from './throttled-upkeep.js';

/**
 * A table is analyzed once it has grown by this many pages (8 KiB each) since its last
 * analysis, plus this share of its size then: once it has about doubled, so that an import to
 * millions of rows is analyzed about a dozen times. The planner scales the rows an analysis
 * counted by the table's current size on its own; what an analysis adds are the values'
 * distributions, which more of one import changes little. At a fifth, analyses took a tenth
 * of the embedded store's time during an import (docs/performance.md, "The embedded store's
 * time in an import, by statement"). Growth is read from the table's size on disk against the
 * page count its last analysis (or vacuum) recorded: unlike the cumulative statistics views,
 * both are current at once, in every process.
 */
const THRESHOLD = { pages: 10, share: 1 };

/** Checks at most this often; the check is one read of the catalog. */
const CHECK_INTERVAL_MS = 5_000;

/**
 * Keeps the planner's table statistics current after bulk writes. PGlite never analyzes a
 * table by itself and PostgreSQL's autovacuum may come minutes after an import; until then the
 * planner guesses row counts from page counts and can pick plans that read a whole table per
 * row. `afterWrite` runs after a transaction commits and analyzes, outside any transaction,
 * the tables that grew enough since their last analysis (docs/decisions.md, "Table
 * statistics are kept after bulk writes, by the service").
 */
export function tableStatistics(db: Queryable, now: () => number = Date.now) {
  async function analyzeStale(): Promise<void> {
    const stale = await db.query<{ name: string }>(
      `select quote_ident(relname) as name from pg_class
       where relnamespace = current_schema()::regnamespace and relkind = 'r'
         and pg_relation_size(oid) / current_setting('block_size')::int - greatest(relpages, 0)
             > $1 + $2::real * greatest(relpages, 0)`,
      [THRESHOLD.pages, THRESHOLD.share],
    );
    // One table at a time: each analysis holds the loop of the embedded store only briefly.
    for (const { name } of stale) await db.exec(`analyze ${name}`);
  }

  return { afterWrite: throttledUpkeep(analyzeStale, CHECK_INTERVAL_MS, now) };
}
