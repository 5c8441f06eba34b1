import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ConnectorEvent, WebhookHeaders } from '../connector.js';

/** How far a delivery's timestamp may be from now, either way: Recurly's clients use 5 minutes. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

/** The `recurly-signature` value for `payload` at `timestamp` (ms), as Recurly computes it. */
export function recurlySignature(payload: string, secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
}

function matches(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'hex');
  const b = Buffer.from(given, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

/**
 * Checks the `recurly-signature` header of a JSON notification: `timestamp,sig1[,sig2]`, the
 * timestamp in milliseconds, each signature the hex HMAC-SHA256 of `timestamp.body` with the
 * endpoint's secret key (two while a regenerated key overlaps the old one). Any signature may
 * match; the timestamp must be within the tolerance, so an old delivery cannot be replayed later.
 */
export function verifyRecurlySignature(
  payload: string,
  header: string,
  secret: string,
  now = Date.now(),
  toleranceMs = SIGNATURE_TOLERANCE_MS,
): void {
  const [timestamp, ...signatures] = header.split(',').map((part) => part.trim());
  const ms = Number(timestamp);
  if (!timestamp || !/^\d+$/.test(timestamp) || signatures.length === 0)
    throw new Error('The recurly-signature header is malformed');
  if (Math.abs(now - ms) > toleranceMs)
    throw new Error('The recurly-signature timestamp is outside the tolerance');
  const expected = recurlySignature(payload, secret, ms);
  if (!signatures.some((signature) => matches(expected, signature)))
    throw new Error('No recurly-signature matches the payload');
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * A verified JSON notification: `{id, object_type, site_id, event_type, event_time,
 * account_code, ...}`. Its `id` is the id of the object it is about, not of the notification,
 * so the event id is object type, object id, event type and event time together: the same for
 * a redelivery, different for the next event about the same object (a notification without
 * them is named by the hash of its body). The customer is the
 * notification's account code (absent for plan and item notifications, which are ignored).
 */
export function readRecurlyNotification(
  payload: string,
  headers: WebhookHeaders,
  secret: string,
): ConnectorEvent {
  const header = headers['recurly-signature'];
  if (typeof header !== 'string') throw new Error('The recurly-signature header is missing');
  verifyRecurlySignature(payload, header, secret);
  const body = JSON.parse(payload) as Record<string, unknown>;
  const parts = [body.object_type, body.id ?? body.uuid, body.event_type, body.event_time].map(text);
  // A signed notification without those fields is still Recurly's: named by its content.
  const id = parts.every((part) => part !== null)
    ? parts.join(':')
    : `sha256:${createHash('sha256').update(payload).digest('hex')}`;
  return { id, customerId: text(body.account_code) };
}
