import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { RevenueEvent, RevenueEventPublisher } from '../engine/revenue-event.js';
import {
  EVENT_TYPE_OF_KIND,
  importCompletedData,
  type RecordEvent,
  revenueEventData,
  sampleData,
  WEBHOOK_EVENT_TYPES,
  type WebhookBody,
  type WebhookEventType,
} from '../engine/webhook-events.js';
import { FinalJobError, type JobPayload, type JobSender, type RetryPolicy } from '../jobs/job-queue.js';
import type { Store } from '../store/open-store.js';
import type { DeliveryRef, DeliveryRow, WebhookRow } from '../store/webhooks-repo.js';
import type { Clock } from './clock.js';
import { NotFoundError, ConflictError, InvalidInputError } from './errors.js';
import { hashedUuid, isUuid } from './ids.js';
import { type OutboundPolicy, refusedUrl, STRICT_OUTBOUND } from './outbound-http.js';
import { postSigned } from './webhook-post.js';
import { newWebhookSecret } from './webhook-signature.js';

export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';

/**
 * 12 attempts: the first, then retries after at least 30 s, 1, 2, 4 ... 512 minutes, each
 * stretched by up to as much again at random: the last one between 17 and 34 hours after the
 * first (docs/webhooks.md).
 */
export const DEFAULT_WEBHOOK_RETRY: RetryPolicy = { limit: 11, delaySeconds: 30 };
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
const RECENT_DELIVERIES = 50;
const MAX_URL_LENGTH = 2048;

// http only to this machine: anywhere else the payload and its signature would cross networks in clear.
const LOCAL_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

function acceptableUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOST.test(url.hostname));
}

export const webhookInputSchema = z.strictObject({
  url: z
    .string()
    .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
    .refine(acceptableUrl, 'must be an https URL (http only to localhost)')
    .describe('Where deliveries are POSTed: https, or http to localhost'),
  event_type: z
    .enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` })
    .describe('The event type delivered to this URL'),
});

export type WebhookInput = z.infer<typeof webhookInputSchema>;

/** The job that delivers one event to one webhook; the body is fixed when the event is published. */
const deliveryJobSchema = z.object({
  accountId: z.string(),
  webhookId: z.string(),
  deliveryId: z.string(),
  eventKey: z.string(),
  body: z.object({
    id: z.string(),
    type: z.enum(WEBHOOK_EVENT_TYPES),
    created_at: z.string(),
    data: z.record(z.string(), z.unknown()),
  }),
});

export type DeliveryJob = z.infer<typeof deliveryJobSchema>;

export interface WebhookView {
  id: string;
  url: string;
  event_type: string;
  created_at: string;
}

export interface VerifyResult extends WebhookView {
  success: boolean;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface WebhooksOptions {
  /** Where delivery jobs go; without a runner, publishing to a subscribed webhook fails. */
  jobs: JobSender;
  retry?: RetryPolicy;
  /** How long one attempt waits for the receiver's answer. */
  timeoutMs?: number;
  /** Which addresses deliveries may go to; private ones are refused by default. */
  policy?: OutboundPolicy;
  /** Where failures nobody awaits are told; the console by default. */
  report?: (error: unknown) => void;
}

/** Where the use cases that write records hand the events of a write, once it has committed. */
export interface RecordEventSink {
  publishRecordEvents(accountId: string, events: readonly RecordEvent[]): Promise<void>;
}

const view = (row: WebhookRow): WebhookView => ({
  id: row.id,
  url: row.url,
  event_type: row.event_type,
  created_at: row.created_at,
});

/**
 * Outbound webhooks: subscriptions, and one keyed delivery job per event and subscription,
 * retried with backoff and logged attempt by attempt (docs/webhooks.md).
 */
export function createWebhooksService(store: Store, clock: Clock, options: WebhooksOptions) {
  const retry = options.retry ?? DEFAULT_WEBHOOK_RETRY;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const policy = options.policy ?? STRICT_OUTBOUND;
  const report = options.report ?? ((error: unknown) => console.error('Webhook event not queued:', error));

  async function webhookOf(accountId: string, id: string): Promise<WebhookRow> {
    const row = isUuid(id) ? await store.webhooks.get(accountId, id) : undefined;
    if (!row) throw new NotFoundError(`Webhook ${id} not found`);
    return row;
  }

  /** Queues the event for every webhook of its account that subscribes to its type. */
  async function publishEvent(
    accountId: string,
    type: WebhookEventType,
    key: string,
    data: Record<string, unknown>,
  ) {
    const createdAt = clock.now().toISOString();
    for (const webhook of await store.webhooks.subscribed(accountId, type)) {
      const ref = { accountId, webhookId: webhook.id, deliveryId: hashedUuid(`${webhook.id}:${key}`) };
      const job: DeliveryJob = {
        ...ref,
        eventKey: key,
        body: { id: ref.deliveryId, type, created_at: createdAt, data },
      };
      // The job first: if the process ends in between, its run writes the delivery row itself.
      await options.jobs.send(WEBHOOK_DELIVERY_QUEUE, job, { key: `${webhook.id}:${key}` });
      await store.webhooks.addDelivery(ref, { key, type, createdAt });
    }
  }

  /** After attempt `n` failed: the earliest time of the next, or null when it was the last. */
  function nextAttemptAt(n: number, at: Date): string | null {
    if (n > retry.limit) return null;
    return new Date(at.getTime() + retry.delaySeconds * 1000 * 2 ** (n - 1)).toISOString();
  }

  const publisher: RevenueEventPublisher = {
    async publish(events: readonly RevenueEvent[]) {
      for (const event of events)
        await publishEvent(
          event.accountId,
          EVENT_TYPE_OF_KIND[event.kind],
          event.key,
          revenueEventData(event),
        );
    },
  };

  const recordEventSink: RecordEventSink = {
    /**
     * Queues the events of a committed write. A failure is reported, not thrown: the write the
     * client asked for is done, and failing its answer would only make it send the write again.
     */
    async publishRecordEvents(accountId, events) {
      try {
        for (const event of events) await publishEvent(accountId, event.type, event.key, event.data);
      } catch (error) {
        report(error);
      }
    },
  };

  return {
    retry,
    ...publisher,
    ...recordEventSink,

    async list(accountId: string): Promise<WebhookView[]> {
      return (await store.webhooks.list(accountId)).map(view);
    },

    /** The new webhook with its signing secret, which only this answer and `get` show. */
    async create(accountId: string, input: WebhookInput): Promise<WebhookView & { secret: string }> {
      const refusal = refusedUrl(input.url, policy);
      if (refusal !== null) throw new InvalidInputError(`Invalid body field "url": ${refusal}`);
      const result = await store.webhooks.insert(accountId, {
        id: randomUUID(),
        url: input.url,
        eventType: input.event_type,
        secret: newWebhookSecret(),
        createdAt: clock.now().toISOString(),
      });
      if ('existingId' in result)
        throw new WebhookExistsError(
          `A webhook for ${input.event_type} to this URL exists already`,
          result.existingId,
        );
      return { ...view(result.inserted), secret: result.inserted.secret };
    },

    async get(
      accountId: string,
      id: string,
    ): Promise<{ webhook: WebhookView; secret: string; deliveries: DeliveryRow[] }> {
      const row = await webhookOf(accountId, id);
      const deliveries = await store.webhooks.recentDeliveries(accountId, row.id, RECENT_DELIVERIES);
      return { webhook: view(row), secret: row.secret, deliveries };
    },

    async delete(accountId: string, id: string): Promise<void> {
      if (!isUuid(id) || !(await store.webhooks.delete(accountId, id)))
        throw new NotFoundError(`Webhook ${id} not found`);
    },

    sample(type: string): WebhookBody {
      if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type))
        throw new NotFoundError(`Unknown event type ${type}; one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
      const eventType = type as WebhookEventType;
      return {
        id: '00000000-0000-0000-0000-000000000000',
        type: eventType,
        created_at: clock.now().toISOString(),
        data: sampleData(eventType),
      };
    },

    /** Sends a test delivery (sample data, `test: true`) to each webhook, or the one named, now and once. */
    async verify(accountId: string, id?: string): Promise<VerifyResult[]> {
      const webhooks =
        id === undefined ? await store.webhooks.list(accountId) : [await webhookOf(accountId, id)];
      return Promise.all(
        webhooks.map(async (webhook) => {
          const at = clock.now();
          const type = webhook.event_type as WebhookEventType;
          const body = {
            id: randomUUID(),
            type,
            created_at: at.toISOString(),
            data: sampleData(type),
            test: true,
          };
          const outcome = await postSigned(webhook.url, webhook.secret, JSON.stringify(body), {
            at,
            timeoutMs,
            policy,
          });
          return {
            ...view(webhook),
            success: outcome.ok,
            status: outcome.status,
            error: outcome.error,
            duration_ms: outcome.durationMs,
          };
        }),
      );
    },

    /** A data source's import finished: `data_source.import_completed`, once per import run. */
    importCompleted(accountId: string, source: { id: string; name: string; type: string; runId: string }) {
      const data = importCompletedData({ ...source, finishedAt: clock.now().toISOString() });
      return publishEvent(
        accountId,
        'data_source.import_completed',
        `import:${source.id}:${source.runId}`,
        data,
      );
    },

    /**
     * The delivery job: one attempt, logged. A failed attempt throws, so the runner retries it;
     * a delivery whose webhook is gone, or that got through already, is done. A target the
     * outbound policy refuses makes the delivery dead at once: retrying would be refused too.
     */
    async deliver(payload: JobPayload): Promise<void> {
      const job = deliveryJobSchema.parse(payload);
      const ref: DeliveryRef = {
        accountId: job.accountId,
        webhookId: job.webhookId,
        deliveryId: job.deliveryId,
      };
      const webhook = await store.webhooks.get(job.accountId, job.webhookId);
      if (!webhook) return;
      const before = await store.webhooks.delivery(ref);
      if (before?.status === 'delivered') return;
      const n = (before?.attempts ?? 0) + 1;
      const at = clock.now();
      const outcome = await postSigned(webhook.url, webhook.secret, JSON.stringify(job.body), {
        at,
        timeoutMs,
        policy,
      });
      const next = outcome.ok || outcome.blocked ? null : nextAttemptAt(n, at);
      await store.webhooks.recordAttempt(ref, {
        eventKey: job.eventKey,
        eventType: job.body.type,
        at: at.toISOString(),
        status: outcome.status,
        response: outcome.response,
        error: outcome.error,
        durationMs: outcome.durationMs,
        outcome: outcome.ok ? 'delivered' : next === null ? 'dead' : 'pending',
        nextAttemptAt: next,
      });
      if (outcome.blocked) throw new FinalJobError(`Delivery to ${webhook.url} refused: ${outcome.error}`);
      if (!outcome.ok) throw new Error(`Delivery to ${webhook.url} failed: ${outcome.error}`);
    },
  };
}

/** A 409 that names the webhook already there. */
export class WebhookExistsError extends ConflictError {
  override name = 'WebhookExistsError';
  constructor(
    message: string,
    readonly existingId: string,
  ) {
    super(message);
  }
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
