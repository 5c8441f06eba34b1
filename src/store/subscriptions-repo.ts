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

    /**
     * The customers of a source with a record that still carries MRR (a live status, no
     * `ended_at`, no `cancel_at` before `today`) although every period its lines billed (credits
     * left out) ended before `today`, by customer id. Metered records are left out: usage is
     * billed after its period, so their last line always ends before today.
     */
    async customersBilledUntilBefore(
      accountId: string,
      dataSourceId: string,
      today: string,
    ): Promise<string[]> {
      const rows = await db.query<{ customer_id: string }>(
        `select distinct s.customer_id from subscriptions s
           join (select l.subscription_id, max(l.period_end) as billed_until from invoice_lines l
                  where l.account_id = $1 and l.data_source_id = $2 and l.type = 'subscription'
                    and l.amount >= 0
                  group by l.subscription_id) b on b.subscription_id = s.subscription_id
         where s.account_id = $1 and s.data_source_id = $2
           and s.status in ('active', 'trialing', 'past_due') and s.ended_at is null
           and (s.cancel_at is null or s.cancel_at > $3::date)
           and b.billed_until < $3::date
           and not exists (select 1 from plans p
                            where p.account_id = $1 and p.data_source_id = $2 and p.plan_id = s.plan_id
                              and p.pricing_model = 'metered')
         order by s.customer_id`,
        [accountId, dataSourceId, today],
      );
      return rows.map((row) => row.customer_id);
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
