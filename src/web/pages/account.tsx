import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorText, PasswordField, useSubmit } from '../components/form.js';
import type { Session } from '../session.js';

export function Account({ session }: { session: Session }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, onSubmit } = useSubmit(async () => {
    setDone(false);
    await api.post('/web/password', { current_password: current, new_password: next });
    setCurrent('');
    setNext('');
    setDone(true);
  });
  return (
    <main class="narrow">
      <h1>Your account</h1>
      <p>
        Signed in as <strong>{session.member.email}</strong> ({session.member.role}).
      </p>
      <h2>Base currency</h2>
      <p data-base-currency={session.account.base_currency}>
        Every report of <strong>{session.account.name}</strong> is shown in{' '}
        <strong>{session.account.base_currency.toUpperCase()}</strong> unless its filter bar picks another
        currency.
      </p>
      <p class="hint">
        Read-only here: the base currency is set when the account is created (
        <code>mrrlytics account create --currency eur</code>) and no API route changes it.
      </p>
      <h2>Change password</h2>
      <form onSubmit={onSubmit}>
        <PasswordField
          kind="current"
          label="Current password"
          name="current-password"
          value={current}
          onInput={setCurrent}
        />
        <PasswordField kind="new" label="New password" name="new-password" value={next} onInput={setNext} />
        <ErrorText message={error} />
        {done && (
          <p class="ok" role="status">
            Password changed. Your other sessions were signed out.
          </p>
        )}
        <button type="submit" disabled={busy}>
          Change password
        </button>
      </form>
    </main>
  );
}
