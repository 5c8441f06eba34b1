import Stripe from 'stripe';
import type { ConnectorEvent, WebhookHeaders } from '../connector.js';

/** The customer an event's object belongs to: the customer itself, or the one it names. */
export function customerOf(object: { object?: unknown; id?: unknown; customer?: unknown }): string | null {
  if (object.object === 'customer' && typeof object.id === 'string') return object.id;
  const customer = object.customer;
  if (typeof customer === 'string') return customer;
  if (
    typeof customer === 'object' &&
    customer !== null &&
    'id' in customer &&
    typeof customer.id === 'string'
  )
    return customer.id;
  return null;
}

/** Checks the `Stripe-Signature` header against the endpoint's signing secret (`whsec_...`). */
export function readStripeEvent(payload: string, headers: WebhookHeaders, secret: string): ConnectorEvent {
  const signature = headers['stripe-signature'];
  if (typeof signature !== 'string') throw new Error('The Stripe-Signature header is missing');
  const event = Stripe.webhooks.constructEvent(payload, signature, secret);
  if (event.type === 'account.application.deauthorized')
    return { id: event.id, customerId: null, revoked: true };
  return { id: event.id, customerId: customerOf(event.data.object) };
}
