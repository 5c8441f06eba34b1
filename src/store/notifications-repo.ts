import type { Queryable } from './db.js';

/** One detected revenue event as stored: the event itself is opaque JSON to the store. */
export interface RevenueEventRow {
  key: string;
  dataSourceId: string;
  kind: string;
  /** YYYY-MM-DD */
  occurredOn: string;
  event: unknown;
  published: boolean;
}

/** What notifications remember: events told once, sources watched, messages sent once. */
export function notificationsRepo(db: Queryable) {
  return {
    /**
     * Records the day each source was first seen, leaving days already recorded as they are,
     * and answers every given source's recorded day.
     */
    async watchSources(accountId: string, dataSourceIds: readonly string[], day: string) {
      if (dataSourceIds.length === 0) return new Map<string, string>();
      await db.query(
        `insert into notification_sources (account_id, data_source_id, watched_since)
         select $1::uuid, s, $3::date from unnest($2::uuid[]) as s
         on conflict do nothing`,
        [accountId, dataSourceIds, day],
      );
      const rows = await db.query<{ data_source_id: string; watched_since: string }>(
        `select data_source_id, watched_since from notification_sources
         where account_id = $1 and data_source_id = any($2::uuid[])`,
        [accountId, dataSourceIds],
      );
      return new Map(rows.map((row) => [row.data_source_id, row.watched_since]));
    },

    /** Inserts the events not recorded yet; one recorded before stays as it was. */
    async insertEvents(accountId: string, events: readonly RevenueEventRow[], at: Date): Promise<void> {
      if (events.length === 0) return;
      await db.query(
        `insert into revenue_events
           (account_id, event_key, data_source_id, kind, occurred_on, event, published, detected_at)
         select $1::uuid, e.key, e."dataSourceId", e.kind, e."occurredOn", e.event, e.published, $3
         from json_to_recordset($2::json)
           as e(key text, "dataSourceId" uuid, kind text, "occurredOn" date, event jsonb, published boolean)
         on conflict do nothing`,
        [accountId, JSON.stringify(events), at.toISOString()],
      );
    },

    /** Events to publish that no detection has finished publishing yet, oldest first. */
    async untold(accountId: string, limit: number): Promise<unknown[]> {
      const rows = await db.query<{ event: unknown }>(
        `select event from revenue_events
         where account_id = $1 and published and told_at is null
         order by occurred_on, event_key limit $2`,
        [accountId, limit],
      );
      return rows.map((row) => row.event);
    },

    async markTold(accountId: string, keys: readonly string[], at: Date): Promise<void> {
      if (keys.length === 0) return;
      await db.query(
        `update revenue_events set told_at = $3
         where account_id = $1 and event_key = any($2::text[]) and told_at is null`,
        [accountId, keys, at.toISOString()],
      );
    },

    /** The data version detection last ran on, 0 before the first. */
    async detectedVersion(accountId: string): Promise<number> {
      const [row] = await db.query<{ detected_version: string | number }>(
        'select detected_version from notification_state where account_id = $1',
        [accountId],
      );
      return row === undefined ? 0 : Number(row.detected_version);
    },

    /** The account's recorded events, newest first: for tests and a later read route. */
    async events(accountId: string, limit: number): Promise<RevenueEventRow[]> {
      return db.query<RevenueEventRow>(
        `select event_key as key, data_source_id as "dataSourceId", kind,
                to_char(occurred_on, 'YYYY-MM-DD') as "occurredOn", event, published
         from revenue_events where account_id = $1
         order by occurred_on desc, event_key limit $2`,
        [accountId, limit],
      );
    },

    /**
     * Records a one-time message as sent; false when it was recorded before. See send-claims.ts
     * for when: with its send, never before it.
     */
    async claimSend(accountId: string, key: string, at: Date): Promise<boolean> {
      const rows = await db.query(
        `insert into notification_sends (account_id, send_key, sent_at) values ($1, $2, $3)
         on conflict do nothing returning send_key`,
        [accountId, key, at.toISOString()],
      );
      return rows.length === 1;
    },

    async wasSent(accountId: string, key: string): Promise<boolean> {
      const rows = await db.query(
        'select 1 from notification_sends where account_id = $1 and send_key = $2',
        [accountId, key],
      );
      return rows.length === 1;
    },

    async setDetectedVersion(accountId: string, version: number): Promise<void> {
      await db.query(
        `insert into notification_state (account_id, detected_version) values ($1, $2)
         on conflict (account_id) do update
           set detected_version = greatest(notification_state.detected_version, excluded.detected_version)`,
        [accountId, version],
      );
    },

    /** Accounts whose data changed since detection last ran on them. */
    async changedAccounts(): Promise<string[]> {
      const rows = await db.query<{ account_id: string }>(
        `select d.account_id from account_data_state d
         left join notification_state n on n.account_id = d.account_id
         where d.data_version > coalesce(n.detected_version, 0)
         order by d.account_id`,
      );
      return rows.map((row) => row.account_id);
    },
  };
}

export type NotificationsRepo = ReturnType<typeof notificationsRepo>;
