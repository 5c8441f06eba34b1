import type { ChatJob, DigestJob, NotificationsService } from '../services/notifications-service.js';
import { NOTIFY_QUEUES } from '../services/notifications-service.js';
import type { JobDefinition, JobPayload, RetryPolicy } from './job-queue.js';

/** Chat and mail servers that fail are retried for about an hour: 1, 2, 4 ... 32 minutes. */
const DELIVERY_RETRY: RetryPolicy = { limit: 6, delaySeconds: 60 };
/** Detection and the sweeps only read and queue; a failure is retried soon, a few times. */
const SWEEP_RETRY: RetryPolicy = { limit: 3, delaySeconds: 30 };

/**
 * The notification jobs (docs/notifications.md): detection after writes (and a sweep for
 * writes no request made, such as connector imports), chat deliveries, the digests due and
 * the alerts. Each run is one call of the service's entry point with the job's payload.
 */
export function notificationJobs(notifications: NotificationsService): JobDefinition[] {
  const define = <P extends JobPayload>(definition: JobDefinition<P>) =>
    definition as unknown as JobDefinition;
  return [
    define<JobPayload>({
      queue: NOTIFY_QUEUES.detect,
      retry: SWEEP_RETRY,
      // Every five minutes, the accounts written since their last detection; else one account.
      cron: '*/5 * * * *',
      run: (payload) =>
        typeof payload.accountId === 'string'
          ? notifications.afterDataChange(
              payload.accountId,
              typeof payload.version === 'number' ? payload.version : undefined,
            )
          : notifications.detectChanged(),
    }),
    define<ChatJob>({ queue: NOTIFY_QUEUES.chat, retry: DELIVERY_RETRY, run: notifications.deliverChat }),
    define<JobPayload>({
      queue: NOTIFY_QUEUES.digest,
      retry: DELIVERY_RETRY,
      // Hourly: the sweep queues the digests due (from 08:00 in each account's time zone); a payload is one digest.
      cron: '0 * * * *',
      run: async (payload) => {
        if (typeof payload.accountId === 'string') await notifications.sendDigest(payload as DigestJob);
        else await notifications.sendDueDigests();
      },
    }),
    define<JobPayload>({
      queue: NOTIFY_QUEUES.alerts,
      retry: SWEEP_RETRY,
      // Hourly, so a day crossing a threshold is told even when no write follows it.
      cron: '30 * * * *',
      run: () => notifications.evaluateAllAlerts(),
    }),
  ];
}
