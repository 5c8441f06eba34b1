import type { DataSourceType } from '../engine/vocabulary.js';
import type { Queryable } from './db.js';

export interface DataSourceRow {
  id: string;
  account_id: string;
  name: string;
  type: DataSourceType;
  created_at: string;
}

export interface ConnectionRow {
  external_account_id: string | null;
  external_account_name: string | null;
  livemode: boolean | null;
  connected_at: string | null;
  sync_status: 'syncing' | 'complete' | 'error' | null;
  last_sync_at: string | null;
  customers_imported: number;
  invoices_imported: number;
}

export const DEFAULT_SOURCE_NAME = 'API';
// Any fixed number, distinct from the other advisory locks of the store.
const DEFAULT_SOURCE_LOCK = 727_003;

const COLUMNS = 'data_source_id as id, account_id, name, type, created_at';

export function dataSourcesRepo(db: Queryable) {
  return {
    async insert(source: {
      accountId: string;
      dataSourceId: string;
      name: string;
      type: DataSourceType;
    }): Promise<DataSourceRow> {
      const [row] = await db.query<DataSourceRow>(
        `insert into data_sources (account_id, data_source_id, name, type) values ($1, $2, $3, $4)
         returning ${COLUMNS}`,
        [source.accountId, source.dataSourceId, source.name, source.type],
      );
      return row!;
    },

    async list(accountId: string, type?: DataSourceType): Promise<DataSourceRow[]> {
      return db.query<DataSourceRow>(
        `select ${COLUMNS} from data_sources where account_id = $1 and ($2::text is null or type = $2)
         order by created_at, data_source_id`,
        [accountId, type ?? null],
      );
    },

    async get(accountId: string, dataSourceId: string): Promise<DataSourceRow | undefined> {
      const [row] = await db.query<DataSourceRow>(
        `select ${COLUMNS} from data_sources where account_id = $1 and data_source_id = $2`,
        [accountId, dataSourceId],
      );
      return row;
    },

    async update(
      accountId: string,
      dataSourceId: string,
      changes: { name?: string; type?: DataSourceType },
    ): Promise<DataSourceRow | undefined> {
      const [row] = await db.query<DataSourceRow>(
        `update data_sources set name = coalesce($3, name), type = coalesce($4, type), updated_at = now()
         where account_id = $1 and data_source_id = $2 returning ${COLUMNS}`,
        [accountId, dataSourceId, changes.name ?? null, changes.type ?? null],
      );
      return row;
    },

    /**
     * The account's oldest `api` source named "API", where writes that name no data source go;
     * created with `newId` when absent. A per-account lock makes concurrent first writes agree.
     */
    async findOrCreateDefault(accountId: string, newId: string): Promise<string> {
      // Sent together; the look runs once the lock is held.
      const [, [existing]] = await Promise.all([
        db.query('select pg_advisory_xact_lock($1, hashtext($2))', [DEFAULT_SOURCE_LOCK, accountId]),
        db.query<{ data_source_id: string }>(
          `select data_source_id from data_sources where account_id = $1 and type = 'api' and name = $2
           order by created_at, data_source_id limit 1`,
          [accountId, DEFAULT_SOURCE_NAME],
        ),
      ]);
      if (existing) return existing.data_source_id;
      await db.query(
        `insert into data_sources (account_id, data_source_id, name, type) values ($1, $2, $3, 'api')`,
        [accountId, newId, DEFAULT_SOURCE_NAME],
      );
      return newId;
    },

    async delete(accountId: string, dataSourceId: string): Promise<boolean> {
      const rows = await db.query(
        'delete from data_sources where account_id = $1 and data_source_id = $2 returning data_source_id',
        [accountId, dataSourceId],
      );
      return rows.length > 0;
    },

    /** Records which account at the billing system the source is connected to. */
    async saveConnection(
      accountId: string,
      dataSourceId: string,
      external: { id: string; name: string | null; livemode: boolean; connectedAt: string },
    ): Promise<void> {
      await db.query(
        `update data_sources set external_account_id = $3, external_account_name = $4, livemode = $5,
           connected_at = $6, updated_at = now()
         where account_id = $1 and data_source_id = $2`,
        [accountId, dataSourceId, external.id, external.name, external.livemode, external.connectedAt],
      );
    },

    /** Forgets which account at the billing system the source was connected to; its records stay. */
    async clearConnection(accountId: string, dataSourceId: string): Promise<void> {
      await db.query(
        `update data_sources set external_account_id = null, external_account_name = null, livemode = null,
           connected_at = null, updated_at = now()
         where account_id = $1 and data_source_id = $2`,
        [accountId, dataSourceId],
      );
    },

    async saveSync(
      accountId: string,
      dataSourceId: string,
      sync: { status: 'syncing' | 'complete' | 'error'; at: string | null },
    ): Promise<void> {
      await db.query(
        `update data_sources set sync_status = $3, last_sync_at = coalesce($4, last_sync_at)
         where account_id = $1 and data_source_id = $2`,
        [accountId, dataSourceId, sync.status, sync.at],
      );
    },

    async addImported(
      accountId: string,
      dataSourceId: string,
      counts: { customers: number; invoices: number },
    ): Promise<void> {
      await db.query(
        `update data_sources set customers_imported = customers_imported + $3,
           invoices_imported = invoices_imported + $4
         where account_id = $1 and data_source_id = $2`,
        [accountId, dataSourceId, counts.customers, counts.invoices],
      );
    },

    /** Forgets the sync state and counts, keeping the connection. */
    async clearSync(accountId: string, dataSourceId: string): Promise<void> {
      await db.query(
        `update data_sources set sync_status = null, last_sync_at = null, customers_imported = 0,
           invoices_imported = 0
         where account_id = $1 and data_source_id = $2`,
        [accountId, dataSourceId],
      );
    },

    /** Deletes every record the source holds (invoices and subscriptions go with their customers). */
    async deleteRecords(accountId: string, dataSourceId: string): Promise<void> {
      for (const table of ['invoices', 'subscriptions', 'customers', 'plans']) {
        await db.query(`delete from ${table} where account_id = $1 and data_source_id = $2`, [
          accountId,
          dataSourceId,
        ]);
      }
    },

    /** The most recently connected source of a type, with its connection and sync state. */
    async connection(accountId: string, type: DataSourceType): Promise<ConnectionRow | undefined> {
      const [row] = await db.query<ConnectionRow>(
        `select external_account_id, external_account_name, livemode, connected_at, sync_status,
                last_sync_at, customers_imported, invoices_imported
         from data_sources where account_id = $1 and type = $2 and connected_at is not null
         order by connected_at desc limit 1`,
        [accountId, type],
      );
      return row;
    },
  };
}
