import { type ConnectorRegistry, connectorRegistry } from './connector.js';
import { type StripeApiSettings, stripeConnector } from './processor-a/index.js';

export interface ConnectorSettings {
  stripe: StripeApiSettings;
}

/** Every connector this server ships; adding one is its folder and a line here. */
export function defaultConnectors(settings: ConnectorSettings): ConnectorRegistry {
  return connectorRegistry([stripeConnector(settings.stripe)]);
}
