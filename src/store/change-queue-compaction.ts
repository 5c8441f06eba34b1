import type { Queryable } from './db.js';
import { throttledUpkeep } from './throttled-upkeep.js';

/**
 * The queue's file is rewritten once it is past this many pages (8 KiB each) and holds fewer
 * live marks than this many a page: a page holds about 80.
 */
const COMPACT_WHEN = { pages: 128, liveMarksPerPage: 8 };

/** Checks at most this often; the check is one read of the catalog. */
const CHECK_INTERVAL_MS = 5_000;

/**
 * Keeps the embedded store's change queue (`dirty_customers`) small. Every write adds marks
 * and every refresh deletes them, so nearly all of the queue's rows are soon dead. PostgreSQL's
 * autovacuum reclaims them; PGlite has none, and after a 100,000-customer import the queue's
 * file held 18 MiB and its key's index 22 MiB for two live marks: finding an account's first
 * mark, as every snapshot build and every claim does, walked 2,700 pages of dead index entries
 * (11 ms). A plain VACUUM frees them but keeps the file's size, and the planner, then told of
 * two rows in 2,246 pages, read the whole file at every step of a claim (67 ms). So the queue
 * is rewritten whole (VACUUM FULL) once its file is large and mostly dead: on the embedded
 * store's one connection its exclusive lock holds back nothing that would not wait anyway
 * (docs/decisions.md, "The embedded store's change queue is compacted").
 */
export function changeQueueCompaction(db: Queryable, now: () => number = Date.now) {
  async function compactWhenMostlyDead(): Promise<void> {
    const [file] = await db.query<{ pages: number }>(
      `select pg_relation_size('dirty_customers') / current_setting('block_size')::int as pages`,
    );
    if (!file || file.pages <= COMPACT_WHEN.pages) return;
    const [queue] = await db.query<{ live: number }>('select count(*)::int as live from dirty_customers');
    if (!queue || queue.live >= file.pages * COMPACT_WHEN.liveMarksPerPage) return;
    await db.exec('vacuum full dirty_customers');
  }

  return { afterWrite: throttledUpkeep(compactWhenMostlyDead, CHECK_INTERVAL_MS, now) };
}
