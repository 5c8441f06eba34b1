import { randomUUID } from 'node:crypto';
import type { UploadKind } from '../engine/vocabulary.js';
import type { Store } from '../store/open-store.js';
import type { ColumnMapping, RowError, UploadFormat, UploadRow } from '../store/uploads-repo.js';
import type { ItemResult } from './bulk-import.js';
import type { Clock } from './clock.js';
import type { ImportIn } from './connector-pages.js';
import { type CurrencyCheck, currencyChecker } from './currency-check.js';
import type { CustomersService } from './customers-service.js';
import { ConflictError, InvalidInputError, NotFoundError } from './errors.js';
import type { FxService } from './fx-service.js';
import type { InvoicesService } from './invoices-service.js';
import type { PlansService } from './plans-service.js';
import { itemsFromRows, refusalPlace, type RowItem } from './record-rows.js';
import type { SubscriptionsService } from './subscriptions-service.js';
import { readUploadedFile } from './upload-files.js';
import { checkMapping, columnOf, mappedRows, suggestMapping, UPLOAD_FIELDS } from './upload-mapping.js';

/** Rows shown before the import, for the mapping. */
export const PREVIEW_ROWS = 20;
/** Records stored per transaction; each batch commits with the progress after it. */
export const UPLOAD_BATCH_ITEMS = 500;
/** Row errors an upload keeps to show; beyond them only their count grows. */
export const MAX_KEPT_ROW_ERRORS = 1000;
/** How long an upload is kept after it was made. */
export const UPLOAD_RETENTION_DAYS = 7;

/** Data sources whose records a file may fill: not a billing system's, whose next sync would undo it. */
const UPLOADABLE_SOURCES = ['csv', 'api', 'spreadsheet'];

export interface UploadView {
  id: string;
  data_source: string;
  kind: UploadKind;
  format: UploadFormat;
  state: UploadRow['state'];
  columns: string[];
  /** The kind's fields a column can fill (customers also take `custom_<key>`). */
  fields: string[];
  mapping: ColumnMapping;
  preview: { row: number; cells: string[] }[];
  rows_total: number;
  rows_done: number;
  rows_imported: number;
  percent: number;
  errors: RowError[];
  error_count: number;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

interface Task {
  controller: AbortController;
  done: Promise<void>;
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`Upload ${id} not found`);
}

/** The row errors of one batch's results, each placed at the row and column it concerns. */
function rowErrors(
  items: readonly RowItem[],
  results: readonly ItemResult[],
  mapping: ColumnMapping,
): RowError[] {
  return results.flatMap((result, index) => {
    if (result.import_status !== 'error') return [];
    const message = result.import_error ?? 'Refused';
    const place = refusalPlace(items[index]!, message);
    return [{ row: place.row, column: columnOf(mapping, place.field), message }];
  });
}

/**
 * Uploaded CSV and XLSX files: read into rows at upload, previewed, mapped column by column to
 * a record kind's fields, and imported in the background through the same use cases as the
 * `/data` routes, so a row is validated and upserted as a POSTed record is.
 */
export function createUploadsService(
  store: Store,
  clock: Clock,
  fx: FxService,
  services: {
    customers: CustomersService;
    plans: PlansService;
    subscriptions: SubscriptionsService;
    invoices: InvoicesService;
  },
  /** Told after a batch was stored, once its transaction committed (a refresh starts). */
  afterWrite: (accountId: string) => void = () => {},
) {
  const writers: Record<UploadKind, ImportIn> = {
    customers: services.customers.importIn,
    plans: services.plans.importIn,
    subscriptions: services.subscriptions.importIn,
    invoices: services.invoices.importIn,
  };
  const tasks = new Map<string, Task>();

  async function uploadOf(accountId: string, id: string): Promise<UploadRow> {
    const row = await store.uploads.get(accountId, id);
    if (!row) throw notFound(id);
    return row;
  }

  async function view(row: UploadRow): Promise<UploadView> {
    const preview = await store.uploads.rows(row.account_id, row.upload_id, PREVIEW_ROWS);
    return {
      id: row.upload_id,
      data_source: row.data_source_id,
      kind: row.kind,
      format: row.format,
      state: row.state,
      columns: row.columns,
      fields: [...UPLOAD_FIELDS[row.kind]],
      mapping: row.mapping,
      preview: preview.map((fileRow) => ({ row: fileRow.line, cells: fileRow.cells })),
      rows_total: row.row_count,
      rows_done: row.rows_done,
      rows_imported: row.rows_imported,
      percent: row.row_count === 0 ? 100 : Math.floor((row.rows_done * 100) / row.row_count),
      errors: row.errors,
      error_count: row.error_count,
      last_error: row.last_error,
      created_at: row.created_at,
      finished_at: row.finished_at,
    };
  }

  /** Stores one batch and the progress after it, unless the import was restarted or deleted meanwhile. */
  async function storeBatch(
    upload: UploadRow,
    batch: readonly RowItem[],
    progress: { itemsDone: number; keptSoFar: number; extra: RowError[] },
    check: CurrencyCheck,
  ): Promise<RowError[] | false> {
    const stored = await store.transaction(async (tx) => {
      const current = await tx.uploads.get(upload.account_id, upload.upload_id, { forUpdate: true });
      if (current?.state !== 'running' || current.items_done !== progress.itemsDone - batch.length)
        return false;
      const items = batch.map((rowItem) => ({ ...rowItem.item, data_source: upload.data_source_id }));
      const results =
        items.length === 0 ? [] : await writers[upload.kind](tx, upload.account_id, items, check);
      const errors = [...progress.extra, ...rowErrors(batch, results, upload.mapping)];
      const imported = results.reduce(
        (sum, result, index) => sum + (result.import_status === 'error' ? 0 : batch[index]!.rows.length),
        0,
      );
      await tx.uploads.checkpoint(upload.account_id, upload.upload_id, {
        rows: batch.reduce((sum, rowItem) => sum + rowItem.rows.length, 0) + progress.extra.length,
        itemsDone: progress.itemsDone,
        imported,
        kept: errors.slice(0, Math.max(0, MAX_KEPT_ROW_ERRORS - progress.keptSoFar)),
        errorCount: errors.length,
      });
      return errors;
    });
    if (stored) afterWrite(upload.account_id);
    return stored;
  }

  /**
   * Imports the upload's records from the first not yet stored, a batch per transaction. The
   * rows are read and grouped into records again on each run (a resumed one too): an invoice's
   * rows may lie anywhere in the file, and grouping is deterministic, so the positions agree.
   */
  async function run(accountId: string, uploadId: string, signal: AbortSignal): Promise<void> {
    const upload = await store.uploads.get(accountId, uploadId);
    if (upload?.state !== 'running') return;
    const rows = await store.uploads.rows(accountId, uploadId);
    const fieldRows = mappedRows(upload.columns, upload.mapping, rows);
    const { items, problems } = itemsFromRows(upload.kind, fieldRows);
    const check = await currencyChecker(fx);
    let kept = Math.min(upload.error_count, MAX_KEPT_ROW_ERRORS);
    // The rows that make no record are reported with the first batch.
    let extra: RowError[] =
      upload.items_done === 0
        ? problems.map((problem) => ({
            row: problem.row,
            column: columnOf(upload.mapping, problem.field),
            message: problem.message,
          }))
        : [];
    for (
      let start = upload.items_done;
      start < items.length || extra.length > 0;
      start += UPLOAD_BATCH_ITEMS
    ) {
      if (signal.aborted) return;
      const batch = items.slice(start, start + UPLOAD_BATCH_ITEMS);
      const errors = await storeBatch(
        upload,
        batch,
        { itemsDone: start + batch.length, keptSoFar: kept, extra },
        check,
      );
      if (errors === false) return;
      kept += errors.length;
      extra = [];
    }
    await store.uploads.finish(accountId, uploadId, {
      state: 'done',
      error: null,
      now: clock.now().toISOString(),
    });
  }

  function launch(accountId: string, uploadId: string): void {
    const controller = new AbortController();
    const done = run(accountId, uploadId, controller.signal)
      .catch((error: unknown) =>
        store.uploads.finish(accountId, uploadId, {
          state: 'error',
          error: error instanceof Error ? error.message : String(error),
          now: clock.now().toISOString(),
        }),
      )
      // A store that fails while the error is written leaves the upload `running`, to be resumed.
      .catch(() => {})
      .finally(() => tasks.delete(uploadId));
    tasks.set(uploadId, { controller, done });
  }

  return {
    /** Reads a file into a new upload of the data source, with the mapping it suggests. */
    async create(
      accountId: string,
      input: { dataSourceId: string; kind: UploadKind; format: UploadFormat; bytes: Buffer },
    ): Promise<UploadView> {
      const source = await store.dataSources.get(accountId, input.dataSourceId);
      if (!source) throw new NotFoundError(`Data source ${input.dataSourceId} not found`);
      if (!UPLOADABLE_SOURCES.includes(source.type)) {
        throw new InvalidInputError(
          `Files go into a data source of type ${UPLOADABLE_SOURCES.join(', ')}; ${source.name} is ${source.type}`,
        );
      }
      const file = await readUploadedFile(input.bytes, input.format);
      const now = clock.now();
      const row = await store.transaction(async (tx) => {
        const before = new Date(now.getTime() - UPLOAD_RETENTION_DAYS * 86_400_000).toISOString();
        await tx.uploads.deleteOlder(accountId, before);
        const saved = await tx.uploads.savedMapping(accountId, input.dataSourceId, input.kind);
        return tx.uploads.insert({
          accountId,
          uploadId: randomUUID(),
          dataSourceId: input.dataSourceId,
          kind: input.kind,
          format: input.format,
          columns: file.columns,
          rows: file.rows,
          mapping: suggestMapping(input.kind, file.columns, saved),
          now: now.toISOString(),
        });
      });
      return view(row);
    },

    async get(accountId: string, id: string): Promise<UploadView> {
      return view(await uploadOf(accountId, id));
    },

    /** Sets the upload's mapping and saves it as the data source's for this kind of file. */
    async setMapping(accountId: string, id: string, mapping: ColumnMapping): Promise<UploadView> {
      const row = await store.transaction(async (tx) => {
        const upload = await tx.uploads.get(accountId, id, { forUpdate: true });
        if (!upload) throw notFound(id);
        if (upload.state === 'running')
          throw new ConflictError('The upload is being imported; wait for it to end');
        checkMapping(upload.kind, upload.columns, mapping);
        await tx.uploads.setMapping(accountId, id, mapping);
        const now = clock.now().toISOString();
        await tx.uploads.saveMapping(accountId, upload.data_source_id, upload.kind, mapping, now);
        return { ...upload, mapping };
      });
      return view(row);
    },

    /** Starts importing the rows in the background; again from the first row when run before. */
    async startImport(accountId: string, id: string): Promise<UploadView> {
      await store.transaction(async (tx) => {
        const upload = await tx.uploads.get(accountId, id, { forUpdate: true });
        if (!upload) throw notFound(id);
        if (upload.state === 'running') throw new ConflictError('The upload is already being imported');
        checkMapping(upload.kind, upload.columns, upload.mapping);
        await tx.uploads.start(accountId, id);
      });
      // Read before the task starts, so the answer shows the import running, however fast it ends.
      const started = await view(await uploadOf(accountId, id));
      launch(accountId, id);
      return started;
    },

    /** Resolves when the upload's import task, if any, has ended (tests and shutdown). */
    settled(uploadId: string): Promise<void> {
      return tasks.get(uploadId)?.done ?? Promise.resolve();
    },

    /** At start: imports a stopped process left running go on after their last stored batch. */
    async resumeRunning(): Promise<number> {
      const running = await store.uploads.listRunning();
      for (const upload of running) launch(upload.account_id, upload.upload_id);
      return running.length;
    },

    /** Stops every import between batches; they stay `running`, to resume at the next start. */
    async close(): Promise<void> {
      const all = [...tasks.values()];
      for (const task of all) task.controller.abort();
      await Promise.all(all.map((task) => task.done));
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
