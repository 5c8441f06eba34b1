import type { SUBSCRIPTION_STATUSES } from '../engine/vocabulary.js';
import { bulkWrite } from './bulk-write.js';
import type { Queryable } from './db.js';
import { keysJson, type Page, type RecordKey } from './records-repo.js';

export interface ScheduledChange {
  date: string;
  plan_id?: string;
  quantity?: number;
  amount?: number;
}

export interface SubscriptionRow {
  id: string;
  data_source: string;
  customer_id: string;
  plan_id: string | null;
  quantity: number;
  status: (typeof SUBSCRIPTION_STATUSES)[number];
  started_at: string;
  cancel_requested_at: string | null;
  cancel_at: string | null;
  ended_at: string | null;
  mrr: number | null;
  currency: string | null;
  scheduled_changes: ScheduledChange[];
}

const VALUE_COLUMNS = {
  customer_id: 'text',
  plan_id: 'text',
  quantity: 'integer',
  status: 'text',
  started_at: 'timestamptz',
  cancel_requested_at: 'timestamptz',
  cancel_at: 'timestamptz',
  ended_at: 'timestamptz',
  mrr: 'bigint',
  currency: 'text',
  scheduled_changes: 'jsonb',
} as const;

const SELECT = `select s.subscription_id as id, s.data_source_id as data_source, ${Object.keys(VALUE_COLUMNS)
  .map((column) => `s.${column}`)
  .join(', ')} from subscriptions s`;

const ORDER = 'order by s.subscription_id, s.data_source_id';

export function subscriptionsRepo(db: Queryable) {
  return {
    list(accountId: string, page: Page & { customerId?: string | undefined }): Promise<SubscriptionRow[]> {
      return db.query<SubscriptionRow>(
        `${SELECT} where s.account_id = $1 and ($2::uuid is null or s.data_source_id = $2)
           and ($5::text is null or s.customer_id = $5)
         ${ORDER} limit $3 offset $4`,
        [accountId, page.dataSourceId ?? null, page.limit, page.offset, page.customerId ?? null],
      );
    },

    getMany(accountId: string, keys: readonly RecordKey[]): Promise<SubscriptionRow[]> {
      if (keys.length === 0) return Promise.resolve([]);
      return db.query<SubscriptionRow>(
        `${SELECT} join json_to_recordset($2::json) as k(s uuid, i text)
           on s.data_source_id = k.s and s.subscription_id = k.i
         where s.account_id = $1 ${ORDER}`,
        [accountId, keysJson(keys)],
      );
    },

    async upsertMany(accountId: string, subscriptions: readonly SubscriptionRow[]): Promise<void> {
      await bulkWrite(
        db,
        accountId,
        {
          table: 'subscriptions',
          columns: { data_source_id: 'uuid', subscription_id: 'text', ...VALUE_COLUMNS },
          conflictKey: ['data_source_id', 'subscription_id'],
        },
        subscriptions.map(({ id, data_source, ...values }) => ({
          data_source_id: data_source,
          subscription_id: id,
          ...values,
        })),
      );
    },
  };
}
