import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorText, Field, useSubmit } from '../components/form.js';
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
      <h2>Change password</h2>
      <form onSubmit={onSubmit}>
        <Field label="Current password">
          <input
            type="password"
            name="current-password"
            autoComplete="current-password"
            required
            value={current}
            onInput={(e) => setCurrent(e.currentTarget.value)}
          />
        </Field>
        <Field label="New password (at least 10 characters)">
          <input
            type="password"
            name="new-password"
            autoComplete="new-password"
            minLength={10}
            required
            value={next}
            onInput={(e) => setNext(e.currentTarget.value)}
          />
        </Field>
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
