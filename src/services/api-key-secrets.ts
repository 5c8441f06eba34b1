import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'mrr_';
const VISIBLE_LENGTH = KEY_PREFIX.length + 6;

export interface NewSecret {
  secret: string;
  secretHash: string;
  prefix: string;
}

/** sha-256 suffices: the secret has 192 random bits, so there is nothing to brute-force. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function newSecret(): NewSecret {
  const secret = KEY_PREFIX + randomBytes(24).toString('base64url');
  return { secret, secretHash: hashSecret(secret), prefix: secret.slice(0, VISIBLE_LENGTH) };
}

/** A bearer secret of the web interface (session cookie, setup or invitation link) and its hash. */
export function newToken(): { token: string; tokenHash: string } {
  const token = randomBytes(24).toString('base64url');
  return { token, tokenHash: hashSecret(token) };
}
