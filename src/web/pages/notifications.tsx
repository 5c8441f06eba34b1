import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorText, Field, useSubmit } from '../components/form.js';
import { canChange } from '../components/settings.js';
import { money } from '../format.js';
import { href } from '../route.js';
import type { Session } from '../session.js';
import { useLoad } from '../use-load.js';

/** `GET /settings/notifications`, the whole object (docs/api.md, "Settings"). */
interface NotificationSettings {
  email: { enabled: boolean; recipients: string[]; frequency: 'daily' | 'weekly' | 'monthly' };
  chat: {
    enabled: boolean;
    channel: string;
    events: string[];
    /** Masked as read: sending the masked value back keeps the stored URL. */
    slack_webhook_url: string;
    teams_webhook_url: string;
  };
  alerts: { churn_threshold: number; mrr_drop_threshold: number };
}

const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
const EVENTS = {
  new_customer: 'New customer',
  churn: 'Churn',
  expansion: 'Expansion',
  contraction: 'Contraction',
  reactivation: 'Reactivation',
  scheduled_churn: 'Scheduled cancellation',
  failed_payment: 'Failed payment',
  payment_recovered: 'Recovered payment',
} as const;

const CHAT_URLS = [
  ['slack_webhook_url', 'Slack incoming webhook URL', 'https://hooks.slack.com/services/…'],
  ['teams_webhook_url', 'Microsoft Teams incoming webhook URL', 'https://….webhook.office.com/…'],
] as const;

/**
 * Notification settings: the API serves them to the owner and admins only (`/settings/*`), so
 * a readonly member is told so instead of a form.
 */
export function Notifications({ session }: { session: Session }) {
  if (!canChange(session)) {
    return (
      <main>
        <h1>Notifications</h1>
        <p class="empty" data-readonly>
          Only the owner and admins see and change the notification settings: the API refuses them to readonly
          members. The base currency is on <a href={href('/settings/account')}>Your account</a>.
        </p>
      </main>
    );
  }
  return <NotificationForm currency={session.account.base_currency} />;
}

function NotificationForm({ currency }: { currency: string }) {
  const [loaded, reload] = useLoad(
    () => api.get<NotificationSettings>('/settings/notifications'),
    'notifications',
  );
  return (
    <main class="narrow wide-enough">
      <h1>Notifications</h1>
      {loaded.state === 'loading' && <p class="status">Loading the notification settings…</p>}
      {loaded.state === 'error' && (
        <p class="error" role="alert">
          The notification settings could not be loaded: {loaded.message}
        </p>
      )}
      {loaded.state === 'done' && <Editor settings={loaded.value} currency={currency} onSaved={reload} />}
    </main>
  );
}

function Editor(props: { settings: NotificationSettings; currency: string; onSaved: () => void }) {
  const [settings, setSettings] = useState(props.settings);
  const [recipients, setRecipients] = useState(props.settings.email.recipients.join(', '));
  // The churn threshold is cents of the base currency; the form takes whole units.
  const [churn, setChurn] = useState(String(props.settings.alerts.churn_threshold / 100));
  const [saved, setSaved] = useState(false);
  const set = <G extends keyof NotificationSettings>(group: G, patch: Partial<NotificationSettings[G]>) => {
    setSaved(false);
    setSettings({ ...settings, [group]: { ...settings[group], ...patch } });
  };
  const submit = useSubmit(async () => {
    const body: NotificationSettings = {
      ...settings,
      email: {
        ...settings.email,
        recipients: recipients
          .split(/[\s,;]+/)
          .map((item) => item.trim())
          .filter((item) => item !== ''),
      },
      alerts: { ...settings.alerts, churn_threshold: Math.round(Number(churn) * 100) },
    };
    const answer = await api.put<NotificationSettings>('/settings/notifications', body);
    setSettings(answer);
    setRecipients(answer.email.recipients.join(', '));
    setChurn(String(answer.alerts.churn_threshold / 100));
    setSaved(true);
  });
  return (
    <form onSubmit={submit.onSubmit} data-notifications>
      <fieldset>
        <legend>Email reports</legend>
        <label class="check">
          <input
            type="checkbox"
            name="email-enabled"
            checked={settings.email.enabled}
            onChange={(e) => set('email', { enabled: e.currentTarget.checked })}
          />
          Send the figures by email
        </label>
        <Field label="Recipients (separated by commas)">
          <input
            name="email-recipients"
            value={recipients}
            onInput={(e) => {
              setSaved(false);
              setRecipients(e.currentTarget.value);
            }}
          />
        </Field>
        <Field label="How often">
          <select
            name="email-frequency"
            value={settings.email.frequency}
            onChange={(e) =>
              set('email', { frequency: e.currentTarget.value as NotificationSettings['email']['frequency'] })
            }
          >
            {FREQUENCIES.map((frequency) => (
              <option key={frequency} value={frequency}>
                {frequency[0]!.toUpperCase() + frequency.slice(1)}
              </option>
            ))}
          </select>
        </Field>
      </fieldset>
      <fieldset>
        <legend>Chat</legend>
        <label class="check">
          <input
            type="checkbox"
            name="chat-enabled"
            checked={settings.chat.enabled}
            onChange={(e) => set('chat', { enabled: e.currentTarget.checked })}
          />
          Post events to a chat channel
        </label>
        <Field label="Channel">
          <input
            name="chat-channel"
            maxLength={200}
            value={settings.chat.channel}
            onInput={(e) => set('chat', { channel: e.currentTarget.value })}
          />
        </Field>
        {CHAT_URLS.map(([field, label, placeholder]) => (
          <Field key={field} label={label}>
            <input
              type="url"
              name={`chat-${field}`}
              placeholder={placeholder}
              value={settings.chat[field]}
              onInput={(e) => set('chat', { [field]: e.currentTarget.value })}
            />
          </Field>
        ))}
        <p class="hint">
          Saved addresses show masked; leave one as it is to keep it, or clear it to stop posting there.
        </p>
        <div class="checks" role="group" aria-label="Events">
          {Object.entries(EVENTS).map(([event, label]) => (
            <label class="check" key={event}>
              <input
                type="checkbox"
                name={`chat-event-${event}`}
                checked={settings.chat.events.includes(event)}
                onChange={(e) =>
                  set('chat', {
                    events: e.currentTarget.checked
                      ? [...settings.chat.events, event]
                      : settings.chat.events.filter((item) => item !== event),
                  })
                }
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Alerts (0 turns an alert off)</legend>
        <p class="hint">
          Judged on whole UTC days; an alert is sent once when a day goes above its threshold, and again only
          after a day back at or under it. Alerts go to the email recipients and the chat channels above.
        </p>
        <Field label={`Churned MRR in one day above (${props.currency.toUpperCase()})`}>
          <input
            type="number"
            name="churn-threshold"
            min={0}
            step="0.01"
            value={churn}
            onInput={(e) => {
              setSaved(false);
              setChurn(e.currentTarget.value);
            }}
          />
        </Field>
        <Field label="MRR falling from one day to the next by more than (%)">
          <input
            type="number"
            name="mrr-drop-threshold"
            min={0}
            max={100}
            step="0.1"
            value={settings.alerts.mrr_drop_threshold}
            onInput={(e) => set('alerts', { mrr_drop_threshold: Number(e.currentTarget.value) })}
          />
        </Field>
        <p class="hint">
          Currently: churn alert{' '}
          {settings.alerts.churn_threshold > 0
            ? `above ${money(settings.alerts.churn_threshold, props.currency)}`
            : 'off'}
          , MRR drop alert{' '}
          {settings.alerts.mrr_drop_threshold > 0 ? `above ${settings.alerts.mrr_drop_threshold}%` : 'off'}.
        </p>
      </fieldset>
      <ErrorText message={submit.error} />
      {saved && (
        <p class="ok" role="status">
          Saved.
        </p>
      )}
      <button type="submit" disabled={submit.busy}>
        Save notification settings
      </button>
    </form>
  );
}
