import type { Queryable } from './db.js';

export interface AccountRow {
  account_id: string;
  name: string;
  base_currency: string;
  created_at: string;
}

export function accountsRepo(db: Queryable) {
  return {
    async insert(account: { accountId: string; name: string; baseCurrency: string }): Promise<AccountRow> {
      const [row] = await db.query<AccountRow>(
        `insert into accounts (account_id, name, base_currency) values ($1, $2, $3)
         returning account_id, name, base_currency, created_at`,
        [account.accountId, account.name, account.baseCurrency],
      );
      return row!;
    },

    async get(accountId: string): Promise<AccountRow | undefined> {
      const [row] = await db.query<AccountRow>(
        'select account_id, name, base_currency, created_at from accounts where account_id = $1',
        [accountId],
      );
      return row;
    },

    async setBaseCurrency(accountId: string, baseCurrency: string): Promise<AccountRow | undefined> {
      const [row] = await db.query<AccountRow>(
        `update accounts set base_currency = $2 where account_id = $1
         returning account_id, name, base_currency, created_at`,
        [accountId, baseCurrency],
      );
      return row;
    },

    async list(): Promise<AccountRow[]> {
      return db.query<AccountRow>(
        'select account_id, name, base_currency, created_at from accounts order by created_at, account_id',
      );
    },

    /** Serialises first-start bootstrapping between processes sharing one database. */
    async lockForBootstrap(): Promise<void> {
      await db.query('select pg_advisory_xact_lock($1)', [727_002]);
    },

    async count(): Promise<number> {
      const [row] = await db.query<{ count: number }>('select count(*)::int as count from accounts');
      return row!.count;
    },

    async usage(
      accountId: string,
    ): Promise<{ data_sources: number; api_keys: number; team_members: number }> {
      const [row] = await db.query<{ data_sources: number; api_keys: number; team_members: number }>(
        `select
           (select count(*)::int from data_sources where account_id = $1) as data_sources,
           (select count(*)::int from api_keys where account_id = $1) as api_keys,
           (select count(*)::int from team_members where account_id = $1) as team_members`,
        [accountId],
      );
      return row!;
    },
  };
}
