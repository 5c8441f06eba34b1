import type { Db, Queryable } from './db.js';
import { throttledUpkeep } from './throttled-upkeep.js';

/**
 * The queue's file is compacted once it is past this many pages (8 KiB each) and, on the
 * embedded store, holds fewer live marks than this many a page: a page holds about 80.
 */
const COMPACT_WHEN = { pages: 128, liveMarksPerPage: 8 };

/** Checks at most this often: the file's size, and only past COMPACT_WHEN.pages a look at its marks. */
const CHECK_INTERVAL_MS = 5_000;

/**
 * How long PostgreSQL's compaction waits for the queue's lock, in ms, before it leaves it to the
 * next check: while it waits, every write of the account's marks waits behind it.
 */
const LOCK_WAIT_MS = 20;

/**
 * Keeps the change queue (`dirty_customers`) small. Every write adds marks and every refresh
 * deletes them, so nearly all of the queue's rows are soon dead, and finding an account's first
 * mark, as every snapshot build and every claim does, steps over them (docs/decisions.md, "The
 * change queue is compacted"). After a 100,000-customer import on PGlite, which has no
 * autovacuum, that was 2,700 index pages (11 ms) for two live marks. A plain VACUUM frees the
 * entries but keeps the file's size, and the planner, then told of two rows in 2,246 pages,
 * read the whole file at every step of a claim (67 ms). So a large queue is compacted:
 *
 * - on the embedded store, rewritten whole (VACUUM FULL) once it is mostly dead: its exclusive
 *   lock holds back nothing that would not wait for the one connection anyway;
 * - on PostgreSQL, where it would stop every process's writes for the rewrite, emptied by
 *   TRUNCATE only when no mark is left, under a lock it waits at most LOCK_WAIT_MS for.
 */
export function changeQueueCompaction(db: Db, now: () => number = Date.now, lockWaitMs = LOCK_WAIT_MS) {
  async function rewriteWhenMostlyDead(pages: number): Promise<void> {
    const enough = pages * COMPACT_WHEN.liveMarksPerPage;
    // Counted only up to what keeps the queue as it is: during an import it holds many.
    const [queue] = await db.query<{ live: number }>(
      'select count(*)::int as live from (select from dirty_customers limit $1) marks',
      [enough],
    );
    if (!queue || queue.live >= enough) return;
    await db.exec('vacuum full dirty_customers');
  }

  async function truncateWhenEmpty(): Promise<void> {
    const marked = async (on: Queryable) => {
      const [row] = await on.query<{ marked: boolean }>(
        'select exists (select 1 from dirty_customers) as marked',
      );
      return row?.marked !== false;
    };
    // Looked at first without the lock, which would hold back every write while it waits.
    if (await marked(db)) return;
    await db.transaction(async (tx) => {
      // Neither statement takes a snapshot, so the look below, in read committed whatever the
      // database's default, sees every mark committed before the lock was granted.
      await tx.query('set transaction isolation level read committed');
      await tx.query(`set local lock_timeout = ${Math.trunc(lockWaitMs)}`);
      // No write can add a mark while the lock is held, so an empty queue stays empty.
      await tx.query('lock table dirty_customers in access exclusive mode');
      if (!(await marked(tx))) await tx.query('truncate dirty_customers');
    });
  }

  async function compactWhenLarge(): Promise<void> {
    const [file] = await db.query<{ pages: number }>(
      `select pg_relation_size('dirty_customers') / current_setting('block_size')::int as pages`,
    );
    if (!file || file.pages <= COMPACT_WHEN.pages) return;
    await (db.kind === 'pglite' ? rewriteWhenMostlyDead(file.pages) : truncateWhenEmpty());
  }

  return { afterWrite: throttledUpkeep(compactWhenLarge, CHECK_INTERVAL_MS, now) };
}
