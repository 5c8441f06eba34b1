import { createHmac, randomBytes } from 'node:crypto';

/** The header each delivery is signed in (docs/webhooks.md shows how a receiver checks it). */
export const SIGNATURE_HEADER = 'mrrlytics-signature';

/** A webhook's signing secret: 32 random bytes, shown to its creator. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the secret>`: the time is signed
 * with the body, so a receiver can refuse a delivery replayed long after it was sent.
 */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}
