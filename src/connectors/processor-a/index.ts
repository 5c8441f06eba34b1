import type { Connector } from '../connector.js';
import type { StripeApiSettings } from './client.js';
import { stripeSession } from './sync.js';
import { readStripeEvent } from './webhooks.js';

export type { StripeApiSettings } from './client.js';

/** processor-a: Stripe, through the official `stripe` package. */
export function stripeConnector(settings: StripeApiSettings = {}): Connector {
  return {
    type: 'processor-a',
    system: 'Stripe',
    needsSite: false,
    open: ({ apiKey }) => stripeSession(apiKey, settings),
    readEvent: readStripeEvent,
  };
}
