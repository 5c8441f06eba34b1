import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { NotConfiguredError } from './errors.js';

/** Seals secrets (billing-system keys) for the store and opens them again; see docs/connectors.md. */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

const IV_BYTES = 12;

/** `SECRETS_KEY` as given: 32 bytes, base64 or hex. */
export function parseSecretsKey(raw: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes, as 64 hex characters or base64');
  return key;
}

const MISSING_KEY =
  'SECRETS_KEY is not set: the server cannot store or read a billing-system key without it (see docs/connectors.md)';

/** AES-256-GCM with a fresh IV per secret; without a key every call refuses with a clear message. */
export function secretBox(key: Buffer | undefined): SecretBox {
  return {
    seal(plain) {
      if (!key) throw new NotConfiguredError(MISSING_KEY);
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64')).join('.');
    },
    open(sealed) {
      if (!key) throw new NotConfiguredError(MISSING_KEY);
      const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64'));
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv!);
        decipher.setAuthTag(tag!);
        return Buffer.concat([decipher.update(data!), decipher.final()]).toString('utf8');
      } catch {
        // The authentication tag fails when SECRETS_KEY changed since the secret was sealed.
        throw new NotConfiguredError(
          'A stored billing-system key cannot be opened with this SECRETS_KEY: connect the data source again',
        );
      }
    },
  };
}
