import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { dateTime } from '../format.js';
import type { DataSource } from '../sources.js';
import { UPLOAD_KINDS, type UploadKind } from '../uploads.js';
import { ErrorText, useSubmit } from './form.js';
import { POLL_MS } from './import-progress.js';

/** `GET /data/data-sources/{id}/sheets`: a spreadsheet source's sheet per kind and its last sync. */
interface Sheet {
  kind: UploadKind;
  url: string;
  last_upload: string | null;
  last_synced_at: string | null;
  last_error: string | null;
}

const KINDS = Object.keys(UPLOAD_KINDS) as UploadKind[];

/** What a sync changes: a new upload, time or error. */
function outcome(sheet: Sheet): string {
  return JSON.stringify([sheet.last_upload, sheet.last_synced_at, sheet.last_error]);
}

function sheetsPath(source: DataSource): string {
  return `/data/data-sources/${source.id}/sheets`;
}

/**
 * A spreadsheet source's published sheets: an address per kind (empty: none), saved together,
 * "Sync now", and how each sheet's last sync went. After a sync is asked for, the sheets are read
 * again every second until every sheet shows another outcome than before it (the server's clock
 * decides the times, so they are compared with what it said before, not with the browser's).
 */
export function SheetsControl(props: { source: DataSource; canChange: boolean }) {
  const { source } = props;
  const [sheets, setSheets] = useState<Sheet[]>();
  const [urls, setUrls] = useState<Partial<Record<UploadKind, string>>>({});
  // While a sync runs: each sheet's outcome as it was when the sync was asked for.
  const [before, setBefore] = useState<Map<UploadKind, string>>();
  const [loadError, setLoadError] = useState<string>();

  const show = (answer: Sheet[]) => {
    setSheets(answer);
    setUrls(Object.fromEntries(answer.map((sheet) => [sheet.kind, sheet.url])));
  };
  useEffect(() => {
    api.get<{ result: Sheet[] }>(sheetsPath(source)).then(
      (answer) => show(answer.result),
      (error: unknown) => setLoadError(error instanceof ApiError ? error.message : String(error)),
    );
  }, [source.id]);
  useEffect(() => {
    if (before === undefined) return;
    const timer = setTimeout(() => {
      void api.get<{ result: Sheet[] }>(sheetsPath(source)).then((answer) => {
        setSheets(answer.result);
        if (answer.result.every((sheet) => outcome(sheet) !== before.get(sheet.kind))) setBefore(undefined);
      });
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [before, sheets]);

  const save = useSubmit(async () => {
    const body = Object.fromEntries(KINDS.map((kind) => [kind, urls[kind]?.trim() || null]));
    show((await api.put<{ result: Sheet[] }>(sheetsPath(source), body)).result);
  });
  const sync = useSubmit(async () => {
    setBefore(new Map((sheets ?? []).map((sheet) => [sheet.kind, outcome(sheet)])));
    await api.post(`/data/data-sources/${source.id}/sync`);
  });

  const status = (sheet: Sheet | undefined) => {
    if (!sheet?.last_synced_at) return 'Not synced yet';
    return `${sheet.last_error ? 'Failed' : 'Synced'} ${dateTime(sheet.last_synced_at)}`;
  };
  return (
    <form
      class="sheets"
      data-sheets={source.id}
      data-syncing={before ? 'yes' : 'no'}
      onSubmit={save.onSubmit}
    >
      {loadError && <p class="error">The sheets could not be read: {loadError}</p>}
      {KINDS.map((kind) => {
        const sheet = sheets?.find((candidate) => candidate.kind === kind);
        return (
          <div class="sheet" key={kind} data-kind={kind}>
            <input
              type="url"
              aria-label={`${UPLOAD_KINDS[kind]} sheet`}
              placeholder={`${UPLOAD_KINDS[kind]}: published CSV address`}
              value={urls[kind] ?? ''}
              // Until the saved sheets are read, what is typed would be replaced by them.
              disabled={!props.canChange || sheets === undefined}
              onInput={(e) => setUrls({ ...urls, [kind]: e.currentTarget.value })}
            />
            {sheet && (
              <small class={sheet.last_error ? 'error' : 'muted'}>
                {status(sheet)}
                {sheet.last_error && `: ${sheet.last_error}`}
              </small>
            )}
          </div>
        );
      })}
      <div class="row">
        <button type="submit" class="secondary" disabled={!props.canChange || save.busy}>
          Save sheets
        </button>
        <button
          type="button"
          class="secondary"
          disabled={!props.canChange || sync.busy || before !== undefined || !sheets?.length}
          onClick={sync.onSubmit}
        >
          Sync now
        </button>
      </div>
      <ErrorText message={save.error ?? sync.error} />
    </form>
  );
}
