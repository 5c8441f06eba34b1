import { randomUUID } from 'node:crypto';
import { normaliseCurrency } from '../engine/currency-codes.js';
import type { AccountRow } from '../store/accounts-repo.js';
import type { Repos, Store } from '../store/open-store.js';
import type { ApiKeysService, IssuedApiKey } from './api-keys-service.js';
import { currencyChecker } from './currency-check.js';
import { InvalidInputError, NotFoundError } from './errors.js';
import type { FxService } from './fx-service.js';
import { isUuid } from './ids.js';

export interface AccountProfile {
  id: string;
  name: string;
  base_currency: string;
  created_at: string;
}

export interface AccountBilling {
  plan: 'self-hosted';
  status: 'active';
  price: number;
  currency: string;
  usage: { data_sources: number; api_keys: number; team_members: number };
}

export interface NewAccount {
  account: AccountProfile;
  adminKey: IssuedApiKey;
}

function profile(row: AccountRow): AccountProfile {
  return { id: row.account_id, name: row.name, base_currency: row.base_currency, created_at: row.created_at };
}

export function createAccountsService(store: Store, apiKeys: ApiKeysService, fx: FxService) {
  async function insertWithAdminKey(
    tx: Repos,
    input: { name: string; baseCurrency?: string },
  ): Promise<NewAccount> {
    const name = input.name.trim();
    if (!name) throw new InvalidInputError('name must not be empty');
    const baseCurrency = normaliseCurrency(input.baseCurrency ?? 'usd');
    if (!baseCurrency)
      throw new InvalidInputError(`base currency "${input.baseCurrency}" is not an ISO 4217 code`);
    const row = await tx.accounts.insert({ accountId: randomUUID(), name, baseCurrency });
    const adminKey = await apiKeys.create(
      row.account_id,
      { name: 'Initial admin key', accessLevel: 'admin' },
      tx,
    );
    return { account: profile(row), adminKey };
  }

  async function getRow(accountId: string): Promise<AccountRow> {
    const row = isUuid(accountId) ? await store.accounts.get(accountId) : undefined;
    if (!row) throw new NotFoundError(`Account ${accountId} not found`);
    return row;
  }

  return {
    /** Creates an account together with its first admin key, so it is usable at once. */
    create(input: { name: string; baseCurrency?: string }): Promise<NewAccount> {
      return store.transaction((tx) => insertWithAdminKey(tx, input));
    },

    /** On the very first start of an empty store, creates the default account (once, even with several processes). */
    bootstrapIfEmpty(): Promise<NewAccount | undefined> {
      return store.transaction(async (tx) => {
        await tx.accounts.lockForBootstrap();
        if ((await tx.accounts.count()) > 0) return undefined;
        return insertWithAdminKey(tx, { name: 'Default' });
      });
    },

    async list(): Promise<AccountProfile[]> {
      return (await store.accounts.list()).map(profile);
    },

    async profile(accountId: string): Promise<AccountProfile> {
      return profile(await getRow(accountId));
    },

    /**
     * Changes the currency reports answer in by default. Reports convert at query time, so
     * only the customers whose MRR is kept in the account's currency for want of their own
     * are recomputed; the new data version drops every snapshot and what was derived from it.
     */
    async setBaseCurrency(accountId: string, currency: string): Promise<AccountProfile> {
      const current = await getRow(accountId);
      const code = currency.toLowerCase();
      // Changing nothing rebuilds nothing.
      if (code === current.base_currency) return profile(current);
      const unknown = (await currencyChecker(fx, 'base_currency'))(code);
      if (unknown !== undefined) throw new InvalidInputError(unknown);
      const row = await store.transaction(async (tx) => {
        const updated = await tx.accounts.setBaseCurrency(accountId, code);
        await tx.changes.markCustomersInAccountCurrency(accountId);
        await tx.changes.bumpDataVersion(accountId);
        return updated!;
      });
      return profile(row);
    },

    /** A self-hosted install has no subscription to us; the payload reports that and what the account holds. */
    async billing(accountId: string): Promise<AccountBilling> {
      const row = await getRow(accountId);
      return {
        plan: 'self-hosted',
        status: 'active',
        price: 0,
        currency: row.base_currency,
        usage: await store.accounts.usage(accountId),
      };
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
