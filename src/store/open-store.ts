import { accountsRepo } from './accounts-repo.js';
import { apiKeysRepo } from './api-keys-repo.js';
import { cashflowRepo } from './cashflow-repo.js';
import { changeQueueCompaction } from './change-queue-compaction.js';
import { changesRepo, DATA_VERSION_CHANNEL } from './changes-repo.js';
import { connectorImportsRepo } from './connector-imports-repo.js';
import { customersRepo } from './customers-repo.js';
import { dataSourcesRepo } from './data-sources-repo.js';
import type { Db, JobQueueDb, Queryable, StoreKind } from './db.js';
import { fxRatesRepo } from './fx-rates-repo.js';
import { invoicesRepo } from './invoices-repo.js';
import { jobsRepo } from './jobs-repo.js';
import { metricsRepo } from './metrics-repo.js';
import { notificationsRepo } from './notifications-repo.js';
import { oauthStatesRepo } from './oauth-states-repo.js';
import { migrate } from './migrate.js';
import { openPgliteDb } from './pglite-db.js';
import { ownerCaches } from './owner-caches.js';
import { sharedRequestReads } from './shared-reads.js';
import { planGroupsRepo } from './plan-groups-repo.js';
import { segmentsRepo } from './segments-repo.js';
import { sendClaims, type SendOnce } from './send-claims.js';
import { plansRepo } from './plans-repo.js';
import { openPostgresDb } from './postgres-db.js';
import { recordsRepo } from './records-repo.js';
import { settingsRepo } from './settings-repo.js';
import { subscriptionsRepo } from './subscriptions-repo.js';
import { tableStatistics } from './table-statistics.js';
import { teamRepo } from './team-repo.js';
import { uploadsRepo } from './uploads-repo.js';
import { spreadsheetSheetsRepo } from './spreadsheet-sheets-repo.js';
import { webSessionsRepo } from './web-sessions-repo.js';
import { webhooksRepo } from './webhooks-repo.js';

export function repos(db: Queryable) {
  return {
    accounts: accountsRepo(db),
    apiKeys: apiKeysRepo(db),
    team: teamRepo(db),
    webSessions: webSessionsRepo(db),
    dataSources: dataSourcesRepo(db),
    connectorImports: connectorImportsRepo(db),
    oauthStates: oauthStatesRepo(db),
    settings: settingsRepo(db),
    fxRates: fxRatesRepo(db),
    records: recordsRepo(db),
    customers: customersRepo(db),
    plans: plansRepo(db),
    planGroups: planGroupsRepo(db),
    segments: segmentsRepo(db),
    invoices: invoicesRepo(db),
    subscriptions: subscriptionsRepo(db),
    changes: changesRepo(db),
    metrics: metricsRepo(db),
    cashflow: cashflowRepo(db),
    uploads: uploadsRepo(db),
    spreadsheetSheets: spreadsheetSheetsRepo(db),
    notifications: notificationsRepo(db),
    jobs: jobsRepo(db),
    webhooks: webhooksRepo(db),
  };
}

export type Repos = ReturnType<typeof repos>;

export interface Store extends Repos {
  readonly kind: StoreKind;
  /** Runs `fn` in one transaction: everything it writes lands together or not at all. */
  transaction<T>(fn: (tx: Repos) => Promise<T>): Promise<T>;
  /** A message sent at most once, its claim lasting only if it was sent (send-claims.ts). */
  sendOnce: SendOnce;
  ping(): Promise<void>;
  /**
   * Calls `onMoved` with the account whenever a write through any process on this database
   * commits a new data version, until the returned function is called; a lost connection
   * goes to `onLost` and is made again.
   */
  watchDataVersions(
    onMoved: (accountId: string) => void,
    onLost: (error: unknown) => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** Where the job runner keeps its queue: this same database (src/jobs). */
  readonly jobQueueDb: JobQueueDb;
}

/**
 * The store over an open database. The embedded one is written by this process alone, so it
 * keeps owner caches of the reads every request makes (see owner-caches.ts); on PostgreSQL,
 * requests that arrive together share those reads (see shared-reads.ts).
 */
export function storeOver(db: Db): Store {
  const upkeep = tableUpkeep(db);
  const caches = db.kind === 'pglite' ? ownerCaches() : undefined;
  return {
    ...(caches ? caches.root(repos(db)) : sharedRequestReads(repos(db))),
    kind: db.kind,
    async transaction(fn) {
      let committed = () => {};
      const result = await db.transaction((tx) => {
        if (!caches) return fn(repos(tx));
        const scope = caches.transaction(repos(tx));
        committed = scope.committed;
        return fn(scope.repos);
      });
      committed();
      await upkeep();
      return result;
    },
    sendOnce: sendClaims(db),
    ping: () => db.ping(),
    watchDataVersions: (onMoved, onLost) => db.listen(DATA_VERSION_CHANNEL, onMoved, onLost),
    jobQueueDb: db.jobQueueDb,
    async close() {
      await caches?.settled();
      await db.close();
    },
  };
}

export type StoreLocation = { databaseUrl: string; statementTimeoutMs?: number } | { dataDir?: string };

/**
 * What runs after each transaction, at most every few seconds: table statistics, and the change
 * queue's compaction.
 */
function tableUpkeep(db: Db): () => Promise<void> {
  const statistics = tableStatistics(db);
  const compaction = changeQueueCompaction(db);
  return async () => {
    await statistics.afterWrite();
    await compaction.afterWrite();
  };
}

/** Opens PostgreSQL when a URL is given, else PGlite, and brings the schema up to date. */
export async function openStore(location: StoreLocation): Promise<Store> {
  const db =
    'databaseUrl' in location
      ? await openPostgresDb(location.databaseUrl, { statementTimeoutMs: location.statementTimeoutMs })
      : await openPgliteDb(location.dataDir);
  try {
    await migrate(db);
    // Tables that grew since their last analysis (a restored backup, a store written by an
    // older version) are analyzed, and a bloated change queue compacted, before the first
    // request plans against them.
    await tableUpkeep(db)();
  } catch (error) {
    await db.close();
    throw error;
  }
  return storeOver(db);
}
