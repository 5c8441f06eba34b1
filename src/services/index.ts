import type { Store } from '../store/open-store.js';
import { createAccountsService } from './accounts-service.js';
import { createApiKeysService } from './api-keys-service.js';
import type { Clock } from './clock.js';
import { createDataSourcesService } from './data-sources-service.js';
import { createFxService } from './fx-service.js';
import { createSettingsService } from './settings-service.js';
import { createTeamService } from './team-service.js';

/** Built once at start-up and handed to the API, the CLI and the jobs alike. */
export function createServices(store: Store, clock: Clock) {
  const apiKeys = createApiKeysService(store, clock);
  return {
    store,
    clock,
    apiKeys,
    accounts: createAccountsService(store, apiKeys),
    team: createTeamService(store),
    dataSources: createDataSourcesService(store),
    settings: createSettingsService(store),
    fx: createFxService(store, clock),
  };
}

export type Services = ReturnType<typeof createServices>;
