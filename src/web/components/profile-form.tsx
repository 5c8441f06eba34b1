import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { useLoad } from '../use-load.js';
import { ErrorText, Field, useSubmit } from './form.js';

/** `GET /profile`, as far as this form shows it. */
interface Profile {
  first_name: string | null;
  last_name: string | null;
  locale: string | null;
  timezone: string | null;
}

type Editable = keyof Profile;

const FIELDS: [Editable, string][] = [
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
  ['timezone', 'Time zone (IANA, e.g. Europe/Copenhagen)'],
  ['locale', 'Locale (BCP 47, e.g. en-GB)'],
];

/** The IANA zones this browser knows, offered while typing; the server judges what is saved. */
const ZONES = Intl.supportedValuesOf('timeZone');

function ProfileFields(props: { saved: Profile; isOwner: boolean }) {
  const [saved, setSaved] = useState<Profile>(props.saved);
  const [values, setValues] = useState<Profile>(props.saved);
  const [done, setDone] = useState(false);
  const { busy, error, onSubmit } = useSubmit(async () => {
    setDone(false);
    // Only what changed is sent; an emptied field goes as null, which the server refuses with
    // its reason: a profile's fields can be changed, not removed.
    const changed = FIELDS.flatMap(([field]) => {
      const text = values[field]?.trim() ?? '';
      return text === (saved[field] ?? '') ? [] : [[field, text === '' ? null : text]];
    });
    const answer = await api.put<Profile>('/profile', Object.fromEntries(changed));
    setSaved(answer);
    setValues(answer);
    setDone(true);
  });
  return (
    <form onSubmit={onSubmit} data-profile>
      {FIELDS.map(([field, label]) => (
        <Field key={field} label={label}>
          <input
            name={field}
            list={field === 'timezone' ? 'time-zones' : undefined}
            value={values[field] ?? ''}
            onInput={(e) => setValues({ ...values, [field]: e.currentTarget.value })}
          />
        </Field>
      ))}
      <datalist id="time-zones">
        {ZONES.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      {props.isOwner && (
        <p class="hint">
          As the owner, your time zone is the account's: email digests go out at 08:00 there (UTC without
          one).
        </p>
      )}
      <ErrorText message={error} />
      {done && (
        <p class="ok" role="status">
          Profile saved.
        </p>
      )}
      <button type="submit" disabled={busy}>
        Save profile
      </button>
    </form>
  );
}

/** The signed-in member's own name, time zone and locale (`GET/PUT /profile`). */
export function ProfileForm({ isOwner }: { isOwner: boolean }) {
  const [profile] = useLoad(() => api.get<Profile>('/profile'), 'profile');
  return (
    <>
      <h2>Profile</h2>
      {profile.state === 'loading' && <p class="muted">Loading…</p>}
      {profile.state === 'error' && <p class="error">The profile could not be read: {profile.message}</p>}
      {profile.state === 'done' && <ProfileFields saved={profile.value} isOwner={isOwner} />}
    </>
  );
}
