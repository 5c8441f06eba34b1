import cluster from 'node:cluster';
import v8 from 'node:v8';
import { buildApp } from './api/app.js';
import { runPrimary } from './cluster/primary.js';
import { type ProcessRole, processRole } from './cluster/worker-role.js';
import { type Config, loadConfig } from './config.js';
import { defaultConnectors } from './connectors/index.js';
import { systemClock } from './services/clock.js';
import { jobDefinitions } from './jobs/index.js';
import { createJobRunner } from './jobs/job-runner.js';
import { createServices, type Services } from './services/index.js';
import { openStore } from './store/open-store.js';

// After each full collection V8 lets the heap grow to as much as four times what survived before
// it collects again, and keeps the pages it grew: at 100,000 customers a 320 MiB live heap
// reached 1.5 GiB under load. Half again bounds that garbage without bounding the heap, so an
// account larger than any limit still fits (docs/decisions.md, "The heap grows by half").
v8.setFlagsFromString('--heap-growing-percent=50');

/** The web interface has no owner yet: the one-time links that create one (docs/operations.md). */
function setupText(url: string, links: { accountId: string; token: string }[]): string {
  if (links.length === 0) return '';
  const lines = links.map(
    (link) => `  ${url}/#/setup/${link.token}` + (links.length > 1 ? `  (account ${link.accountId})` : ''),
  );
  return (
    `\nOpen the web interface and create its owner with this one-time link (valid 24 hours; a restart prints a new one):\n\n` +
    `${lines.join('\n')}\n`
  );
}

async function serve(config: Config, role: ProcessRole): Promise<void> {
  const store = await openStore(config.store);
  // Started once the services that its jobs call exist; its failures go to the server's log.
  const jobs = createJobRunner(store, {
    stopTimeoutMs: Math.max(1000, config.shutdownTimeoutMs / 2),
    onError: (error, queue) =>
      app.log.warn({ err: error, queue }, queue ? 'job attempt failed' : 'job queue error'),
  });
  const services = createServices(store, systemClock, {
    connectors: defaultConnectors(config.connectors),
    secretsKey: config.secretsKey,
    publicUrl: config.publicUrl,
    spreadsheets: { baseUrl: config.spreadsheetBaseUrl, maxBytes: config.bodyLimitBytes },
    smtp: config.smtp,
    outbound: { allowPrivate: config.outboundAllowPrivate },
    jobs: jobs.sender,
    metrics: {
      readWaitMs: config.readWaitMs,
      idleMs: config.snapshotIdleMs,
      onRefreshError: (error, accountId) =>
        app.log.error({ err: error, accountId }, 'Refresh after a write failed'),
    },
  });
  const app = await buildApp(services, {
    bodyLimitBytes: config.bodyLimitBytes,
    logger: { level: config.logLevel },
    rateLimits: config.rateLimits,
    requestDeadlineMs: config.requestDeadlineMs,
    timeouts: config.timeouts,
    trustProxy: config.trustProxy,
  });

  // From here on, a fault nothing caught ends the process as it would without this, but through
  // the log first: whoever reads the JSON log then sees why the service restarted.
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
    process.on(event, (error: unknown) => {
      app.log.fatal({ err: error }, `${event}: the process ends`);
      process.exit(1);
    });
  }
  // A write through another process (or this one) builds the snapshots this one holds again.
  const stopWatching = await store.watchDataVersions(
    (accountId) => services.metrics.versionMoved(accountId),
    (error) => app.log.warn({ err: error }, 'Lost the connection that hears data changes; connecting again'),
  );
  // Stop accepting, let in-flight requests finish, close the store; whatever hangs, exit by the
  // deadline. A committed write is in the store's log by then, so exiting unclosed loses none.
  // `once`: a second signal gets Node's default and ends the process at once. A worker may get
  // each signal twice, from the terminal's process group or the service manager and forwarded by
  // its primary: it stops once, and a second signal at the primary ends the primary, whose
  // workers then exit at once.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received, shutting down`);
    setTimeout(() => {
      console.error(
        `Not stopped within ${config.shutdownTimeoutMs} ms (SHUTDOWN_TIMEOUT_MS): exiting anyway`,
      );
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    // Imports stop between pages and stay `running` in the store, to resume at the next start;
    // after the last request (which may queue jobs), running jobs get a few seconds to finish and
    // are retried at the next start if they do not.
    services.imports
      .close()
      // Together: the syncs stop reading sheets at once, and wait for the uploads they started.
      .then(() => Promise.all([services.spreadsheets.close(), services.uploads.close()]))
      .then(() => app.close())
      // Detections started by the last writes, before the store they write to closes.
      .then(() => services.notifications.settled())
      .then(() => stopWatching())
      .then(() => services.metrics.stop())
      .then(() => jobs.stop())
      .then(() => store.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('Shutdown failed:', error instanceof Error ? error.message : error);
          process.exit(1);
        },
      );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    if (role.clusterWorker) process.on(signal, () => stop(signal));
    else process.once(signal, () => stop(signal));
  }

  await jobs.start(jobDefinitions(services));
  const address = await app.listen({ host: config.host, port: config.port });
  if (role.startUp) await startUp(config, services, address, (message) => app.log.info(message));
  if (role.schedules) {
    // Repairs missed webhook deliveries from each system's change feed (docs/connectors.md).
    services.imports.startCatchUp(config.catchUpIntervalMs);
    // Reads the published sheets of spreadsheet sources again (docs/api.md, "Spreadsheet sources").
    services.spreadsheets.start(config.spreadsheetSyncIntervalMs);
  }
}

/** The first account, the imports left running, and the banner with the key and the setup links. */
async function startUp(
  config: Config,
  services: Services,
  address: string,
  log: (message: string) => void,
): Promise<void> {
  // After listen: if the port is taken, no key is created that nobody saw.
  const created = await services.accounts.bootstrapIfEmpty();
  const resumed = await services.imports.resumeRunning();
  if (resumed > 0) log(`Resumed ${resumed} connector import(s) from their last stored page`);
  const uploads = await services.uploads.resumeRunning();
  if (uploads > 0) log(`Resumed ${uploads} upload import(s) from their last stored batch`);
  const url = address.replace('0.0.0.0', 'localhost');
  const storeName = 'databaseUrl' in config.store ? 'PostgreSQL' : `PGlite in ${config.store.dataDir}`;
  const banner = `\nmrrlytics is running at ${url} (store: ${storeName})\n`;
  const setupLinks = await services.webAuth.issueSetupTokens();
  // One write, so that whoever reads the console sees the URL, the key and the links together.
  console.log(
    (created
      ? `${banner}\nFirst start: created the account "${created.account.name}" (${created.account.id}) and an admin API key.\n` +
        'It is shown only this once, so keep it now:\n\n' +
        `  ${created.adminKey.key}\n\n` +
        `Try: curl -H "Authorization: Bearer ${created.adminKey.key}" ${url}/account/profile\n`
      : banner) + setupText(url, setupLinks),
  );
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (cluster.isPrimary && config.workers > 1)
    runPrimary({ workers: config.workers, shutdownTimeoutMs: config.shutdownTimeoutMs });
  else await serve(config, processRole());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
