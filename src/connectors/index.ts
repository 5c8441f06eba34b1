import { type ConnectorRegistry, connectorRegistry } from './connector.js';
import { type StripeApiSettings, stripeConnector } from './processor-a/index.js';
import { type RecurlyApiSettings, recurlyConnector } from './processor-c/index.js';

export interface ConnectorSettings {
  stripe: StripeApiSettings;
  recurly: RecurlyApiSettings;
}

/** Every connector this server ships; adding one is its folder and a line here. */
export function defaultConnectors(settings: ConnectorSettings): ConnectorRegistry {
  return connectorRegistry([stripeConnector(settings.stripe), recurlyConnector(settings.recurly)]);
}
