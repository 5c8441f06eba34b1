import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorText, Field, useActions, useSubmit } from '../components/form.js';
import { ImportControl } from '../components/import-progress.js';
import { canChange, ReadOnlyNote } from '../components/settings.js';
import { dateTime } from '../format.js';
import { href, type Route } from '../route.js';
import type { Session } from '../session.js';
import {
  type ConnectorType,
  type DataSource,
  isConnector,
  loadSources,
  SOURCE_TYPES,
  webhookUrl,
} from '../sources.js';
import { useLoad } from '../use-load.js';

/** `GET /settings/processor-a`: the most recently connected Stripe account. */
interface ProcessorStatus {
  connected: boolean;
  account_id: string | null;
  account_name: string | null;
  livemode: boolean;
  connected_at: string | null;
  last_sync: string | null;
  sync_status: 'syncing' | 'complete' | 'error' | null;
  customers_imported: number;
  invoices_imported: number;
}

/** What each system's key form asks for; `POST /data/data-sources/{id}/connect` takes them. */
const FORMS: Record<ConnectorType, { key: string; keyHint: string; site?: string; secret: string }> = {
  'processor-a': {
    key: 'Restricted API key',
    keyHint: 'rk_live_… with read access',
    secret: 'Webhook signing secret (whsec_…), for live updates',
  },
  'processor-b': {
    key: 'API key',
    keyHint: 'a read-only API key',
    site: 'Site (acme of acme.chargebee.com)',
    secret: 'Webhook password, for live updates',
  },
  'processor-c': {
    key: 'Private API key',
    keyHint: 'a read-only private key',
    secret: 'Webhook secret, for live updates',
  },
};

function StripeStatus({ round }: { round: number }) {
  const [status] = useLoad(() => api.get<ProcessorStatus>('/settings/processor-a'), `processor-a ${round}`);
  if (status.state === 'loading') return <p class="status">Loading the Stripe connection…</p>;
  if (status.state === 'error')
    return <p class="error">The Stripe connection could not be read: {status.message}</p>;
  const s = status.value;
  return (
    <dl class="facts" data-processor-status={s.connected ? 'connected' : 'not-connected'}>
      <dt>Stripe</dt>
      <dd>{s.connected ? `Connected${s.account_name ? ` to ${s.account_name}` : ''}` : 'Not connected'}</dd>
      {s.connected && (
        <>
          <dt>Account</dt>
          <dd>
            {s.account_id} ({s.livemode ? 'live' : 'test'} mode)
          </dd>
          <dt>Connected</dt>
          <dd>{dateTime(s.connected_at)}</dd>
        </>
      )}
      <dt>Last import</dt>
      <dd>
        {dateTime(s.last_sync)}
        {s.sync_status && ` (${s.sync_status})`}
      </dd>
      <dt>Imported</dt>
      <dd>
        {s.customers_imported} customers, {s.invoices_imported} invoices
      </dd>
    </dl>
  );
}

/** The key form of one source: the key is sent once and never shown again, nor read back. */
function KeyForm(props: {
  source: DataSource & { type: ConnectorType };
  writable: boolean;
  onConnected: () => void;
}) {
  const { source, writable } = props;
  const form = FORMS[source.type];
  const [apiKey, setApiKey] = useState('');
  const [site, setSite] = useState('');
  const [secret, setSecret] = useState('');
  const [done, setDone] = useState(false);
  const submit = useSubmit(async () => {
    setDone(false);
    await api.post(`/data/data-sources/${source.id}/connect`, {
      api_key: apiKey,
      ...(form.site ? { site } : {}),
      ...(secret ? { webhook_secret: secret } : {}),
    });
    setApiKey('');
    setSite('');
    setSecret('');
    setDone(true);
    props.onConnected();
  });
  return (
    <form class="key-form" onSubmit={submit.onSubmit} data-key-form={source.id}>
      <Field label={form.key}>
        <input
          type="password"
          name="api-key"
          autoComplete="off"
          required
          placeholder={form.keyHint}
          disabled={!writable}
          value={apiKey}
          onInput={(e) => setApiKey(e.currentTarget.value)}
        />
      </Field>
      {form.site && (
        <Field label={form.site}>
          <input
            name="site"
            required
            pattern="[A-Za-z0-9][A-Za-z0-9\-]{0,62}"
            disabled={!writable}
            value={site}
            onInput={(e) => setSite(e.currentTarget.value)}
          />
        </Field>
      )}
      <Field label={`${form.secret} (optional)`}>
        <input
          type="password"
          name="webhook-secret"
          autoComplete="off"
          disabled={!writable}
          value={secret}
          onInput={(e) => setSecret(e.currentTarget.value)}
        />
      </Field>
      <ErrorText message={submit.error} />
      {done && (
        <p class="ok" role="status">
          Connected: the key was checked and stored sealed, and the import started. It is never shown again.
        </p>
      )}
      <button type="submit" disabled={!writable || submit.busy}>
        {submit.busy ? 'Checking the key…' : 'Connect with this key'}
      </button>
    </form>
  );
}

function Connection(props: {
  source: DataSource & { type: ConnectorType };
  session: Session;
  writable: boolean;
  round: number;
  onChanged: () => void;
}) {
  const { source, writable } = props;
  const stripe = source.type === 'processor-a';
  const oauth = stripe && props.session.oauth.includes('processor-a');
  const [disconnected, setDisconnected] = useState(false);
  const disconnect = useActions(() => {
    setDisconnected(true);
    props.onChanged();
  });
  const url = webhookUrl(window.location.origin, props.session.account.id, source);
  return (
    <section class="panel" data-connection={source.id}>
      <header class="panel-head">
        <h2>
          {source.name} <small class="muted">{SOURCE_TYPES[source.type]}</small>
        </h2>
        {stripe && (
          <button
            type="button"
            class="danger"
            disabled={!writable || disconnect.busy}
            onClick={() =>
              confirm(`Disconnect "${source.name}" from Stripe? Its records stay.`) &&
              disconnect.run(() => api.post('/oauth/processor-a/deauthorize', { data_source: source.id }))
            }
          >
            Disconnect
          </button>
        )}
      </header>
      <ErrorText message={disconnect.error} />
      {disconnected && (
        <p class="ok" role="status">
          Disconnected from Stripe.
        </p>
      )}
      <ImportControl source={source} canChange={writable} refresh={props.round} />
      {oauth && (
        <p>
          {writable ? (
            <a
              class="button"
              href={`/oauth/processor-a/authorize?data_source=${encodeURIComponent(source.id)}`}
              data-oauth
            >
              Connect with Stripe
            </a>
          ) : (
            <button type="button" disabled>
              Connect with Stripe
            </button>
          )}{' '}
          <span class="hint">or with a restricted key:</span>
        </p>
      )}
      {stripe && !oauth && (
        <p class="hint">This server has no Stripe OAuth configured: connect with a restricted API key.</p>
      )}
      <KeyForm source={source} writable={writable} onConnected={props.onChanged} />
      <p class="hint">Webhook URL to configure at {SOURCE_TYPES[source.type]}, for live updates:</p>
      <code class="webhook" data-webhook>
        {url}
      </code>
    </section>
  );
}

/**
 * The billing systems' connections, one panel per connector source. The OAuth callback comes
 * back here with `?connected=<source id>` or `?error=<message>`.
 */
export function Connections({ route, session }: { route: Route; session: Session }) {
  const writable = canChange(session);
  const [sources] = useLoad(loadSources, 'sources');
  const [round, setRound] = useState(0);
  const connected = route.params.get('connected');
  const error = route.params.get('error');
  const list = sources.state === 'done' ? sources.value.filter(isConnector) : [];
  const connectedName =
    connected && sources.state === 'done' ? sources.value.find((s) => s.id === connected)?.name : undefined;
  return (
    <main>
      <h1>Connections</h1>
      {connected && (
        <p class="ok" role="status" data-callback="connected">
          Connected {connectedName ? `"${connectedName}"` : 'the data source'} to Stripe: the import started.
        </p>
      )}
      {error && (
        <p class="error" role="alert" data-callback="error">
          Stripe was not connected: {error}
        </p>
      )}
      <ReadOnlyNote session={session} />
      {writable ? (
        <StripeStatus round={round} />
      ) : (
        <p class="hint">Only the owner and admins see the Stripe account's status.</p>
      )}
      {sources.state === 'loading' && <p class="status">Loading data sources…</p>}
      {sources.state === 'error' && (
        <p class="error" role="alert">
          The data sources could not be loaded: {sources.message}
        </p>
      )}
      {sources.state === 'done' && list.length === 0 && (
        <p class="empty">
          No data source imports from a billing system yet. Create one of type Stripe, Chargebee or Recurly
          under <a href={href('/settings/data-sources')}>Data sources</a>.
        </p>
      )}
      {list.map((source) => (
        <Connection
          key={source.id}
          source={source}
          session={session}
          writable={writable}
          round={round}
          onChanged={() => setRound((n) => n + 1)}
        />
      ))}
    </main>
  );
}
