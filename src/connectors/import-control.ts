import { randomUUID } from 'node:crypto';
import type { Clock } from '../services/clock.js';
import type { ConnectorPages, ImportRun, RecordsPage } from '../services/connector-pages.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../services/errors.js';
import type { SecretBox } from '../services/secret-box.js';
import type { ImportRow } from '../store/connector-imports-repo.js';
import type { DataSourceRow } from '../store/data-sources-repo.js';
import type { Repos, Store } from '../store/open-store.js';
import { locateRecord } from '../services/record-sources.js';
import {
  type Connector,
  type ConnectorCredentials,
  type ConnectorRegistry,
  type ConnectorSession,
  CursorLostError,
  type WebhookHeaders,
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
  /**
   * Absent before the first import: the reference types them as strings and does not require
   * them (docs/decisions.md, "Import progress before the first import").
   */
  startedAt?: string;
  lastActivityAt?: string;
  finishedAt: string | null;
  lastError: string | null;
}

/** What one catch-up pass did: the sources it read the feed of, and how many of them failed. */
export interface CatchUpOutcome {
  sources: number;
  failed: number;
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
  /** Told after an import finished and was recorded (outbound webhooks). */
  onImportCompleted?: (
    accountId: string,
    source: { id: string; name: string; type: string; runId: string },
  ) => Promise<void>;
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

  /** The import is recorded as done whatever its announcement does: a failure there is only logged. */
  async function announceCompleted({ accountId, dataSourceId, runId }: ImportRun): Promise<void> {
    if (!deps.onImportCompleted) return;
    try {
      const source = await sourceOf(accountId, dataSourceId);
      await deps.onImportCompleted(accountId, { id: source.id, name: source.name, type: source.type, runId });
    } catch (error) {
      console.error(
        `Import of data source ${dataSourceId} finished, but its webhooks were not queued:`,
        error,
      );
    }
  }

  async function settle(run: ImportRun, outcome: Promise<RunEnd>): Promise<void> {
    const { accountId, dataSourceId, runId } = run;
    try {
      if ((await outcome) === 'stopped') return;
      const finished = await store.transaction(async (tx) => {
        if (
          !(await tx.connectorImports.finish(accountId, dataSourceId, { runId, state: 'done', now: now() }))
        )
          return false;
        await tx.dataSources.saveSync(accountId, dataSourceId, { status: 'complete', at: now() });
        return true;
      });
      if (finished) await announceCompleted(run);
    } catch (error) {
      await store.transaction(async (tx) => {
        const state = { runId, state: 'error' as const, error: message(error), now: now() };
        if (await tx.connectorImports.finish(accountId, dataSourceId, state))
          await tx.dataSources.saveSync(accountId, dataSourceId, { status: 'error', at: null });
      });
    }
  }

  /**
   * Runs the import from `position`, then re-reads each customer with a record its read no longer
   * names: an item removed at the system since an earlier import keeps its stored record, which
   * the pages never rewrite; re-reading the customer ends it by the removed-items rule.
   */
  async function importAndRecheck(
    session: ConnectorSession,
    run: ImportRun,
    position: RunPosition,
    signal: AbortSignal,
  ): Promise<RunEnd> {
    const end = await runImport(session, pages, run, position, signal);
    if (end === 'stopped' || !session.customerRecords) return end;
    for (const customerId of await pages.lapsedCustomers(run.accountId, run.dataSourceId)) {
      if (signal.aborted) return 'stopped';
      await refreshCustomer(run.accountId, run.dataSourceId, session, customerId);
    }
    return end;
  }

  function launch(session: ConnectorSession, run: ImportRun, position: RunPosition): void {
    const key = taskKey(run.accountId, run.dataSourceId);
    tasks.get(key)?.controller.abort();
    const controller = new AbortController();
    const done = settle(run, importAndRecheck(session, run, position, controller.signal))
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

  async function start(accountId: string, source: DataSourceRow, session: ConnectorSession): Promise<string> {
    const runId = randomUUID();
    // Before the first page is read: whatever changes from here on is caught up after the import.
    const changeCursor = session.changes ? (await session.changes(null)).cursor : null;
    await store.transaction(async (tx) => {
      const current = await tx.connectorImports.get(accountId, source.id, { forUpdate: true });
      if (current?.state === 'running')
        throw new ConflictError('An import of this data source is already running');
      await tx.connectorImports.start({
        accountId,
        dataSourceId: source.id,
        runId,
        kindCount: session.kinds.length,
        changeCursor,
        now: now(),
      });
      await tx.dataSources.saveSync(accountId, source.id, { status: 'syncing', at: null });
    });
    launch(session, { accountId, dataSourceId: source.id, runId }, { kindIndex: 0, cursor: null });
    return runId;
  }

  /**
   * Checks the credentials with the system, seals and stores them with the account they belong
   * to, and starts a full import.
   */
  async function connect(
    accountId: string,
    source: DataSourceRow,
    credentials: ConnectorCredentials,
    webhookSealed: string | null,
  ): Promise<void> {
    const connector = connectorOf(source);
    const sealed = secrets.seal(JSON.stringify(credentials));
    const session = connector.open(credentials);
    let external;
    try {
      external = await session.account();
    } catch (error) {
      throw new InvalidInputError(`${connector.system} refused the key: ${message(error)}`);
    }
    stopTask(accountId, source.id);
    await store.transaction(async (tx) => {
      await tx.connectorImports.saveSecret(accountId, source.id, sealed, webhookSealed);
      await tx.dataSources.saveConnection(accountId, source.id, { ...external, connectedAt: now() });
      await tx.connectorImports.finish(accountId, source.id, { state: 'aborted', now: now() });
    });
    await start(accountId, source, session);
  }

  /** Forgets the credentials and webhook secret and stops any import; the records stay. */
  async function forget(accountId: string, dataSourceId: string, tx: Repos): Promise<void> {
    await tx.connectorImports.deleteSecret(accountId, dataSourceId);
    await tx.dataSources.clearConnection(accountId, dataSourceId);
    const stopped = await tx.connectorImports.finish(accountId, dataSourceId, {
      state: 'aborted',
      error: 'Disconnected',
      now: now(),
    });
    if (stopped) await tx.dataSources.saveSync(accountId, dataSourceId, { status: 'error', at: null });
  }

  /**
   * Re-reads one customer from the system and stores it, or deletes it when the system has it
   * no more. `options` are writeCustomer's (the event id, the catch-up's cursor).
   */
  async function refreshCustomer(
    accountId: string,
    dataSourceId: string,
    session: ConnectorSession,
    customerId: string | null,
    options: Parameters<ConnectorPages['writeCustomer']>[4] = {},
  ) {
    let records: RecordsPage | false = {};
    if (customerId !== null && session.customerRecords) records = await session.customerRecords(customerId);
    return pages.writeCustomer(accountId, dataSourceId, customerId, records, options);
  }

  /**
   * Reads the source's change feed from its cursor until nothing more waits, re-reading each
   * customer named; the cursor moves in the same transaction as the last write of each read.
   */
  async function catchUpSource(row: ImportRow, signal: AbortSignal): Promise<void> {
    const { account_id: accountId, data_source_id: dataSourceId, run_id: runId } = row;
    const source = await sourceOf(accountId, dataSourceId);
    const session = await sessionOf(accountId, source);
    if (!session.changes) return;
    let replaced = false;
    const saveCursor = (cursor: string) => async (tx: Repos) => {
      if (!(await tx.connectorImports.saveChangeCursor(accountId, dataSourceId, runId, cursor, now())))
        replaced = true;
      else await tx.dataSources.saveSync(accountId, dataSourceId, { status: 'complete', at: now() });
    };
    let cursor = row.change_cursor;
    if (cursor === null) {
      // Imported before the change feed was read: it is followed from now on.
      await store.transaction(saveCursor((await session.changes(null)).cursor));
      return;
    }
    for (;;) {
      if (signal.aborted) return;
      let page;
      try {
        page = await session.changes(cursor);
      } catch (error) {
        if (!(error instanceof CursorLostError)) throw error;
        // The feed no longer reaches back to the cursor: only a full import is sure to see it all.
        const newRun = await start(accountId, source, session);
        await store.connectorImports.noteError(
          accountId,
          dataSourceId,
          newRun,
          `${error.message}; a full import started instead`,
        );
        return;
      }
      const ids = page.customerIds;
      if (ids.length === 0) await store.transaction(saveCursor(page.cursor));
      for (const [index, customerId] of ids.entries()) {
        if (signal.aborted) return;
        const last = index === ids.length - 1;
        await refreshCustomer(
          accountId,
          dataSourceId,
          session,
          customerId,
          last ? { inTransaction: saveCursor(page.cursor) } : {},
        );
      }
      if (replaced || !page.more) return;
      cursor = page.cursor;
    }
  }

  let catchUpTimer: NodeJS.Timeout | undefined;
  let catchingUp: Promise<CatchUpOutcome> | undefined;
  const catchUpController = new AbortController();

  function catchUp(): Promise<CatchUpOutcome> {
    catchingUp ??= catchUpAll().finally(() => {
      catchingUp = undefined;
    });
    return catchingUp;
  }

  /** One catch-up of every connected, imported source; a source's failure is kept as its last error. */
  async function catchUpAll(): Promise<CatchUpOutcome> {
    const outcome: CatchUpOutcome = { sources: 0, failed: 0 };
    for (const row of await store.connectorImports.listCatchUp()) {
      if (catchUpController.signal.aborted) break;
      const source = await store.dataSources.get(row.account_id, row.data_source_id);
      if (!source || !connectors.has(source.type)) continue;
      outcome.sources++;
      try {
        await catchUpSource(row, catchUpController.signal);
      } catch (error) {
        outcome.failed++;
        await store.connectorImports
          .noteError(row.account_id, row.data_source_id, row.run_id, `Catch-up failed: ${message(error)}`)
          .catch(() => {});
      }
    }
    return outcome;
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
      const webhookSealed = webhookSecret === undefined ? null : secrets.seal(webhookSecret);
      await connect(accountId, source, credentials, webhookSealed);
    },

    /** Connects a source with the credentials an OAuth grant gave; a webhook secret it had stays. */
    async connectWithGrant(
      accountId: string,
      dataSourceId: string,
      credentials: ConnectorCredentials,
    ): Promise<void> {
      await connect(accountId, await sourceOf(accountId, dataSourceId), credentials, null);
    },

    /**
     * Disconnects a source: with `revoke`, the OAuth grant its credentials came from is revoked
     * at the system first (credentials from a key have none to revoke). The credentials and the
     * webhook secret are forgotten and any import stopped; the imported records stay.
     */
    async disconnect(accountId: string, dataSourceId: string, options: { revoke: boolean }): Promise<void> {
      const source = await sourceOf(accountId, dataSourceId);
      const connector = connectorOf(source);
      const sealed = await store.connectorImports.secret(accountId, source.id);
      if (sealed === undefined) throw new ConflictError(`Data source ${source.id} is not connected`);
      const credentials = JSON.parse(secrets.open(sealed)) as ConnectorCredentials;
      if (options.revoke && credentials.grantAccount !== undefined) {
        if (!connector.oauth)
          throw new ConflictError(
            `${connector.system} OAuth is not configured on this server to revoke the grant`,
          );
        try {
          await connector.oauth.revoke(credentials);
        } catch (error) {
          throw new ConflictError(
            `${connector.system} did not revoke the grant, so the source stays connected: ${message(error)}`,
          );
        }
      }
      await store.transaction((tx) => forget(accountId, source.id, tx));
      stopTask(accountId, source.id);
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
     * connected; false when there is nothing to re-import from, 'deleted' when the system no
     * longer has the customer and it was deleted here too.
     */
    async resyncCustomer(
      accountId: string,
      customerId: string,
      dataSource?: string,
    ): Promise<boolean | 'deleted'> {
      const dataSourceId = await store.transaction((tx) =>
        locateRecord(tx, 'customers', 'Customer', accountId, customerId, dataSource),
      );
      const source = await sourceOf(accountId, dataSourceId);
      if (!connectors.has(source.type)) return false;
      if ((await store.connectorImports.secret(accountId, source.id)) === undefined) return false;
      const session = await sessionOf(accountId, source);
      if (!session.customerRecords) return false;
      const written = await refreshCustomer(accountId, source.id, session, customerId);
      return written === 'deleted' ? 'deleted' : true;
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
      if (event.revoked) {
        // The grant was revoked at the system: nothing can be read with the credentials now.
        await store.transaction(async (tx) => {
          await tx.connectorImports.recordEvent(accountId, source.id, event.id);
          await forget(accountId, source.id, tx);
        });
        stopTask(accountId, source.id);
        return 'applied';
      }
      const session = await sessionOf(accountId, source);
      const written = await refreshCustomer(accountId, source.id, session, event.customerId, {
        eventId: event.id,
      });
      if (written === 'duplicate') return 'duplicate';
      if (written === 'absent' || event.customerId === null) return 'ignored';
      return 'applied';
    },

    /**
     * Reads the change feed of every connected source whose import is done and re-reads the
     * customers it names (the missed webhook deliveries); tests call it, the timer calls it
     * every CATCH_UP_INTERVAL_SECONDS. A call while one runs waits for that one.
     */
    catchUp,

    /** Starts the periodic catch-up; the timer does not keep the process alive. */
    startCatchUp(intervalMs: number): void {
      if (catchUpTimer !== undefined || intervalMs <= 0) return;
      catchUpTimer = setInterval(() => {
        if (catchingUp === undefined) void catchUp().catch(() => {});
      }, intervalMs);
      catchUpTimer.unref();
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
      clearInterval(catchUpTimer);
      catchUpTimer = undefined;
      catchUpController.abort();
      await catchingUp?.catch(() => {});
      const all = [...tasks.values()];
      for (const task of all) task.controller.abort();
      await Promise.all(all.map((task) => task.done));
    },
  };
}

export type ImportControl = ReturnType<typeof createImportControl>;
