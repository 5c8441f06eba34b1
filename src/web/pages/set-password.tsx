import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorText, Field, PasswordField, useSubmit } from '../components/form.js';
import { useLoad } from '../use-load.js';

/**
 * The two one-time links: the owner's setup link printed at start, and an invitation. Both end
 * with a password and a signed-in session.
 */
export function SetPassword(props: { kind: 'setup' | 'invite'; token: string; onSignedIn: () => void }) {
  const setup = props.kind === 'setup';
  const [link] = useLoad<{ email?: string; name?: string }>(
    () => api.post(setup ? '/web/setup/check' : '/web/invitations/check', { token: props.token }),
    props.token,
  );
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, onSubmit } = useSubmit(async () => {
    if (setup) await api.post('/web/setup', { token: props.token, email, name, password });
    else
      await api.post('/web/invitations/accept', { token: props.token, password, ...(name ? { name } : {}) });
    window.location.hash = '#/dashboard';
    props.onSignedIn();
  });

  if (link.state === 'loading') return <p class="status">Checking the link…</p>;
  if (link.state === 'error') {
    return (
      <main class="narrow">
        <h1>{setup ? 'Set up mrrlytics' : 'Join the team'}</h1>
        <p class="error" role="alert">
          {link.message}
        </p>
        <p class="hint">
          {setup ? 'Restart the server to print a new setup link.' : 'Ask an admin for a new invitation.'}
        </p>
      </main>
    );
  }
  return (
    <main class="narrow">
      <h1>{setup ? 'Create the owner of this account' : `Join as ${link.value.email ?? ''}`}</h1>
      <form onSubmit={onSubmit}>
        {setup && (
          <Field label="Email">
            <input
              type="email"
              name="email"
              autoComplete="username"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </Field>
        )}
        <Field label="Your name">
          <input
            name="name"
            autoComplete="name"
            value={name}
            placeholder={link.value.name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </Field>
        <PasswordField kind="new" label="Password" name="password" value={password} onInput={setPassword} />
        <ErrorText message={error} />
        <button type="submit" disabled={busy}>
          {setup ? 'Create owner and sign in' : 'Set password and sign in'}
        </button>
      </form>
    </main>
  );
}
