import type { Queryable } from './db.js';

export const IMPORT_STATES = ['running', 'done', 'aborted', 'error'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

export interface ImportRow {
  account_id: string;
  data_source_id: string;
  run_id: string;
  state: ImportState;
  kind_index: number;
  kind_count: number;
  cursor: string | null;
  fetched: number;
  stored: number;
  refused: number;
  started_at: string;
  last_activity_at: string;
  finished_at: string | null;
  last_error: string | null;
  /** Where the change feed was read up to; null for a connector without one. */
  change_cursor: string | null;
  caught_up_at: string | null;
}

/** Where an import stands after a page: the kind it reads and the system's cursor inside it. */
export interface Checkpoint {
  kindIndex: number;
  cursor: string | null;
  fetched: number;
  stored: number;
  refused: number;
  /** Why an item of the page was refused, kept as the import's last error. */
  refusal: string | null;
}

const COLUMNS = `account_id, data_source_id, run_id, state, kind_index, kind_count, cursor, fetched, stored,
  refused, started_at, last_activity_at, finished_at, last_error, change_cursor, caught_up_at`;

export function connectorImportsRepo(db: Queryable) {
  return {
    async get(
      accountId: string,
      dataSourceId: string,
      options: { forUpdate?: boolean } = {},
    ): Promise<ImportRow | undefined> {
      const [row] = await db.query<ImportRow>(
        `select ${COLUMNS} from connector_imports where account_id = $1 and data_source_id = $2
         ${options.forUpdate ? 'for update' : ''}`,
        [accountId, dataSourceId],
      );
      return row;
    },

    /** Starts a run from the first kind, replacing whatever run the source had. */
    async start(run: {
      accountId: string;
      dataSourceId: string;
      runId: string;
      kindCount: number;
      /** The change feed's end when the import starts: the catch-up reads on from there. */
      changeCursor?: string | null;
      now: string;
    }): Promise<ImportRow> {
      const [row] = await db.query<ImportRow>(
        `insert into connector_imports (account_id, data_source_id, run_id, state, kind_count, started_at,
           last_activity_at, change_cursor)
         values ($1, $2, $3, 'running', $4, $5, $5, $6)
         on conflict (account_id, data_source_id) do update set
           run_id = excluded.run_id, state = 'running', kind_index = 0, kind_count = excluded.kind_count,
           cursor = null, fetched = 0, stored = 0, refused = 0, started_at = excluded.started_at,
           last_activity_at = excluded.last_activity_at, finished_at = null, last_error = null,
           change_cursor = excluded.change_cursor, caught_up_at = null
         returning ${COLUMNS}`,
        [run.accountId, run.dataSourceId, run.runId, run.kindCount, run.now, run.changeCursor ?? null],
      );
      return row!;
    },

    /** Records a page's progress; false when the run is no longer the running one. */
    async checkpoint(
      accountId: string,
      dataSourceId: string,
      runId: string,
      checkpoint: Checkpoint,
      now: string,
    ): Promise<boolean> {
      const rows = await db.query(
        `update connector_imports set kind_index = $4, cursor = $5, fetched = fetched + $6,
           stored = stored + $7, refused = refused + $8, last_activity_at = $9,
           last_error = coalesce($10, last_error)
         where account_id = $1 and data_source_id = $2 and run_id = $3 and state = 'running'
         returning run_id`,
        [
          accountId,
          dataSourceId,
          runId,
          checkpoint.kindIndex,
          checkpoint.cursor,
          checkpoint.fetched,
          checkpoint.stored,
          checkpoint.refused,
          now,
          checkpoint.refusal,
        ],
      );
      return rows.length > 0;
    },

    /** Ends a run if it is still running; `runId` undefined ends whichever run is. */
    async finish(
      accountId: string,
      dataSourceId: string,
      end: { runId?: string; state: Exclude<ImportState, 'running'>; error?: string; now: string },
    ): Promise<boolean> {
      const rows = await db.query(
        `update connector_imports set state = $4, last_error = coalesce($5, last_error), finished_at = $6,
           last_activity_at = $6
         where account_id = $1 and data_source_id = $2 and ($3::uuid is null or run_id = $3) and state = 'running'
         returning run_id`,
        [accountId, dataSourceId, end.runId ?? null, end.state, end.error ?? null, end.now],
      );
      return rows.length > 0;
    },

    async delete(accountId: string, dataSourceId: string): Promise<void> {
      await db.query('delete from connector_imports where account_id = $1 and data_source_id = $2', [
        accountId,
        dataSourceId,
      ]);
    },

    /** Runs left running by a process that stopped: every account's, for the start-up resume. */
    listRunning(): Promise<ImportRow[]> {
      return db.query<ImportRow>(
        `select ${COLUMNS} from connector_imports where state = 'running' order by started_at`,
      );
    },

    /**
     * Finished imports of connected sources, every account's: what the periodic catch-up reads
     * the change feed of.
     */
    listCatchUp(): Promise<ImportRow[]> {
      return db.query<ImportRow>(
        `select ${COLUMNS.replace(/(\w+)/g, 'i.$1')} from connector_imports i
         join connector_secrets s on s.account_id = i.account_id and s.data_source_id = i.data_source_id
         where i.state = 'done' order by i.account_id, i.data_source_id`,
      );
    },

    /**
     * Moves the change cursor after a catch-up read, if the run it was read for is still the
     * source's finished import; false when an import started meanwhile (its own cursor stays).
     */
    async saveChangeCursor(
      accountId: string,
      dataSourceId: string,
      runId: string,
      cursor: string,
      now: string,
    ): Promise<boolean> {
      const rows = await db.query(
        `update connector_imports set change_cursor = $4, caught_up_at = $5
         where account_id = $1 and data_source_id = $2 and run_id = $3 and state = 'done'
         returning run_id`,
        [accountId, dataSourceId, runId, cursor, now],
      );
      return rows.length > 0;
    },

    /** Keeps why a catch-up (or anything after the run) failed as the source's last error. */
    async noteError(accountId: string, dataSourceId: string, runId: string, error: string): Promise<void> {
      await db.query(
        `update connector_imports set last_error = $4
         where account_id = $1 and data_source_id = $2 and run_id = $3`,
        [accountId, dataSourceId, runId, error],
      );
    },

    /** Forgets the credentials and the webhook secret: the source is no longer connected. */
    async deleteSecret(accountId: string, dataSourceId: string): Promise<void> {
      await db.query('delete from connector_secrets where account_id = $1 and data_source_id = $2', [
        accountId,
        dataSourceId,
      ]);
    },

    /** Saves the API key and the webhook secret (kept when none is given). */
    async saveSecret(
      accountId: string,
      dataSourceId: string,
      sealed: string,
      webhookSealed: string | null = null,
    ): Promise<void> {
      await db.query(
        `insert into connector_secrets (account_id, data_source_id, sealed, webhook_sealed) values ($1, $2, $3, $4)
         on conflict (account_id, data_source_id) do update set sealed = excluded.sealed,
           webhook_sealed = coalesce(excluded.webhook_sealed, connector_secrets.webhook_sealed), created_at = now()`,
        [accountId, dataSourceId, sealed, webhookSealed],
      );
    },

    async secret(accountId: string, dataSourceId: string): Promise<string | undefined> {
      const [row] = await db.query<{ sealed: string }>(
        'select sealed from connector_secrets where account_id = $1 and data_source_id = $2',
        [accountId, dataSourceId],
      );
      return row?.sealed;
    },

    async webhookSecret(accountId: string, dataSourceId: string): Promise<string | undefined> {
      const [row] = await db.query<{ webhook_sealed: string | null }>(
        'select webhook_sealed from connector_secrets where account_id = $1 and data_source_id = $2',
        [accountId, dataSourceId],
      );
      return row?.webhook_sealed ?? undefined;
    },

    /** Notes an event as applied; false when it already was. */
    async recordEvent(accountId: string, dataSourceId: string, eventId: string): Promise<boolean> {
      const rows = await db.query(
        `insert into connector_events (account_id, data_source_id, event_id) values ($1, $2, $3)
         on conflict do nothing returning event_id`,
        [accountId, dataSourceId, eventId],
      );
      return rows.length > 0;
    },
  };
}
