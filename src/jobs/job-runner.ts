import PgBoss from 'pg-boss';
import { hashedUuid } from '../services/ids.js';
import type { JobQueueDb } from '../store/db.js';
import type { DeadJobRow } from '../store/jobs-repo.js';
import type { Store } from '../store/open-store.js';
import {
  FinalJobError,
  type JobDefinition,
  type JobOptions,
  type JobPayload,
  type JobSender,
  type RetryPolicy,
} from './job-queue.js';

export interface JobRunnerOptions {
  /** How often an idle worker asks for jobs; default 2 s. */
  pollingIntervalSeconds?: number;
  /** How often runs past their time are failed and finished jobs archived; default 60 s. */
  maintenanceIntervalSeconds?: number;
  /** How long `stop` lets running jobs finish before failing them (to be retried); default 10 s. */
  stopTimeoutMs?: number;
  /**
   * false: this runner only sends (its queues are created, none is worked, nothing scheduled or
   * maintained), for a process that queues jobs for servers to run. Default true.
   */
  workers?: boolean;
  /** The queue's own failures (a poll that failed), and each failed run with its queue. */
  onError?: (error: unknown, queue?: string) => void;
}

export type DeadJob = DeadJobRow;

export interface JobRunner {
  /** Refuses to send before `start`, and to a queue that no definition names. */
  sender: JobSender;
  /** Creates the queues, schedules the cron jobs and runs workers for every definition. */
  start(definitions: readonly JobDefinition[]): Promise<void>;
  /** Stops taking jobs, waits for those running (up to `stopTimeoutMs`) and for the queue's writes. */
  stop(): Promise<void>;
  /** Jobs that failed their last attempt, newest first (at most 100). */
  dead(queue?: string): Promise<DeadJob[]>;
}

/** A run may take this long unless its definition says otherwise; past it the attempt has failed. */
const DEFAULT_TIMEOUT_SECONDS = 15 * 60;
const DAY_SECONDS = 24 * 60 * 60;

/**
 * A keyed job's id: the same queue and key give the same id, and pg-boss inserts a job whose id
 * is taken as nothing. A hash, so any key fits the uuid column.
 */
export function keyedJobId(queue: string, key: string): string {
  return hashedUuid(`${queue}\n${key}`);
}

/** pg-boss's retry settings for a policy: a delay of 0 retries at once (pg-boss's backoff needs 1 s at least). */
function retryOptions(retry: RetryPolicy) {
  return { retryLimit: retry.limit, retryDelay: retry.delaySeconds, retryBackoff: retry.delaySeconds > 0 };
}

function jobOptions(definition: JobDefinition) {
  return {
    ...retryOptions(definition.retry),
    expireInSeconds: definition.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
  };
}

/**
 * The queue's statements, counted while they run: pg-boss marks a finished job done without
 * waiting, so `stop` waits for these before the store may close.
 */
function trackedDb(db: JobQueueDb) {
  const running = new Set<Promise<unknown>>();
  return {
    db: {
      executeSql(text: string, values?: unknown[]) {
        const result = db.executeSql(text, values);
        running.add(result);
        const settled = () => running.delete(result);
        result.then(settled, settled);
        return result;
      },
    },
    settled: () => Promise.allSettled([...running]),
  };
}

/**
 * The durable job runner: pg-boss on the store's own database, PGlite or PostgreSQL alike
 * (docs/operations.md, "Background jobs"; the choice in docs/decisions.md).
 */
export function createJobRunner(store: Store, options: JobRunnerOptions = {}): JobRunner {
  const onError = options.onError ?? ((error: unknown) => console.error('Job queue:', error));
  const workers = options.workers ?? true;
  const queueDb = trackedDb(store.jobQueueDb);
  const boss = new PgBoss({
    db: queueDb.db,
    supervise: workers,
    schedule: workers,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 60,
    // Completed jobs stay a day, dead ones two weeks (listed by `dead`), then move to the archive,
    // which keeps them two weeks more; a keyed send is a no-op while either holds its job.
    archiveCompletedAfterSeconds: DAY_SECONDS,
    archiveFailedAfterSeconds: 14 * DAY_SECONDS,
    deleteAfterDays: 14,
  });
  boss.on('error', (error) => onError(error));
  const definitions = new Map<string, JobDefinition>();
  let started = false;

  async function recoverOrphans(): Promise<void> {
    // Only this process can open the embedded store, so a job marked running was left by a
    // process that ended mid-run: it counts as a failed attempt now rather than at its timeout.
    if (store.kind !== 'pglite') return;
    for (const job of await store.jobs.active())
      await boss.fail(job.queue, job.id, { message: 'The process running the job ended' });
  }

  async function register(definition: JobDefinition): Promise<void> {
    await boss.createQueue(definition.queue);
    if (!workers) return;
    if (definition.cron)
      await boss.schedule(definition.queue, definition.cron, {}, { tz: 'UTC', ...jobOptions(definition) });
    else await boss.unschedule(definition.queue);
    await boss.work<JobPayload>(
      definition.queue,
      { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2, batchSize: 1 },
      async ([job]) => {
        try {
          await definition.run(job!.data);
        } catch (error) {
          onError(error, definition.queue);
          if (!(error instanceof FinalJobError)) throw error;
        }
      },
    );
  }

  const sender: JobSender = {
    async send(queue: string, payload: JobPayload, sendOptions: JobOptions = {}) {
      if (!started) throw new Error(`The job runner is not started: cannot send to ${queue}`);
      const definition = definitions.get(queue);
      if (!definition) throw new Error(`No job definition for queue ${queue}`);
      const id = sendOptions.key === undefined ? undefined : keyedJobId(queue, sendOptions.key);
      if (id !== undefined && (await store.jobs.archived({ queue, id }))) return;
      await boss.send(queue, payload, {
        ...jobOptions(definition),
        ...(id === undefined ? {} : { id }),
        ...(sendOptions.startAfter ? { startAfter: sendOptions.startAfter } : {}),
      });
    },
  };

  return {
    sender,
    async start(list) {
      for (const definition of list) {
        if (definitions.has(definition.queue))
          throw new Error(`Two job definitions for queue ${definition.queue}`);
        definitions.set(definition.queue, definition);
      }
      await store.jobQueueDb.exclusively(async () => {
        await boss.start();
        if (workers) await recoverOrphans();
        for (const definition of list) await register(definition);
      });
      started = true;
    },
    async stop() {
      if (!started) return;
      // Sends stay open while running jobs finish: a job that queues its follow-ups (detection
      // queues the deliveries) must not fail half-way because the server is stopping.
      await boss.stop({ graceful: true, close: false, timeout: options.stopTimeoutMs ?? 10_000 });
      started = false;
      await queueDb.settled();
    },
    dead: (queue) => store.jobs.dead(queue === undefined ? {} : { queue }),
  };
}
