import { useState } from 'preact/hooks';
import { WEBHOOK_EVENT_TYPES } from '../../engine/webhook-events.js';
import { api } from '../api.js';
import { Actions, ErrorText, Field, useActions, useSubmit } from '../components/form.js';
import { SecretOnce } from '../components/secret-once.js';
import { canChange, ReadOnlyNote } from '../components/settings.js';
import { dateTime } from '../format.js';
import type { Session } from '../session.js';
import { useLoad } from '../use-load.js';

interface Webhook {
  id: string;
  url: string;
  event_type: string;
  created_at: string;
}

interface Delivery {
  id: string;
  event_key: string;
  status: 'pending' | 'delivered' | 'dead';
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
}

/** Settings > Webhooks: outbound webhooks (docs/webhooks.md); readonly members see them unchanged. */
export function Webhooks({ session }: { session: Session }) {
  const [list, reload] = useLoad(
    () => api.get<{ webhooks: Webhook[] }>('/integrations/webhooks'),
    'webhooks',
  );
  const [created, setCreated] = useState<Webhook & { secret: string }>();
  const [shown, setShown] = useState<string>();
  const [url, setUrl] = useState('');
  const [eventType, setEventType] = useState<string>(WEBHOOK_EVENT_TYPES[0]);
  const actions = useActions(reload);
  const create = useSubmit(async () => {
    setCreated(
      await api.post<Webhook & { secret: string }>('/integrations/webhooks', { url, event_type: eventType }),
    );
    setUrl('');
    reload();
  });
  const admin = canChange(session);

  return (
    <main>
      <h1>Webhooks</h1>
      <p class="hint">
        Each webhook receives one event type as a signed JSON POST, retried for about a day until its URL
        answers 2xx. The signing secret is shown when the webhook is created.
      </p>
      <ReadOnlyNote session={session} />
      {created && (
        <SecretOnce
          title={`Signing secret of the webhook to ${created.url}`}
          value={created.secret}
          note="Keep it with the receiver: it checks the Mrrlytics-Signature header with it."
          onDone={() => setCreated(undefined)}
        />
      )}
      {admin && (
        <form class="inline-form" onSubmit={create.onSubmit}>
          <Field label="URL">
            <input
              name="webhook-url"
              type="url"
              required
              placeholder="https://"
              value={url}
              onInput={(e) => setUrl(e.currentTarget.value)}
            />
          </Field>
          <Field label="Event">
            <select name="event-type" value={eventType} onChange={(e) => setEventType(e.currentTarget.value)}>
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </Field>
          <button type="submit" disabled={create.busy}>
            Add webhook
          </button>
        </form>
      )}
      <ErrorText message={create.error ?? actions.error} />
      {list.state === 'loading' && <p class="status">Loading webhooks…</p>}
      {list.state === 'error' && <p class="error">The webhooks could not be loaded: {list.message}</p>}
      {list.state === 'done' &&
        (list.value.webhooks.length === 0 ? (
          <p class="empty">No webhooks yet.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>URL</th>
                  <th>Event</th>
                  <th>Created</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {list.value.webhooks.map((webhook) => (
                  <tr key={webhook.id} data-webhook-id={webhook.id}>
                    <td>{webhook.url}</td>
                    <td>{webhook.event_type}</td>
                    <td>{dateTime(webhook.created_at)}</td>
                    <Actions>
                      <button
                        type="button"
                        class="secondary"
                        onClick={() => setShown(shown === webhook.id ? undefined : webhook.id)}
                      >
                        Deliveries
                      </button>
                      {admin && (
                        <button
                          type="button"
                          class="danger"
                          onClick={() =>
                            confirm(
                              `Delete the webhook to ${webhook.url}? Deliveries still queued are dropped.`,
                            ) && actions.run(() => api.delete(`/integrations/webhooks/${webhook.id}`))
                          }
                        >
                          Delete
                        </button>
                      )}
                    </Actions>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      {shown && <Deliveries key={shown} id={shown} />}
    </main>
  );
}

function Deliveries({ id }: { id: string }) {
  const [webhook] = useLoad(
    () => api.get<Webhook & { deliveries: Delivery[] }>(`/integrations/webhooks/${id}`),
    `webhook-${id}`,
  );
  if (webhook.state === 'loading') return <p class="status">Loading deliveries…</p>;
  if (webhook.state === 'error')
    return <p class="error">The deliveries could not be loaded: {webhook.message}</p>;
  const { url, deliveries } = webhook.value;
  return (
    <section data-deliveries>
      <h2>Latest deliveries to {url}</h2>
      {deliveries.length === 0 ? (
        <p class="empty">Nothing delivered yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Event</th>
                <th>Status</th>
                <th>Attempts</th>
                <th>Last answer</th>
                <th>Last attempt</th>
                <th>Next attempt</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td>{delivery.event_key}</td>
                  <td>{delivery.status}</td>
                  <td>{delivery.attempts}</td>
                  <td>{delivery.last_status ?? delivery.last_error ?? ''}</td>
                  <td>{dateTime(delivery.last_attempt_at)}</td>
                  <td>{dateTime(delivery.next_attempt_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
