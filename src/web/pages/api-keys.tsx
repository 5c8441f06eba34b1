import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Actions, ErrorText, Field, useActions, useSubmit } from '../components/form.js';
import { SecretOnce } from '../components/secret-once.js';
import { canChange, Refused } from '../components/settings.js';
import { dateTime } from '../format.js';
import type { Session } from '../session.js';
import { useLoad } from '../use-load.js';

interface ApiKey {
  id: string;
  name: string;
  access_level: 'admin' | 'viewer';
  created_at: string;
  last_used: string | null;
}

interface IssuedKey extends ApiKey {
  key: string;
}

export function ApiKeys({ session }: { session: Session }) {
  return canChange(session) ? <ManageApiKeys /> : <Refused what="API keys" />;
}

function ManageApiKeys() {
  const [keys, reload] = useLoad(() => api.get<{ result: { list: ApiKey[] } }>('/account/api-keys'), 'keys');
  const [issued, setIssued] = useState<IssuedKey>();
  const [name, setName] = useState('');
  const [level, setLevel] = useState<'viewer' | 'admin'>('viewer');
  const actions = useActions(reload);
  const create = useSubmit(async () => {
    setIssued(await api.post<IssuedKey>('/web/api-keys', { name, access_level: level }));
    setName('');
    reload();
  });

  return (
    <main>
      <h1>API keys</h1>
      <p class="hint">
        A key reads (viewer) or reads and writes (admin) this account through the API. Its secret is shown
        once, when it is created or regenerated.
      </p>
      {issued && (
        <SecretOnce
          title={`Secret of "${issued.name}"`}
          value={issued.key}
          note="Copy it now: it is not shown again. Send it as Authorization: Bearer <key>."
          onDone={() => setIssued(undefined)}
        />
      )}
      <form class="inline-form" onSubmit={create.onSubmit}>
        <Field label="Name">
          <input
            name="key-name"
            required
            maxLength={200}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </Field>
        <Field label="Access">
          <select
            name="access-level"
            value={level}
            onChange={(e) => setLevel(e.currentTarget.value as 'viewer' | 'admin')}
          >
            <option value="viewer">Viewer (read only)</option>
            <option value="admin">Admin (read and write)</option>
          </select>
        </Field>
        <button type="submit" disabled={create.busy}>
          Create key
        </button>
      </form>
      <ErrorText message={create.error ?? actions.error} />
      {keys.state === 'loading' && <p class="status">Loading keys…</p>}
      {keys.state === 'error' && <p class="error">The keys could not be loaded: {keys.message}</p>}
      {keys.state === 'done' &&
        (keys.value.result.list.length === 0 ? (
          <p class="empty">No API keys yet.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Access</th>
                  <th>Created</th>
                  <th>Last used</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {keys.value.result.list.map((key) => (
                  <tr key={key.id} data-key-id={key.id}>
                    <td>{key.name}</td>
                    <td>{key.access_level}</td>
                    <td>{dateTime(key.created_at)}</td>
                    <td>{dateTime(key.last_used)}</td>
                    <Actions>
                      <button
                        type="button"
                        class="secondary"
                        onClick={() =>
                          confirm(`Regenerate "${key.name}"? Its current secret stops working at once.`) &&
                          actions.run(async () =>
                            setIssued(await api.post<IssuedKey>(`/web/api-keys/${key.id}/regenerate`)),
                          )
                        }
                      >
                        Regenerate
                      </button>
                      <button
                        type="button"
                        class="danger"
                        onClick={() =>
                          confirm(`Delete "${key.name}"? It stops working at once.`) &&
                          actions.run(() => api.delete(`/web/api-keys/${key.id}`))
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
    </main>
  );
}
