import type { UploadKind } from '../engine/vocabulary.js';
import type { Store } from '../store/open-store.js';
import type { SheetRow } from '../store/spreadsheet-sheets-repo.js';
import type { Clock } from './clock.js';
import { ConflictError, InvalidInputError, NotFoundError } from './errors.js';
import { type OutboundPolicy, type OutboundResponse, outboundRequest, refusedUrl } from './outbound-http.js';
import type { UploadsService } from './uploads-service.js';

/** Google Sheets' "Publish to the web" CSV addresses start here. */
export const DEFAULT_SPREADSHEET_BASE_URL = 'https://docs.google.com/spreadsheets/';

/** Reference order: customers and plans before the subscriptions and invoices that name them. */
const SYNC_ORDER: readonly UploadKind[] = ['customers', 'plans', 'subscriptions', 'invoices'];

/** How long one sheet may take to arrive. */
const FETCH_TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 5;

/**
 * Whether `url` lies under `base`: the same origin, and a path that starts with the base's once
 * both are normalised, so `..` segments cannot climb out of it.
 */
export function underBase(url: string, base: string): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  const root = new URL(base);
  const prefix = root.pathname.endsWith('/') ? root.pathname : `${root.pathname}/`;
  return (
    target.origin === root.origin && (target.pathname === root.pathname || target.pathname.startsWith(prefix))
  );
}

export interface SpreadsheetSettings {
  /** Sheet addresses must start with it: the server fetches nothing else. */
  baseUrl: string;
  /** The most bytes one sheet may have, as an uploaded file. */
  maxBytes: number;
  /** Which addresses sheets (and their redirects) may be read from. */
  policy: OutboundPolicy;
}

export interface SheetView {
  kind: UploadKind;
  url: string;
  /** The upload the last sync made: its mapping, progress and row errors. */
  last_upload: string | null;
  last_synced_at: string | null;
  last_error: string | null;
}

function viewOf(row: SheetRow): SheetView {
  return {
    kind: row.kind,
    url: row.url,
    last_upload: row.last_upload_id,
    last_synced_at: row.last_synced_at,
    last_error: row.last_error,
  };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A `spreadsheet` data source reads the CSV export of published sheets, one per record kind,
 * on a schedule and on demand. Each read is an upload of the source (the same mapping, saved per
 * kind, and the same row errors), imported at once: records are upserted by id, so a sync
 * creates no duplicates, and a row gone from the sheet leaves its record as it was.
 */
export function createSpreadsheetSync(
  store: Store,
  clock: Clock,
  uploads: UploadsService,
  settings: SpreadsheetSettings,
) {
  const running = new Map<string, Promise<void>>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let closing = false;

  async function spreadsheetSource(accountId: string, dataSourceId: string): Promise<void> {
    const source = await store.dataSources.get(accountId, dataSourceId);
    if (!source) throw new NotFoundError(`Data source ${dataSourceId} not found`);
    if (source.type !== 'spreadsheet') {
      throw new ConflictError(
        `${source.name} is a ${source.type} source; sheets belong to spreadsheet sources`,
      );
    }
  }

  /**
   * The sheet's bytes, read no further than the size a file may have. Redirects are followed by
   * hand (published sheets redirect to their file host), at most a few and only to https or to
   * the base address's own origin, so a sheet address cannot lead to a plain-http internal service;
   * each hop is a request under the outbound policy, so none reaches a private address either.
   */
  async function fetchSheet(url: string): Promise<Buffer> {
    if (!underBase(url, settings.baseUrl))
      throw new Error(`The sheet at ${url} is not under ${settings.baseUrl}`);
    let address = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await outboundRequest(address, {
        method: 'GET',
        timeoutMs: FETCH_TIMEOUT_MS,
        policy: settings.policy,
      });
      const location = response.header('location');
      if (response.status >= 300 && response.status < 400 && location !== undefined) {
        response.discard();
        const next = new URL(location, address);
        if (next.protocol !== 'https:' && next.origin !== new URL(settings.baseUrl).origin)
          throw new Error(
            `The sheet at ${url} redirects to ${next.origin}, which is neither https nor its own server`,
          );
        address = next.href;
        continue;
      }
      if (response.status < 200 || response.status >= 300)
        throw new Error(`The sheet at ${url} answered HTTP ${response.status}`);
      return readCapped(response, url);
    }
    throw new Error(`The sheet at ${url} redirects more than ${MAX_REDIRECTS} times`);
  }

  async function readCapped(response: OutboundResponse, url: string): Promise<Buffer> {
    const { bytes, complete } = await response.read(settings.maxBytes);
    if (!complete)
      throw new Error(`The sheet at ${url} has more than the ${settings.maxBytes} bytes a file may have`);
    return bytes;
  }

  /** Reads one sheet into an upload and imports it; answers the upload and why it failed, if it did. */
  async function syncSheet(sheet: SheetRow): Promise<{ uploadId: string | null; error: string | null }> {
    let uploadId: string | null = null;
    try {
      const upload = await uploads.create(sheet.account_id, {
        dataSourceId: sheet.data_source_id,
        kind: sheet.kind,
        format: 'csv',
        bytes: await fetchSheet(sheet.url),
      });
      uploadId = upload.id;
      await uploads.startImport(sheet.account_id, upload.id).catch((error: unknown) => {
        throw error instanceof InvalidInputError
          ? new Error(`${error.message}: set it with PUT /data/uploads/${upload.id}/mapping`)
          : error;
      });
      await uploads.settled(upload.id);
      return { uploadId, error: (await uploads.get(sheet.account_id, upload.id)).last_error };
    } catch (error) {
      return { uploadId, error: message(error) };
    }
  }

  async function syncSource(accountId: string, dataSourceId: string): Promise<void> {
    const sheets = await store.spreadsheetSheets.list(accountId, dataSourceId);
    for (const kind of SYNC_ORDER) {
      if (closing) return;
      const sheet = sheets.find((candidate) => candidate.kind === kind);
      if (!sheet) continue;
      const result = await syncSheet(sheet);
      await store.spreadsheetSheets.saveSync(accountId, dataSourceId, kind, {
        ...result,
        at: clock.now().toISOString(),
      });
      // Each sync keeps only its own copy of the sheet's rows: an hourly sync would otherwise
      // hold a week of full copies until uploads expire.
      if (sheet.last_upload_id !== null && sheet.last_upload_id !== result.uploadId)
        await store.uploads.delete(accountId, sheet.last_upload_id);
    }
  }

  /** Starts a sync of the source unless one runs; answers when it has ended. */
  function launch(accountId: string, dataSourceId: string): Promise<void> {
    const key = `${accountId}/${dataSourceId}`;
    const current = running.get(key);
    if (current) return current;
    const done = syncSource(accountId, dataSourceId)
      // A store failure leaves the sheets as the last sync left them; the next sync tries again.
      .catch(() => {})
      .finally(() => running.delete(key));
    running.set(key, done);
    return done;
  }

  async function syncAll(): Promise<void> {
    for (const source of await store.spreadsheetSheets.sources()) {
      await launch(source.account_id, source.data_source_id);
    }
  }

  return {
    async sheets(accountId: string, dataSourceId: string): Promise<SheetView[]> {
      await spreadsheetSource(accountId, dataSourceId);
      return (await store.spreadsheetSheets.list(accountId, dataSourceId)).map(viewOf);
    },

    /** Sets or (with null) removes the sheet of each kind given; kinds left out stay as they are. */
    async setSheets(
      accountId: string,
      dataSourceId: string,
      urls: Partial<Record<UploadKind, string | null>>,
    ): Promise<SheetView[]> {
      await spreadsheetSource(accountId, dataSourceId);
      for (const [kind, url] of Object.entries(urls)) {
        if (!url) continue;
        if (!underBase(url, settings.baseUrl)) {
          throw new InvalidInputError(
            `The ${kind} sheet must be an address starting with ${settings.baseUrl}`,
          );
        }
        const refusal = refusedUrl(url, settings.policy);
        if (refusal !== null) throw new InvalidInputError(`The ${kind} sheet's address ${refusal}`);
      }
      await store.transaction(async (tx) => {
        for (const [kind, url] of Object.entries(urls) as [UploadKind, string | null][]) {
          if (url) await tx.spreadsheetSheets.set(accountId, dataSourceId, kind, url);
          else await tx.spreadsheetSheets.remove(accountId, dataSourceId, kind);
        }
      });
      return (await store.spreadsheetSheets.list(accountId, dataSourceId)).map(viewOf);
    },

    /** Reads every sheet of the source again, in the background. */
    async sync(accountId: string, dataSourceId: string): Promise<void> {
      await spreadsheetSource(accountId, dataSourceId);
      void launch(accountId, dataSourceId);
    },

    /** Resolves when the source's sync, if one runs, has ended (tests and shutdown). */
    settled(accountId: string, dataSourceId: string): Promise<void> {
      return running.get(`${accountId}/${dataSourceId}`) ?? Promise.resolve();
    },

    /** Every spreadsheet source with a sheet, one after the other. */
    syncAll,

    /** Syncs every source every `intervalMs`; 0: never. */
    start(intervalMs: number): void {
      if (intervalMs <= 0 || timer) return;
      timer = setInterval(() => void syncAll().catch(() => {}), intervalMs);
      timer.unref();
    },

    /**
     * Stops the schedule and waits for the syncs under way, which read no further sheet. Call it
     * with the uploads' `close`, which ends the import a sync waits for.
     */
    async close(): Promise<void> {
      closing = true;
      clearInterval(timer);
      timer = undefined;
      await Promise.all(running.values());
    },
  };
}

export type SpreadsheetSync = ReturnType<typeof createSpreadsheetSync>;
