import type { Connector } from '../connector.js';
import type { ChargebeeApiSettings } from './client.js';
import { chargebeeSession } from './sync.js';
import { readChargebeeEvent } from './webhooks.js';

export type { ChargebeeApiSettings } from './client.js';

/** processor-b: Chargebee (product catalog 2.0), through the official `chargebee` package. */
export function chargebeeConnector(settings: ChargebeeApiSettings = {}): Connector {
  return {
    type: 'processor-b',
    system: 'Chargebee',
    needsSite: true,
    // Connecting checks that a site is given; an invalid one is refused by the session's account().
    open: ({ apiKey, site }) => chargebeeSession(apiKey, site ?? '', settings),
    readEvent: readChargebeeEvent,
  };
}
