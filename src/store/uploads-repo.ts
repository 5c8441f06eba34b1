import type { UploadKind } from '../engine/vocabulary.js';
import { bulkWrite } from './bulk-write.js';
import type { Queryable } from './db.js';

export type UploadFormat = 'csv' | 'xlsx';
export type UploadState = 'uploaded' | 'running' | 'done' | 'error';

/** A file column mapped to the record field its cells fill. */
export type ColumnMapping = Record<string, string>;

/** A problem with one row of a file: its row number (the header is row 1) and column, if known. */
export interface RowError {
  row: number;
  column: string | null;
  message: string;
}

export interface UploadRow {
  account_id: string;
  upload_id: string;
  data_source_id: string;
  kind: UploadKind;
  format: UploadFormat;
  columns: string[];
  row_count: number;
  mapping: ColumnMapping;
  state: UploadState;
  rows_done: number;
  items_done: number;
  rows_imported: number;
  errors: RowError[];
  error_count: number;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface FileRow {
  line: number;
  cells: string[];
}

const COLUMNS = `account_id, upload_id, data_source_id, kind, format, columns, row_count, mapping, state,
  rows_done, items_done, rows_imported, errors, error_count, last_error, created_at, finished_at`;

export function uploadsRepo(db: Queryable) {
  return {
    async insert(upload: {
      accountId: string;
      uploadId: string;
      dataSourceId: string;
      kind: UploadKind;
      format: UploadFormat;
      columns: string[];
      rows: FileRow[];
      mapping: ColumnMapping;
      now: string;
    }): Promise<UploadRow> {
      const [row] = await db.query<UploadRow>(
        `insert into uploads (account_id, upload_id, data_source_id, kind, format, columns, row_count, mapping,
           state, created_at)
         values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8::jsonb, 'uploaded', $9)
         returning ${COLUMNS}`,
        [
          upload.accountId,
          upload.uploadId,
          upload.dataSourceId,
          upload.kind,
          upload.format,
          JSON.stringify(upload.columns),
          upload.rows.length,
          JSON.stringify(upload.mapping),
          upload.now,
        ],
      );
      await bulkWrite(
        db,
        upload.accountId,
        { table: 'upload_rows', columns: { upload_id: 'uuid', line: 'integer', cells: 'jsonb' } },
        upload.rows.map((fileRow) => ({
          upload_id: upload.uploadId,
          line: fileRow.line,
          cells: fileRow.cells,
        })),
      );
      return row!;
    },

    async get(
      accountId: string,
      uploadId: string,
      options: { forUpdate?: boolean } = {},
    ): Promise<UploadRow | undefined> {
      const [row] = await db.query<UploadRow>(
        `select ${COLUMNS} from uploads where account_id = $1 and upload_id = $2 ${options.forUpdate ? 'for update' : ''}`,
        [accountId, uploadId],
      );
      return row;
    },

    /** The file's rows in file order; the first `limit` of them when given. */
    async rows(accountId: string, uploadId: string, limit?: number): Promise<FileRow[]> {
      return db.query<FileRow>(
        `select line, cells from upload_rows where account_id = $1 and upload_id = $2 order by line
         limit $3`,
        [accountId, uploadId, limit ?? null],
      );
    },

    async setMapping(accountId: string, uploadId: string, mapping: ColumnMapping): Promise<void> {
      await db.query('update uploads set mapping = $3::jsonb where account_id = $1 and upload_id = $2', [
        accountId,
        uploadId,
        JSON.stringify(mapping),
      ]);
    },

    /** Starts (or starts again) the import from the first row. */
    async start(accountId: string, uploadId: string): Promise<void> {
      await db.query(
        `update uploads set state = 'running', rows_done = 0, items_done = 0, rows_imported = 0, errors = '[]',
           error_count = 0, last_error = null, finished_at = null
         where account_id = $1 and upload_id = $2`,
        [accountId, uploadId],
      );
    },

    /**
     * Records a stored batch: the rows it read, those imported, the row errors to keep and how
     * many there were in all.
     */
    async checkpoint(
      accountId: string,
      uploadId: string,
      batch: { rows: number; itemsDone: number; imported: number; kept: RowError[]; errorCount: number },
    ): Promise<void> {
      await db.query(
        `update uploads set rows_done = rows_done + $3, items_done = $4, rows_imported = rows_imported + $5,
           errors = errors || $6::jsonb, error_count = error_count + $7
         where account_id = $1 and upload_id = $2`,
        [
          accountId,
          uploadId,
          batch.rows,
          batch.itemsDone,
          batch.imported,
          JSON.stringify(batch.kept),
          batch.errorCount,
        ],
      );
    },

    /** Ends the import; a finished one has been through every row. */
    async finish(
      accountId: string,
      uploadId: string,
      end: { state: 'done' | 'error'; error: string | null; now: string },
    ): Promise<void> {
      await db.query(
        `update uploads set state = $3, last_error = $4, finished_at = $5,
           rows_done = case when $3 = 'done' then row_count else rows_done end
         where account_id = $1 and upload_id = $2`,
        [accountId, uploadId, end.state, end.error, end.now],
      );
    },

    async listRunning(): Promise<{ account_id: string; upload_id: string }[]> {
      return db.query(`select account_id, upload_id from uploads where state = 'running'`);
    },

    /** Deletes one upload with its rows; an import running on it must have ended. */
    async delete(accountId: string, uploadId: string): Promise<void> {
      await db.query('delete from uploads where account_id = $1 and upload_id = $2', [accountId, uploadId]);
    },

    /** Deletes the account's uploads made before `before`, with their rows. */
    async deleteOlder(accountId: string, before: string): Promise<void> {
      await db.query('delete from uploads where account_id = $1 and created_at < $2', [accountId, before]);
    },

    async savedMapping(
      accountId: string,
      dataSourceId: string,
      kind: UploadKind,
    ): Promise<ColumnMapping | undefined> {
      const [row] = await db.query<{ mapping: ColumnMapping }>(
        'select mapping from upload_mappings where account_id = $1 and data_source_id = $2 and kind = $3',
        [accountId, dataSourceId, kind],
      );
      return row?.mapping;
    },

    async saveMapping(
      accountId: string,
      dataSourceId: string,
      kind: UploadKind,
      mapping: ColumnMapping,
      now: string,
    ): Promise<void> {
      await db.query(
        `insert into upload_mappings (account_id, data_source_id, kind, mapping, updated_at)
         values ($1, $2, $3, $4::jsonb, $5)
         on conflict (account_id, data_source_id, kind) do update set mapping = excluded.mapping,
           updated_at = excluded.updated_at`,
        [accountId, dataSourceId, kind, JSON.stringify(mapping), now],
      );
    },
  };
}
