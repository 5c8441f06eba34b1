import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorText, Field, PasswordField, useSubmit } from '../components/form.js';
import { ProfileForm } from '../components/profile-form.js';
import { canChange } from '../components/settings.js';
import { CURRENCIES } from '../dashboard-query.js';
import type { Session } from '../session.js';

/**
 * The currency reports answer in unless a filter bar picks another: owners and admins change
 * it; the session is then read again, so every page shows the new one.
 */
function BaseCurrency({ session, onChanged }: { session: Session; onChanged: () => void }) {
  const current = session.account.base_currency;
  const [code, setCode] = useState(current.toUpperCase());
  const { busy, error, onSubmit } = useSubmit(async () => {
    await api.patch('/web/account', { base_currency: code.trim() });
    onChanged();
  });
  return (
    <>
      <h2>Base currency</h2>
      <p data-base-currency={current}>
        Every report of <strong>{session.account.name}</strong> is shown in{' '}
        <strong>{current.toUpperCase()}</strong> unless its filter bar picks another currency.
      </p>
      {canChange(session) ? (
        <form onSubmit={onSubmit}>
          <Field label="Base currency (ISO 4217 code with exchange rates)">
            <input
              name="base-currency"
              list="base-currencies"
              required
              maxLength={3}
              value={code}
              onInput={(e) => setCode(e.currentTarget.value)}
            />
          </Field>
          <datalist id="base-currencies">
            {CURRENCIES.map((choice) => (
              <option key={choice} value={choice.toUpperCase()} />
            ))}
          </datalist>
          <p class="hint">
            Reports convert each amount at its day's exchange rate. A customer with neither a currency of its
            own nor an invoice has its amounts read in the base currency, the new one after a change.
          </p>
          <ErrorText message={error} />
          <button type="submit" disabled={busy || code.trim().toLowerCase() === current}>
            Change base currency
          </button>
        </form>
      ) : (
        <p class="hint" role="note" data-readonly>
          Only the owner and admins change the base currency.
        </p>
      )}
    </>
  );
}

export function Account({ session, onChanged }: { session: Session; onChanged: () => void }) {
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
      <ProfileForm isOwner={session.member.role === 'owner'} />
      <BaseCurrency session={session} onChanged={onChanged} />
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
