import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import type { DataSource } from '../sources.js';
import {
  fieldChoices,
  fileType,
  UPLOAD_KINDS,
  type Upload,
  type UploadKind,
  UPLOADABLE_TYPES,
} from '../uploads.js';
import { ErrorText, Field, useSubmit } from './form.js';
import { POLL_MS } from './import-progress.js';

const STATES: Record<Upload['state'], string> = {
  uploaded: 'Not imported yet',
  running: 'Importing',
  done: 'Imported',
  error: 'Failed',
};

/** The upload's progress, read again every second while it imports. */
function useUploadProgress(
  upload: Upload | undefined,
  setUpload: (upload: Upload) => void,
): string | undefined {
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (upload?.state !== 'running') return;
    let current = true;
    const timer = setTimeout(() => {
      api.get<Upload>(`/data/uploads/${upload.id}`).then(
        (answer) => current && setUpload(answer),
        (failure: unknown) =>
          current && setError(failure instanceof ApiError ? failure.message : String(failure)),
      );
    }, POLL_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [upload]);
  return error;
}

/** The preview, with a select per column for the field it fills ("Not imported" leaves it out). */
function MappingTable(props: {
  upload: Upload;
  mapping: Record<string, string>;
  onChange: (mapping: Record<string, string>) => void;
  disabled: boolean;
}) {
  const { upload, mapping } = props;
  const choose = (column: string, field: string) => {
    const { [column]: _dropped, ...others } = mapping;
    props.onChange(field === '' ? others : { ...others, [column]: field });
  };
  return (
    <div class="table-wrap">
      <table class="upload-preview">
        <thead>
          <tr>
            <th>Row</th>
            {upload.columns.map((column, index) => (
              <th key={index}>
                {column}
                <select
                  aria-label={`Field for column ${column}`}
                  value={mapping[column] ?? ''}
                  disabled={props.disabled || column === ''}
                  onChange={(e) => choose(column, e.currentTarget.value)}
                >
                  <option value="">Not imported</option>
                  {fieldChoices(upload, column).map((field) => (
                    <option key={field} value={field}>
                      {field}
                    </option>
                  ))}
                </select>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {upload.preview.map((row) => (
            <tr key={row.row}>
              <td>{row.row}</td>
              {row.cells.map((cell, index) => (
                <td key={index}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function UploadProgress({ upload }: { upload: Upload }) {
  return (
    <div class="import" data-upload={upload.id} data-state={upload.state}>
      <div class="import-bar">
        <progress
          max={100}
          value={upload.percent}
          aria-label="Import of the file"
          aria-valuetext={`${upload.percent}%`}
        />
        <span>
          <strong>{STATES[upload.state]}</strong> {upload.percent}%
        </span>
      </div>
      <p class="hint">
        {upload.rows_done} of {upload.rows_total} rows read, {upload.rows_imported} imported,{' '}
        {upload.error_count} refused
      </p>
      {upload.last_error && <p class="error">{upload.last_error}</p>}
      {upload.errors.length > 0 && (
        <table class="upload-errors">
          <thead>
            <tr>
              <th>Row</th>
              <th>Column</th>
              <th>Why it was refused</th>
            </tr>
          </thead>
          <tbody>
            {upload.errors.map((error, index) => (
              <tr key={index}>
                <td>{error.row}</td>
                <td>{error.column ?? '—'}</td>
                <td>{error.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/**
 * Settings → Data sources, "Upload a file": choose a source, a kind and a file; the preview
 * shows with the suggested mapping, each column's field is chosen, then the import runs and its
 * progress and refused rows show. Importing saves the mapping for the source's next file.
 */
export function FileUpload(props: { sources: DataSource[]; canChange: boolean }) {
  const targets = props.sources.filter((source) => UPLOADABLE_TYPES.includes(source.type));
  const [sourceId, setSourceId] = useState('');
  const [kind, setKind] = useState<UploadKind>('customers');
  const [file, setFile] = useState<File>();
  const [upload, setUpload] = useState<Upload>();
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const chosenSource = targets.some((source) => source.id === sourceId) ? sourceId : (targets[0]?.id ?? '');
  const pollError = useUploadProgress(upload, setUpload);

  const send = useSubmit(async () => {
    if (!file) return;
    const query = new URLSearchParams({ kind, data_source: chosenSource });
    const answer = await api.postFile<Upload>(`/data/uploads?${query.toString()}`, file, fileType(file.name));
    setUpload(answer);
    setMapping(answer.mapping);
  });
  const start = useSubmit(async () => {
    if (!upload) return;
    await api.put(`/data/uploads/${upload.id}/mapping`, mapping);
    setUpload(await api.post<Upload>(`/data/uploads/${upload.id}/import`));
  });

  if (targets.length === 0) {
    return (
      <p class="hint">
        To upload a file of records, first create a data source of type CSV files, API or Spreadsheet.
      </p>
    );
  }
  const running = upload?.state === 'running';
  return (
    <section class="file-upload">
      <h2>Upload a file</h2>
      <p class="hint">
        A CSV or Excel (.xlsx) file with a header row. Records are matched by id, so uploading a file again
        updates them and creates no duplicates.
      </p>
      <form class="inline-form" onSubmit={send.onSubmit}>
        <Field label="Into data source">
          <select
            name="upload-source"
            value={chosenSource}
            disabled={!props.canChange}
            onChange={(e) => setSourceId(e.currentTarget.value)}
          >
            {targets.map((source) => (
              <option key={source.id} value={source.id}>
                {source.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Records">
          <select
            name="upload-kind"
            value={kind}
            disabled={!props.canChange}
            onChange={(e) => setKind(e.currentTarget.value as UploadKind)}
          >
            {Object.entries(UPLOAD_KINDS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="File">
          <input
            type="file"
            name="upload-file"
            required
            accept=".csv,.xlsx,text/csv"
            disabled={!props.canChange}
            onChange={(e) => setFile(e.currentTarget.files?.[0])}
          />
        </Field>
        <button type="submit" disabled={!props.canChange || send.busy || !file || running}>
          Preview
        </button>
      </form>
      <ErrorText message={send.error} />
      {upload && (
        <>
          <p class="hint">
            {upload.rows_total} rows. Choose the field each column fills; the first {upload.preview.length}{' '}
            rows are shown.
          </p>
          <MappingTable
            upload={upload}
            mapping={mapping}
            onChange={setMapping}
            disabled={!props.canChange || running}
          />
          <button type="button" disabled={!props.canChange || start.busy || running} onClick={start.onSubmit}>
            Import
          </button>
          <ErrorText message={start.error ?? pollError} />
          {upload.state !== 'uploaded' && <UploadProgress upload={upload} />}
        </>
      )}
    </section>
  );
}
