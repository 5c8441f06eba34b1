import type { Queryable } from './db.js';

export type AccessLevel = 'admin' | 'viewer';

export interface ApiKeyRow {
  account_id: string;
  key_id: string;
  name: string;
  access_level: AccessLevel;
  prefix: string;
  created_at: string;
  last_used: string | null;
}

const COLUMNS = 'account_id, key_id, name, access_level, prefix, created_at, last_used';

export function apiKeysRepo(db: Queryable) {
  return {
    async insert(key: {
      accountId: string;
      keyId: string;
      name: string;
      accessLevel: AccessLevel;
      secretHash: string;
      prefix: string;
    }): Promise<ApiKeyRow> {
      const [row] = await db.query<ApiKeyRow>(
        `insert into api_keys (account_id, key_id, name, access_level, secret_hash, prefix)
         values ($1, $2, $3, $4, $5, $6) returning ${COLUMNS}`,
        [key.accountId, key.keyId, key.name, key.accessLevel, key.secretHash, key.prefix],
      );
      return row!;
    },

    async list(accountId: string): Promise<ApiKeyRow[]> {
      return db.query<ApiKeyRow>(
        `select ${COLUMNS} from api_keys where account_id = $1 order by created_at, key_id`,
        [accountId],
      );
    },

    async findByHash(secretHash: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db.query<ApiKeyRow>(`select ${COLUMNS} from api_keys where secret_hash = $1`, [
        secretHash,
      ]);
      return row;
    },

    /** Replaces the secret; the old one stops working at once. */
    async replaceSecret(
      accountId: string,
      keyId: string,
      secret: { secretHash: string; prefix: string },
    ): Promise<ApiKeyRow | undefined> {
      const [row] = await db.query<ApiKeyRow>(
        `update api_keys set secret_hash = $3, prefix = $4, last_used = null
         where account_id = $1 and key_id = $2 returning ${COLUMNS}`,
        [accountId, keyId, secret.secretHash, secret.prefix],
      );
      return row;
    },

    async delete(accountId: string, keyId: string): Promise<boolean> {
      const rows = await db.query(
        'delete from api_keys where account_id = $1 and key_id = $2 returning key_id',
        [accountId, keyId],
      );
      return rows.length > 0;
    },

    /** Records use, writing at most once a minute per key whatever the request rate. */
    async touch(accountId: string, keyId: string, at: Date): Promise<void> {
      await db.query(
        `update api_keys set last_used = $3
         where account_id = $1 and key_id = $2 and (last_used is null or last_used <= $3::timestamptz - interval '1 minute')`,
        [accountId, keyId, at.toISOString()],
      );
    },
  };
}
