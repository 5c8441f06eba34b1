import type { JobSender } from '../jobs/job-queue.js';
import type { DeadJobRow } from '../store/jobs-repo.js';
import type { Store } from '../store/open-store.js';

/** The sender of a process that runs no job runner (a test app without one): every send fails. */
export const NO_JOB_RUNNER: JobSender = {
  async send(queue) {
    throw new Error(`No job runner in this process: cannot send to ${queue}`);
  },
};

/** What an account may see of the job runner: its own dead jobs (docs/operations.md, "Background jobs"). */
export function createJobsService(store: Store) {
  return {
    dead(accountId: string): Promise<DeadJobRow[]> {
      return store.jobs.dead({ accountId });
    },
  };
}
