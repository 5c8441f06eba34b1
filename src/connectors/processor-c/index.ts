import type { Connector } from '../connector.js';
import type { RecurlyApiSettings } from './client.js';
import { recurlySession } from './sync.js';
import { readRecurlyNotification } from './webhooks.js';

export type { RecurlyApiSettings } from './client.js';

/** processor-c: Recurly (API v3), through the official `recurly` package. */
export function recurlyConnector(settings: RecurlyApiSettings = {}): Connector {
  return {
    type: 'processor-c',
    system: 'Recurly',
    // A v3 API key belongs to one site, so the key alone names the site.
    needsSite: false,
    open: ({ apiKey }) => recurlySession(apiKey, settings),
    readEvent: readRecurlyNotification,
  };
}
