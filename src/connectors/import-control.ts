import { randomUUID } from 'node:crypto';
import type { Clock } from '../services/clock.js';
import type { ConnectorPages, ImportRun } from '../services/connector-pages.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../services/errors.js';
import type { SecretBox } from '../services/secret-box.js';
import type { ImportRow } from '../store/connector-imports-repo.js';
import type { DataSourceRow } from '../store/data-sources-repo.js';
import type { Store } from '../store/open-store.js';
import { locateRecord } from '../services/record-sources.js';
import type {
  Connector,
  ConnectorCredentials,
  ConnectorRegistry,
  ConnectorSession,
  WebhookHeaders,
} from './connector.js';
import { type RunEnd, runImport, type RunPosition } from './import-runner.js';

export const IMPORT_PHASES = ['idle', 'processing', 'done', 'aborted', 'error'] as const;

/** `GET /data/data-sources/{id}/progress`: the reference's fields, plus percent, end and last error. */
export interface ImportProgress {
  phase: (typeof IMPORT_PHASES)[number];
  enqueuedCount: number;
  processedCount: number;
  failedCount: number;
  percent: number;
  startedAt: string | null;
  lastActivityAt: string | null;
  finishedAt: string | null;
  lastError: string | null;
}

const PHASE = { running: 'processing', done: 'done', aborted: 'aborted', error: 'error' } as const;

function progressOf(row: ImportRow | undefined): ImportProgress {
  if (!row) {
    return {
      phase: 'idle',
      enqueuedCount: 0,
      processedCount: 0,
      failedCount: 0,
      percent: 0,
      startedAt: null,
      lastActivityAt: null,
      finishedAt: null,
      lastError: null,
    };
  }
  return {
    phase: PHASE[row.state],
    enqueuedCount: row.fetched,
    processedCount: row.stored,
    failedCount: row.refused,
    // The systems do not say how many objects a list holds, so progress is counted in kinds.
    percent: row.state === 'done' ? 100 : Math.floor((100 * row.kind_index) / row.kind_count),
    startedAt: row.started_at,
    lastActivityAt: row.last_activity_at,
    finishedAt: row.finished_at,
    lastError: row.last_error,
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface Task {
  runId: string;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Starts, resumes, aborts and resets connector imports. An import runs as an async task in
 * this process (there is no job runner yet); its checkpoint is in the store, so the imports a
 * stopped process left running are resumed by `resumeRunning` at the next start.
 */
export function createImportControl(deps: {
  store: Store;
  clock: Clock;
  connectors: ConnectorRegistry;
  secrets: SecretBox;
  pages: ConnectorPages;
}) {
  const { store, clock, connectors, secrets, pages } = deps;
  const tasks = new Map<string, Task>();
  const taskKey = (accountId: string, dataSourceId: string) => `${accountId}/${dataSourceId}`;
  const now = () => clock.now().toISOString();

  async function sourceOf(accountId: string, dataSourceId: string): Promise<DataSourceRow> {
    const source = await store.dataSources.get(accountId, dataSourceId);
    if (!source) throw new NotFoundError(`Data source ${dataSourceId} not found`);
    return source;
  }

  function connectorOf(source: DataSourceRow): Connector {
    const connector = connectors.get(source.type);
    if (!connector)
      throw new ConflictError(`Data sources of type ${source.type} have no connector to import with`);
    return connector;
  }

  async function sessionOf(accountId: string, source: DataSourceRow): Promise<ConnectorSession> {
    const connector = connectorOf(source);
    const sealed = await store.connectorImports.secret(accountId, source.id);
    if (sealed === undefined) throw new ConflictError(`Data source ${source.id} is not connected`);
    return connector.open(JSON.parse(secrets.open(sealed)) as ConnectorCredentials);
  }

  async function settle(run: ImportRun, outcome: Promise<RunEnd>): Promise<void> {
    const { accountId, dataSourceId, runId } = run;
    try {
      if ((await outcome) === 'stopped') return;
      await store.transaction(async (tx) => {
        if (await tx.connectorImports.finish(accountId, dataSourceId, { runId, state: 'done', now: now() }))
          await tx.dataSources.saveSync(accountId, dataSourceId, { status: 'complete', at: now() });
      });
    } catch (error) {
      await store.transaction(async (tx) => {
        const state = { runId, state: 'error' as const, error: message(error), now: now() };
        if (await tx.connectorImports.finish(accountId, dataSourceId, state))
          await tx.dataSources.saveSync(accountId, dataSourceId, { status: 'error', at: null });
      });
    }
  }

  function launch(session: ConnectorSession, run: ImportRun, position: RunPosition): void {
    const key = taskKey(run.accountId, run.dataSourceId);
    tasks.get(key)?.controller.abort();
    const controller = new AbortController();
    const done = settle(run, runImport(session, pages, run, position, controller.signal))
      // A store that fails while the error is written leaves the run `running`, to be resumed.
      .catch(() => {})
      .finally(() => {
        if (tasks.get(key)?.runId === run.runId) tasks.delete(key);
      });
    tasks.set(key, { runId: run.runId, controller, done });
  }

  /**
   * Signals the source's task to stop and does not wait for it: the page it may be reading
   * is refused by the store, since the run is no longer the running one.
   */
  function stopTask(accountId: string, dataSourceId: string): void {
    tasks.get(taskKey(accountId, dataSourceId))?.controller.abort();
  }

  async function start(accountId: string, source: DataSourceRow, session: ConnectorSession): Promise<void> {
    const runId = randomUUID();
    await store.transaction(async (tx) => {
      const current = await tx.connectorImports.get(accountId, source.id, { forUpdate: true });
      if (current?.state === 'running')
        throw new ConflictError('An import of this data source is already running');
      await tx.connectorImports.start({
        accountId,
        dataSourceId: source.id,
        runId,
        kindCount: session.kinds.length,
        now: now(),
      });
      await tx.dataSources.saveSync(accountId, source.id, { status: 'syncing', at: null });
    });
    launch(session, { accountId, dataSourceId: source.id, runId }, { kindIndex: 0, cursor: null });
  }

  return {
    /**
     * Connects a source by an API key (and site, for the systems that need one): the key is
     * checked with the system, sealed and stored, and a full import starts. Neither the key nor
     * the webhook secret is ever returned.
     */
    async connectByKey(
      accountId: string,
      dataSourceId: string,
      credentials: ConnectorCredentials,
      webhookSecret?: string,
    ): Promise<void> {
      const source = await sourceOf(accountId, dataSourceId);
      const connector = connectorOf(source);
      if (connector.needsSite !== (credentials.site !== undefined))
        throw new InvalidInputError(
          connector.needsSite
            ? `site is required to connect ${connector.system}`
            : `site is not used by ${connector.system}`,
        );
      const sealed = secrets.seal(JSON.stringify(credentials));
      const webhookSealed = webhookSecret === undefined ? null : secrets.seal(webhookSecret);
      const session = connector.open(credentials);
      let external;
      try {
        external = await session.account();
      } catch (error) {
        throw new InvalidInputError(`${connector.system} refused the key: ${message(error)}`);
      }
      stopTask(accountId, dataSourceId);
      await store.transaction(async (tx) => {
        await tx.connectorImports.saveSecret(accountId, dataSourceId, sealed, webhookSealed);
        await tx.dataSources.saveConnection(accountId, dataSourceId, { ...external, connectedAt: now() });
        await tx.connectorImports.finish(accountId, dataSourceId, { state: 'aborted', now: now() });
      });
      await start(accountId, source, session);
    },

    async progress(accountId: string, dataSourceId: string): Promise<ImportProgress> {
      await sourceOf(accountId, dataSourceId);
      return progressOf(await store.connectorImports.get(accountId, dataSourceId));
    },

    async fullImport(accountId: string, dataSourceId: string): Promise<void> {
      const source = await sourceOf(accountId, dataSourceId);
      await start(accountId, source, await sessionOf(accountId, source));
    },

    async abort(accountId: string, dataSourceId: string): Promise<void> {
      await sourceOf(accountId, dataSourceId);
      const aborted = await store.transaction(async (tx) => {
        const stopped = await tx.connectorImports.finish(accountId, dataSourceId, {
          state: 'aborted',
          now: now(),
        });
        if (stopped) await tx.dataSources.saveSync(accountId, dataSourceId, { status: 'error', at: null });
        return stopped;
      });
      if (!aborted) throw new ConflictError('No import of this data source is running');
      stopTask(accountId, dataSourceId);
    },

    /** Stops any import, deletes the source's records and forgets its sync state; the connection stays. */
    async reset(accountId: string, dataSourceId: string): Promise<void> {
      await sourceOf(accountId, dataSourceId);
      await store.transaction(async (tx) => {
        await tx.connectorImports.delete(accountId, dataSourceId);
        await tx.changes.markCustomersOfSource(accountId, dataSourceId);
        await tx.dataSources.deleteRecords(accountId, dataSourceId);
        await tx.dataSources.clearSync(accountId, dataSourceId);
        await tx.changes.bumpDataVersion(accountId);
      });
      stopTask(accountId, dataSourceId);
    },

    /**
     * Re-imports one customer from its billing system when its source has a connector and is
     * connected; false when there is nothing to re-import from.
     */
    async resyncCustomer(accountId: string, customerId: string, dataSource?: string): Promise<boolean> {
      const dataSourceId = await store.transaction((tx) =>
        locateRecord(tx, 'customers', 'Customer', accountId, customerId, dataSource),
      );
      const source = await sourceOf(accountId, dataSourceId);
      if (!connectors.has(source.type)) return false;
      if ((await store.connectorImports.secret(accountId, source.id)) === undefined) return false;
      const records = await (await sessionOf(accountId, source)).customerRecords?.(customerId);
      if (!records) return false;
      await pages.writeCustomer(accountId, source.id, records);
      return true;
    },

    /**
     * A webhook delivery: the signature is checked, then the customer the event concerns is
     * read again from the system and stored, with the event id noted in the same transaction.
     * Reading the current state rather than applying the event's copy makes any order of
     * deliveries end the same, and a repeated event id is not applied again.
     */
    async receiveEvent(
      accountId: string,
      dataSourceId: string,
      type: string,
      payload: string,
      headers: WebhookHeaders,
    ): Promise<'applied' | 'duplicate' | 'ignored'> {
      const source = await sourceOf(accountId, dataSourceId);
      if (source.type !== type) throw new NotFoundError(`Data source ${dataSourceId} is not of type ${type}`);
      const connector = connectorOf(source);
      const sealed = await store.connectorImports.webhookSecret(accountId, source.id);
      if (sealed === undefined || !connector.readEvent)
        throw new NotFoundError(`Data source ${dataSourceId} takes no webhooks`);
      let event;
      try {
        event = connector.readEvent(payload, headers, secrets.open(sealed));
      } catch {
        throw new InvalidInputError('Invalid webhook signature');
      }
      const records =
        event.customerId === null
          ? undefined
          : await (await sessionOf(accountId, source)).customerRecords?.(event.customerId);
      const written = await pages.writeCustomer(accountId, source.id, records || {}, event.id);
      if (written === false) return 'duplicate';
      return records ? 'applied' : 'ignored';
    },

    /** At start: every run a stopped process left running goes on from its last stored page. */
    async resumeRunning(): Promise<number> {
      const running = await store.connectorImports.listRunning();
      for (const row of running) {
        const run = { accountId: row.account_id, dataSourceId: row.data_source_id, runId: row.run_id };
        try {
          const source = await sourceOf(run.accountId, run.dataSourceId);
          launch(await sessionOf(run.accountId, source), run, {
            kindIndex: row.kind_index,
            cursor: row.cursor,
          });
        } catch (error) {
          await settle(run, Promise.reject(error instanceof Error ? error : new Error(message(error))));
        }
      }
      return running.length;
    },

    /** Resolves when the source's import task, if any, has ended (tests and shutdown). */
    settled(accountId: string, dataSourceId: string): Promise<void> {
      return tasks.get(taskKey(accountId, dataSourceId))?.done ?? Promise.resolve();
    },

    /** Stops every task without marking it: the runs stay `running` and resume at the next start. */
    async close(): Promise<void> {
      const all = [...tasks.values()];
      for (const task of all) task.controller.abort();
      await Promise.all(all.map((task) => task.done));
    },
  };
}

export type ImportControl = ReturnType<typeof createImportControl>;
