import type { Queryable } from './db.js';

export interface WebhookRow {
  id: string;
  url: string;
  event_type: string;
  secret: string;
  created_at: string;
}

export interface DeliveryRow {
  id: string;
  event_key: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'dead';
  attempts: number;
  last_status: number | null;
  last_response: string | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  created_at: string;
}

export interface DeliveryRef {
  accountId: string;
  webhookId: string;
  deliveryId: string;
}

/** One attempt's outcome, and what the delivery is after it. */
export interface AttemptRecord {
  eventKey: string;
  eventType: string;
  at: string;
  status: number | null;
  response: string | null;
  error: string | null;
  durationMs: number;
  outcome: DeliveryRow['status'];
  nextAttemptAt: string | null;
}

const WEBHOOK_COLUMNS = 'webhook_id as id, url, event_type, secret, created_at';
const DELIVERY_COLUMNS = `delivery_id as id, event_key, event_type, status, attempts, last_status, last_response,
  last_error, last_attempt_at, next_attempt_at, created_at`;

export function webhooksRepo(db: Queryable) {
  return {
    async list(accountId: string): Promise<WebhookRow[]> {
      return db.query<WebhookRow>(
        `select ${WEBHOOK_COLUMNS} from webhooks where account_id = $1 order by created_at, webhook_id`,
        [accountId],
      );
    },

    async get(accountId: string, webhookId: string): Promise<WebhookRow | undefined> {
      const [row] = await db.query<WebhookRow>(
        `select ${WEBHOOK_COLUMNS} from webhooks where account_id = $1 and webhook_id = $2`,
        [accountId, webhookId],
      );
      return row;
    },

    async subscribed(accountId: string, eventType: string): Promise<WebhookRow[]> {
      return db.query<WebhookRow>(
        `select ${WEBHOOK_COLUMNS} from webhooks where account_id = $1 and event_type = $2`,
        [accountId, eventType],
      );
    },

    /** Inserts the webhook, or answers the id of the one with the same URL and event type. */
    async insert(
      accountId: string,
      webhook: { id: string; url: string; eventType: string; secret: string; createdAt: string },
    ): Promise<{ inserted: WebhookRow } | { existingId: string }> {
      const [inserted] = await db.query<WebhookRow>(
        `insert into webhooks (account_id, webhook_id, url, event_type, secret, created_at)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (account_id, url, event_type) do nothing
         returning ${WEBHOOK_COLUMNS}`,
        [accountId, webhook.id, webhook.url, webhook.eventType, webhook.secret, webhook.createdAt],
      );
      if (inserted) return { inserted };
      const [existing] = await db.query<{ id: string }>(
        'select webhook_id as id from webhooks where account_id = $1 and url = $2 and event_type = $3',
        [accountId, webhook.url, webhook.eventType],
      );
      return { existingId: existing!.id };
    },

    /** Removes the webhook with its deliveries; false if there was none. */
    async delete(accountId: string, webhookId: string): Promise<boolean> {
      const rows = await db.query(
        'delete from webhooks where account_id = $1 and webhook_id = $2 returning 1',
        [accountId, webhookId],
      );
      return rows.length > 0;
    },

    /** A delivery waiting for its first attempt; nothing if the event was already given to the webhook. */
    async addDelivery(
      ref: DeliveryRef,
      event: { key: string; type: string; createdAt: string },
    ): Promise<void> {
      await db.query(
        `insert into webhook_deliveries (account_id, webhook_id, delivery_id, event_key, event_type, created_at)
         values ($1, $2, $3, $4, $5, $6)
         on conflict do nothing`,
        [ref.accountId, ref.webhookId, ref.deliveryId, event.key, event.type, event.createdAt],
      );
    },

    async delivery(ref: DeliveryRef): Promise<DeliveryRow | undefined> {
      const [row] = await db.query<DeliveryRow>(
        `select ${DELIVERY_COLUMNS} from webhook_deliveries
         where account_id = $1 and webhook_id = $2 and delivery_id = $3`,
        [ref.accountId, ref.webhookId, ref.deliveryId],
      );
      return row;
    },

    async recentDeliveries(accountId: string, webhookId: string, limit: number): Promise<DeliveryRow[]> {
      return db.query<DeliveryRow>(
        `select ${DELIVERY_COLUMNS} from webhook_deliveries where account_id = $1 and webhook_id = $2
         order by created_at desc, delivery_id limit $3`,
        [accountId, webhookId, limit],
      );
    },

    /**
     * Logs one attempt and moves the delivery to its outcome; the delivery row is made if its
     * job ran before it was written. Answers the attempt's number.
     */
    async recordAttempt(ref: DeliveryRef, attempt: AttemptRecord): Promise<number> {
      const [row] = await db.query<{ attempts: number }>(
        `insert into webhook_deliveries (account_id, webhook_id, delivery_id, event_key, event_type, status, attempts,
           last_status, last_response, last_error, last_attempt_at, next_attempt_at, created_at)
         values ($1, $2, $3, $4, $5, $6, 1, $7, $8, $9, $10, $11, $10)
         on conflict (account_id, webhook_id, delivery_id) do update set
           status = excluded.status, attempts = webhook_deliveries.attempts + 1,
           last_status = excluded.last_status, last_response = excluded.last_response,
           last_error = excluded.last_error, last_attempt_at = excluded.last_attempt_at,
           next_attempt_at = excluded.next_attempt_at
         returning attempts`,
        [
          ref.accountId,
          ref.webhookId,
          ref.deliveryId,
          attempt.eventKey,
          attempt.eventType,
          attempt.outcome,
          attempt.status,
          attempt.response,
          attempt.error,
          attempt.at,
          attempt.nextAttemptAt,
        ],
      );
      const number = row!.attempts;
      await db.query(
        `insert into webhook_attempts (account_id, webhook_id, delivery_id, attempt, attempted_at, status, error, duration_ms)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          ref.accountId,
          ref.webhookId,
          ref.deliveryId,
          number,
          attempt.at,
          attempt.status,
          attempt.error,
          attempt.durationMs,
        ],
      );
      return number;
    },

    async attempts(
      ref: DeliveryRef,
    ): Promise<{ attempt: number; status: number | null; error: string | null }[]> {
      return db.query(
        `select attempt, status, error from webhook_attempts
         where account_id = $1 and webhook_id = $2 and delivery_id = $3 order by attempt`,
        [ref.accountId, ref.webhookId, ref.deliveryId],
      );
    },
  };
}
