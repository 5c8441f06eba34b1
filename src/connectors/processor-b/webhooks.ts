import { createHash, timingSafeEqual } from 'node:crypto';
import type { ConnectorEvent, WebhookHeaders } from '../connector.js';
import { eventCustomer } from './mapping.js';

/** Compares as fixed-length digests, so neither the length nor the content leaks through timing. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Chargebee signs nothing: a webhook is authenticated by the HTTP Basic credentials configured
 * on it. The password must be the source's webhook secret (any user name is accepted).
 */
export function readChargebeeEvent(payload: string, headers: WebhookHeaders, secret: string): ConnectorEvent {
  const header = headers.authorization;
  const value = Array.isArray(header) ? header[0] : header;
  const match = value === undefined ? null : /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value);
  if (!match) throw new Error('The Authorization header is missing or not Basic');
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0 || !sameSecret(decoded.slice(colon + 1), secret))
    throw new Error('The webhook password does not match');
  const event = JSON.parse(payload) as { id?: unknown; content?: Record<string, unknown> };
  if (typeof event.id !== 'string') throw new Error('The event has no id');
  return { id: event.id, customerId: eventCustomer(event.content) };
}
