import { type ConnectorRegistry, connectorRegistry } from './connector.js';
import { type StripeApiSettings, type StripeOAuthSettings, stripeConnector } from './processor-a/index.js';
import { type ChargebeeApiSettings, chargebeeConnector } from './processor-b/index.js';
import { type RecurlyApiSettings, recurlyConnector } from './processor-c/index.js';

export interface ConnectorSettings {
  stripe: StripeApiSettings;
  /** Stripe Connect OAuth; absent unless STRIPE_CLIENT_ID and STRIPE_SECRET_KEY are set. */
  stripeOAuth?: StripeOAuthSettings | undefined;
  chargebee: ChargebeeApiSettings;
  recurly: RecurlyApiSettings;
}

/** Every connector this server ships; adding one is its folder and a line here. */
export function defaultConnectors(settings: ConnectorSettings): ConnectorRegistry {
  return connectorRegistry([
    stripeConnector(settings.stripe, settings.stripeOAuth),
    chargebeeConnector(settings.chargebee),
    recurlyConnector(settings.recurly),
  ]);
}
