import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { dateTime } from '../format.js';
import type { DataSource, ImportProgress } from '../sources.js';
import { ErrorText, useActions } from './form.js';

/** How often the progress is read again while an import runs. */
export const POLL_MS = 1000;

const PHASES: Record<ImportProgress['phase'], string> = {
  idle: 'Not imported yet',
  processing: 'Importing',
  done: 'Imported',
  aborted: 'Aborted',
  error: 'Failed',
};

/**
 * The import of a connector source: a progress bar read from the API, again every second while
 * the phase is `processing`, and the Full import, Abort and Reset buttons (disabled for a
 * member who may not change the source, as the API refuses them).
 */
export function ImportControl(props: {
  source: DataSource;
  canChange: boolean;
  /** Changed by the page when something else (a connection) started an import: read again. */
  refresh?: number;
}) {
  const { source, canChange } = props;
  const [progress, setProgress] = useState<ImportProgress>();
  const [loadError, setLoadError] = useState<string>();
  const [round, setRound] = useState(0);
  const reload = () => setRound((n) => n + 1);
  const actions = useActions(reload);
  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    api.get<ImportProgress>(`/data/data-sources/${source.id}/progress`).then(
      (answer) => {
        if (!current) return;
        setProgress(answer);
        setLoadError(undefined);
        if (answer.phase === 'processing') timer = setTimeout(reload, POLL_MS);
      },
      (error: unknown) => current && setLoadError(error instanceof ApiError ? error.message : String(error)),
    );
    return () => {
      current = false;
      if (timer) clearTimeout(timer);
    };
  }, [source.id, round, props.refresh]);

  const post = (action: string) => () =>
    actions.run(() => api.post(`/data/data-sources/${source.id}/${action}`));
  const running = progress?.phase === 'processing';
  const disabled = !canChange || actions.busy || !progress;
  return (
    <div class="import" data-import={source.id} data-phase={progress?.phase ?? ''}>
      {loadError && <p class="error">The progress could not be read: {loadError}</p>}
      {progress && (
        <>
          <div class="import-bar">
            <progress
              max={100}
              value={progress.percent}
              aria-label={`Import of ${source.name}`}
              aria-valuetext={`${progress.percent}%`}
            />
            <span>
              <strong>{PHASES[progress.phase]}</strong> {progress.percent}%
            </span>
          </div>
          <p class="hint">
            {progress.enqueuedCount} read, {progress.processedCount} stored, {progress.failedCount} refused
            {progress.startedAt && ` · started ${dateTime(progress.startedAt)}`}
            {progress.finishedAt && ` · finished ${dateTime(progress.finishedAt)}`}
          </p>
          {progress.lastError && <p class="error">{progress.lastError}</p>}
        </>
      )}
      <div class="row">
        <button type="button" class="secondary" disabled={disabled || running} onClick={post('full-import')}>
          Full import
        </button>
        <button type="button" class="secondary" disabled={disabled || !running} onClick={post('abort')}>
          Abort
        </button>
        <button
          type="button"
          class="danger"
          disabled={disabled || running}
          onClick={() =>
            confirm(`Reset "${source.name}"? Its imported records are deleted; the connection stays.`) &&
            post('reset')()
          }
        >
          Reset
        </button>
      </div>
      <ErrorText message={actions.error} />
    </div>
  );
}
