import type { Queryable } from './db.js';

/**
 * Reads of the job runner's own tables that pg-boss 10 has no call for. pg-boss keeps them in
 * the `pgboss` schema, which exists once a runner has started on the database; before that
 * there are no jobs.
 */
export interface DeadJobRow {
  id: string;
  queue: string;
  payload: Record<string, unknown>;
  /** Runs, the first one included. */
  attempts: number;
  error: string | null;
  created_at: string;
  failed_at: string;
}

export interface JobRef {
  queue: string;
  id: string;
}

// Both tables have the same columns; a dead job moves from the first to the second after a while.
const DEAD_COLUMNS = `id::text, name as queue, data as payload, retry_count + 1 as attempts,
  coalesce(output->>'message', output->'value'->>'message') as error,
  created_on as created_at, completed_on as failed_at`;

/** The most dead jobs one read lists. */
const DEAD_LIST_LIMIT = 100;

export function jobsRepo(db: Queryable) {
  async function started(): Promise<boolean> {
    const [row] = await db.query<{ present: boolean }>(
      "select to_regclass('pgboss.archive') is not null as present",
    );
    return row?.present === true;
  }

  return {
    /**
     * Jobs that failed their last allowed attempt, newest first (at most 100); with `accountId`,
     * only those whose payload names that account.
     */
    async dead(filter: { queue?: string; accountId?: string }): Promise<DeadJobRow[]> {
      if (!(await started())) return [];
      const where = `state = 'failed' and ($1::text is null or name = $1)
        and ($2::text is null or data->>'accountId' = $2)`;
      return db.query<DeadJobRow>(
        `select * from (
           select ${DEAD_COLUMNS} from pgboss.job where ${where}
           union all
           select ${DEAD_COLUMNS} from pgboss.archive where ${where}
         ) dead order by failed_at desc, id limit $3`,
        [filter.queue ?? null, filter.accountId ?? null, DEAD_LIST_LIMIT],
      );
    },

    /** Whether a job with this id ran and was archived since (pg-boss's own insert sees only live jobs). */
    async archived(job: JobRef): Promise<boolean> {
      const rows = await db.query('select 1 from pgboss.archive where name = $1 and id = $2', [
        job.queue,
        job.id,
      ]);
      return rows.length > 0;
    },

    /** Jobs marked as running: after a start on a store only this process can open, none really is. */
    async active(): Promise<JobRef[]> {
      return db.query<JobRef>("select name as queue, id::text from pgboss.job where state = 'active'");
    },
  };
}
