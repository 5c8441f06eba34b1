import { bulkWrite } from './bulk-write.js';
import type { Queryable } from './db.js';
import { keysJson, type Page, type RecordKey } from './records-repo.js';

export interface CustomerRow {
  id: string;
  data_source: string;
  name: string | null;
  email: string | null;
  created_date: string;
  country: string | null;
  state: string | null;
  currency: string | null;
  status: 'active' | 'cancelled';
  trial_started: string | null;
  trial_end_date: string | null;
  paid_started: string | null;
  cancel_date: string | null;
  overdue_date: string | null;
  cancel_reason: string | null;
  custom_variables: Record<string, string>;
}

const VALUE_COLUMNS = {
  name: 'text',
  email: 'text',
  created_date: 'timestamptz',
  country: 'text',
  state: 'text',
  currency: 'text',
  status: 'text',
  trial_started: 'timestamptz',
  trial_end_date: 'timestamptz',
  paid_started: 'timestamptz',
  cancel_date: 'timestamptz',
  overdue_date: 'timestamptz',
  cancel_reason: 'text',
  custom_variables: 'jsonb',
} as const;

const SELECT = `select c.customer_id as id, c.data_source_id as data_source, ${Object.keys(VALUE_COLUMNS)
  .map((column) => `c.${column}`)
  .join(', ')} from customers c`;

const ORDER = 'order by c.customer_id, c.data_source_id';

export function customersRepo(db: Queryable) {
  return {
    list(accountId: string, page: Page): Promise<CustomerRow[]> {
      return db.query<CustomerRow>(
        `${SELECT} where c.account_id = $1 and ($2::uuid is null or c.data_source_id = $2)
         ${ORDER} limit $3 offset $4`,
        [accountId, page.dataSourceId ?? null, page.limit, page.offset],
      );
    },

    /** The customers with these keys; locked until the transaction ends when asked. */
    getMany(accountId: string, keys: readonly RecordKey[], options: { forUpdate?: boolean } = {}) {
      if (keys.length === 0) return Promise.resolve([]);
      return db.query<CustomerRow>(
        `${SELECT} join json_to_recordset($2::json) as k(s uuid, i text)
           on c.data_source_id = k.s and c.customer_id = k.i
         where c.account_id = $1 ${ORDER}${options.forUpdate ? ' for update of c' : ''}`,
        [accountId, keysJson(keys)],
      );
    },

    /** Writes whole customers, replacing those with the same key. */
    async upsertMany(accountId: string, customers: readonly CustomerRow[]): Promise<void> {
      await bulkWrite(
        db,
        accountId,
        {
          table: 'customers',
          columns: { data_source_id: 'uuid', customer_id: 'text', ...VALUE_COLUMNS },
          conflictKey: ['data_source_id', 'customer_id'],
        },
        customers.map(({ id, data_source, ...values }) => ({
          data_source_id: data_source,
          customer_id: id,
          ...values,
        })),
      );
    },
  };
}
