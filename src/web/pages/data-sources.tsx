import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { forgetFilterOptions } from '../components/filter-bar.js';
import { Actions, ErrorText, Field, useActions, useSubmit } from '../components/form.js';
import { FileUpload } from '../components/file-upload.js';
import { ImportControl } from '../components/import-progress.js';
import { SheetsControl } from '../components/sheets-control.js';
import { canChange, ReadOnlyNote } from '../components/settings.js';
import { dateTime } from '../format.js';
import { href } from '../route.js';
import type { Session } from '../session.js';
import { isConnector, loadSources, SOURCE_TYPES, type SourceType } from '../sources.js';
import { useLoad } from '../use-load.js';

/** The account's data sources: create and delete them, follow and control their imports, upload files. */
export function DataSources({ session }: { session: Session }) {
  const writable = canChange(session);
  const [sources, reload] = useLoad(loadSources, 'sources');
  const [name, setName] = useState('');
  const [type, setType] = useState<SourceType>('processor-a');
  const changed = () => {
    forgetFilterOptions();
    reload();
  };
  const actions = useActions(changed);
  const create = useSubmit(async () => {
    await api.post('/data/data-sources', { name, type });
    setName('');
    changed();
  });

  return (
    <main>
      <h1>Data sources</h1>
      <p class="hint">
        Where the account's records come from: a billing system it imports from (Stripe, Chargebee, Recurly:
        connect it under <a href={href('/settings/connections')}>Connections</a>), or records sent through the
        API or as files.
      </p>
      <ReadOnlyNote session={session} />
      <form class="inline-form" onSubmit={create.onSubmit}>
        <Field label="Name">
          <input
            name="source-name"
            required
            maxLength={200}
            value={name}
            disabled={!writable}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </Field>
        <Field label="Type">
          <select
            name="source-type"
            value={type}
            disabled={!writable}
            onChange={(e) => setType(e.currentTarget.value as SourceType)}
          >
            {Object.entries(SOURCE_TYPES).map(([value, label]) => (
              <option key={value} value={value}>
                {label} ({value})
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" disabled={!writable || create.busy}>
          Create data source
        </button>
      </form>
      <ErrorText message={create.error ?? actions.error} />
      {sources.state === 'loading' && <p class="status">Loading data sources…</p>}
      {sources.state === 'error' && (
        <p class="error" role="alert">
          The data sources could not be loaded: {sources.message}
        </p>
      )}
      {sources.state === 'done' &&
        (sources.value.length === 0 ? (
          <p class="empty">
            No data source yet. Records sent through the API without one go to a source named API, created
            then.
          </p>
        ) : (
          <div class="table-wrap">
            <table class="stack">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Type</th>
                  <th>Created</th>
                  <th>Import</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {sources.value.map((source) => (
                  <tr key={source.id} data-source={source.id}>
                    <td>
                      {source.name}
                      <small class="muted"> {source.id}</small>
                    </td>
                    <td>{SOURCE_TYPES[source.type] ?? source.type}</td>
                    <td>{dateTime(source.created_at)}</td>
                    <td class="wide">
                      {isConnector(source) ? (
                        <ImportControl source={source} canChange={writable} />
                      ) : source.type === 'spreadsheet' ? (
                        <SheetsControl source={source} canChange={writable} />
                      ) : (
                        <span class="muted">Records arrive through the API or an uploaded file</span>
                      )}
                    </td>
                    <Actions>
                      <button
                        type="button"
                        class="danger"
                        disabled={!writable || actions.busy}
                        onClick={() =>
                          confirm(`Delete "${source.name}" and every record it holds?`) &&
                          actions.run(() => api.delete(`/data/data-sources/${source.id}`))
                        }
                      >
                        Delete
                      </button>
                    </Actions>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      {sources.state === 'done' && <FileUpload sources={sources.value} canChange={writable} />}
    </main>
  );
}
