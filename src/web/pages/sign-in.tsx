import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorText, Field, PasswordField, useSubmit } from '../components/form.js';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, onSubmit } = useSubmit(async () => {
    await api.post('/web/sign-in', { email, password });
    onSignedIn();
  });
  return (
    <main class="narrow">
      <h1>Sign in to mrrlytics</h1>
      <form onSubmit={onSubmit}>
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
        <PasswordField
          kind="current"
          label="Password"
          name="password"
          value={password}
          onInput={setPassword}
        />
        <ErrorText message={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p class="hint">
        First start? Open the one-time setup link the server printed in its console. Invited? Open the link
        you were sent.
      </p>
    </main>
  );
}
