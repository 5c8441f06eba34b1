import type { Services } from '../services/index.js';
import type { JobDefinition } from './job-queue.js';
import { notificationJobs } from './notification-jobs.js';
import { webhookJobs } from './webhook-jobs.js';

/** Every kind of background work the server runs. */
export function jobDefinitions(services: Services): JobDefinition[] {
  return [...webhookJobs(services), ...notificationJobs(services.notifications)];
}
