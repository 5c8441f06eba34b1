import type { UploadKind } from '../engine/vocabulary.js';
import type { Queryable } from './db.js';

export interface SheetRow {
  account_id: string;
  data_source_id: string;
  kind: UploadKind;
  url: string;
  last_upload_id: string | null;
  last_synced_at: string | null;
  last_error: string | null;
}

const COLUMNS = 'account_id, data_source_id, kind, url, last_upload_id, last_synced_at, last_error';

export function spreadsheetSheetsRepo(db: Queryable) {
  return {
    async list(accountId: string, dataSourceId: string): Promise<SheetRow[]> {
      return db.query<SheetRow>(
        `select ${COLUMNS} from spreadsheet_sheets where account_id = $1 and data_source_id = $2 order by kind`,
        [accountId, dataSourceId],
      );
    },

    /** Every source with a sheet, for the periodic sync. */
    async sources(): Promise<{ account_id: string; data_source_id: string }[]> {
      return db.query(
        'select distinct account_id, data_source_id from spreadsheet_sheets order by account_id, data_source_id',
      );
    },

    /** Sets a kind's address; a changed address forgets how the last sync of the old one went. */
    async set(accountId: string, dataSourceId: string, kind: UploadKind, url: string): Promise<void> {
      await db.query(
        `insert into spreadsheet_sheets (account_id, data_source_id, kind, url) values ($1, $2, $3, $4)
         on conflict (account_id, data_source_id, kind) do update set url = excluded.url,
           last_upload_id = case when spreadsheet_sheets.url = excluded.url then spreadsheet_sheets.last_upload_id end,
           last_synced_at = case when spreadsheet_sheets.url = excluded.url then spreadsheet_sheets.last_synced_at end,
           last_error = case when spreadsheet_sheets.url = excluded.url then spreadsheet_sheets.last_error end`,
        [accountId, dataSourceId, kind, url],
      );
    },

    async remove(accountId: string, dataSourceId: string, kind: UploadKind): Promise<void> {
      await db.query(
        'delete from spreadsheet_sheets where account_id = $1 and data_source_id = $2 and kind = $3',
        [accountId, dataSourceId, kind],
      );
    },

    async saveSync(
      accountId: string,
      dataSourceId: string,
      kind: UploadKind,
      result: { uploadId: string | null; at: string; error: string | null },
    ): Promise<void> {
      await db.query(
        `update spreadsheet_sheets set last_upload_id = coalesce($4, last_upload_id), last_synced_at = $5,
           last_error = $6
         where account_id = $1 and data_source_id = $2 and kind = $3`,
        [accountId, dataSourceId, kind, result.uploadId, result.at, result.error],
      );
    },
  };
}
