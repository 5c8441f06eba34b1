import { type ConnectorRegistry, connectorRegistry } from './connector.js';
import { type StripeApiSettings, stripeConnector } from './processor-a/index.js';
import { type ChargebeeApiSettings, chargebeeConnector } from './processor-b/index.js';
import { type RecurlyApiSettings, recurlyConnector } from './processor-c/index.js';

export interface ConnectorSettings {
  stripe: StripeApiSettings;
  chargebee: ChargebeeApiSettings;
  recurly: RecurlyApiSettings;
}

/** Every connector this server ships; adding one is its folder and a line here. */
export function defaultConnectors(settings: ConnectorSettings): ConnectorRegistry {
  return connectorRegistry([
    stripeConnector(settings.stripe),
    chargebeeConnector(settings.chargebee),
    recurlyConnector(settings.recurly),
  ]);
}
