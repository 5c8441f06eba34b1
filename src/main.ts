import { buildApp } from './api/app.js';
import { loadConfig } from './config.js';
import { systemClock } from './services/clock.js';
import { createServices } from './services/index.js';
import { openStore } from './store/open-store.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const store = await openStore(config.store);
  const services = createServices(store, systemClock);
  const app = await buildApp(services, {
    bodyLimitBytes: config.bodyLimitBytes,
    logger: { level: config.logLevel },
  });

  const stop = async (signal: string) => {
    app.log.info(`${signal} received, shutting down`);
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  await app.listen({ host: config.host, port: config.port });
  // After listen: if the port is taken, no key is created that nobody saw.
  const created = await services.accounts.bootstrapIfEmpty();
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  const storeName = 'databaseUrl' in config.store ? 'PostgreSQL' : `PGlite in ${config.store.dataDir}`;
  console.log(`\nmrrlytics is running at ${url} (store: ${storeName})`);
  if (created) {
    console.log(
      `\nFirst start: created the account "${created.account.name}" (${created.account.id}) and an admin API key.\n` +
        'It is shown only this once, so keep it now:\n\n' +
        `  ${created.adminKey.key}\n\n` +
        `Try: curl -H "Authorization: Bearer ${created.adminKey.key}" ${url}/account/profile\n`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
