import type { Services } from '../services/index.js';
import { WEBHOOK_DELIVERY_QUEUE } from '../services/webhooks-service.js';
import type { JobDefinition } from './job-queue.js';

/** One attempt never outlasts its request's time limit by much; past this it is counted failed. */
const DELIVERY_TIMEOUT_SECONDS = 60;

/** The outbound webhooks' delivery job: one attempt per run, retried by the runner (docs/webhooks.md). */
export function webhookJobs(services: Services): JobDefinition[] {
  return [
    {
      queue: WEBHOOK_DELIVERY_QUEUE,
      retry: services.webhooks.retry,
      timeoutSeconds: DELIVERY_TIMEOUT_SECONDS,
      run: (payload) => services.webhooks.deliver(payload),
    },
  ];
}
