import { randomUUID } from 'node:crypto';
import type { AccessLevel, ApiKeyRow } from '../store/api-keys-repo.js';
import type { Repos, Store } from '../store/open-store.js';
import { hashSecret, newSecret } from './api-key-secrets.js';
import type { Clock } from './clock.js';
import { NotFoundError } from './errors.js';
import { isUuid } from './ids.js';

export interface AuthContext {
  accountId: string;
  keyId: string;
  accessLevel: AccessLevel;
}

export interface ApiKeyMetadata {
  id: string;
  name: string;
  access_level: AccessLevel;
  created_at: string;
  last_used: string | null;
}

/** A key as its owner sees it right after creation: the only time the secret is shown. */
export interface IssuedApiKey extends ApiKeyMetadata {
  key: string;
  prefix: string;
}

const TOUCH_INTERVAL_MS = 60_000;

function metadata(row: ApiKeyRow): ApiKeyMetadata {
  return {
    id: row.key_id,
    name: row.name,
    access_level: row.access_level,
    created_at: row.created_at,
    last_used: row.last_used,
  };
}

export function createApiKeysService(store: Store, clock: Clock) {
  // Saves a database write on every request: each process writes last_used once a minute per key.
  const lastTouched = new Map<string, number>();

  return {
    async authenticate(secret: string): Promise<AuthContext | undefined> {
      const row = await store.apiKeys.findByHash(hashSecret(secret));
      if (!row) return undefined;
      const now = clock.now();
      if (now.getTime() - (lastTouched.get(row.key_id) ?? 0) >= TOUCH_INTERVAL_MS) {
        lastTouched.set(row.key_id, now.getTime());
        await store.apiKeys.touch(row.account_id, row.key_id, now);
      }
      return { accountId: row.account_id, keyId: row.key_id, accessLevel: row.access_level };
    },

    async list(accountId: string): Promise<ApiKeyMetadata[]> {
      return (await store.apiKeys.list(accountId)).map(metadata);
    },

    async create(
      accountId: string,
      input: { name: string; accessLevel: AccessLevel },
      repos: Repos = store,
    ): Promise<IssuedApiKey> {
      const secret = newSecret();
      const row = await repos.apiKeys.insert({
        accountId,
        keyId: randomUUID(),
        name: input.name,
        accessLevel: input.accessLevel,
        secretHash: secret.secretHash,
        prefix: secret.prefix,
      });
      return { ...metadata(row), key: secret.secret, prefix: row.prefix };
    },

    async regenerate(accountId: string, keyId: string): Promise<IssuedApiKey> {
      const secret = newSecret();
      const row = isUuid(keyId) ? await store.apiKeys.replaceSecret(accountId, keyId, secret) : undefined;
      if (!row) throw new NotFoundError(`API key ${keyId} not found`);
      return { ...metadata(row), key: secret.secret, prefix: row.prefix };
    },

    async delete(accountId: string, keyId: string): Promise<void> {
      if (!isUuid(keyId) || !(await store.apiKeys.delete(accountId, keyId)))
        throw new NotFoundError(`API key ${keyId} not found`);
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
