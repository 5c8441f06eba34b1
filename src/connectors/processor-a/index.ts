import type { Connector } from '../connector.js';
import type { StripeApiSettings } from './client.js';
import { stripeOAuth, type StripeOAuthSettings } from './oauth.js';
import { stripeSession } from './sync.js';
import { readStripeEvent } from './webhooks.js';

export type { StripeApiSettings } from './client.js';
export type { StripeOAuthSettings } from './oauth.js';

/** processor-a: Stripe, through the official `stripe` package. */
export function stripeConnector(settings: StripeApiSettings = {}, oauth?: StripeOAuthSettings): Connector {
  return {
    ...(oauth === undefined ? {} : { oauth: stripeOAuth(oauth, settings) }),
    type: 'processor-a',
    system: 'Stripe',
    needsSite: false,
    open: ({ apiKey }) => stripeSession(apiKey, settings),
    readEvent: readStripeEvent,
  };
}
