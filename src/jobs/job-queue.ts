/**
 * What the rest of the service sees of the durable job runner (docs/operations.md, "Background
 * jobs"). Jobs live in the store, so they survive a restart; with several processes on one
 * PostgreSQL each job is claimed by one of them.
 */

/** A job's payload: plain JSON, as it is stored. */
export type JobPayload = Record<string, unknown>;

export interface JobOptions {
  /**
   * A job whose queue and key were already sent is not queued again, so a job that records an
   * effect (one delivery of one event to one endpoint) can be sent from every path that notices
   * it without being run twice.
   */
  key?: string;
  /** Not run before this instant. */
  startAfter?: Date;
}

export interface JobSender {
  send(queue: string, payload: JobPayload, options?: JobOptions): Promise<void>;
}

/**
 * A failure no retry can mend (a target the outbound policy refuses): the runner reports it like
 * any failed attempt and ends the job at once instead of retrying it. The job's own records say
 * what became of its work.
 */
export class FinalJobError extends Error {
  override name = 'FinalJobError';
}

export interface RetryPolicy {
  /** Attempts after the first failed one; after the last, the job is dead (kept, visible). */
  limit: number;
  /** Seconds before the first retry; doubled for each further one. */
  delaySeconds: number;
}

/** One kind of background work: a queue, how failures retry, and the idempotent call it makes. */
export interface JobDefinition<P extends JobPayload = JobPayload> {
  queue: string;
  retry: RetryPolicy;
  /** Runs the job on this cron schedule (UTC) besides any sends; the payload is then `{}`. */
  cron?: string;
  /**
   * Longest one run may take (default 15 minutes); past it the attempt counts as failed. It is also
   * how soon PostgreSQL retries the job of a process that died while running it.
   */
  timeoutSeconds?: number;
  run(payload: P): Promise<void>;
}
