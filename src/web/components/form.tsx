import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../api.js';

/** Runs a form's action, disabling it meanwhile and showing the server's refusal in words. */
export function useSubmit(action: () => Promise<void>): {
  busy: boolean;
  error: string | undefined;
  onSubmit: (event: Event) => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const onSubmit = (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    action().then(
      () => setBusy(false),
      (failure: unknown) => {
        setBusy(false);
        setError(failure instanceof ApiError ? failure.message : String(failure));
      },
    );
  };
  return { busy, error, onSubmit };
}

export function ErrorText({ message }: { message: string | undefined }) {
  return message ? (
    <p class="error" role="alert">
      {message}
    </p>
  ) : null;
}

export function Field(props: { label: string; children: ComponentChildren }) {
  return (
    <label class="field">
      <span>{props.label}</span>
      {props.children}
    </label>
  );
}

/**
 * A password input: `current` for signing in or confirming, `new` for choosing one, which the
 * server takes at 10 characters or more (the label says so).
 */
export function PasswordField(props: {
  kind: 'current' | 'new';
  label: string;
  name: string;
  value: string;
  onInput: (value: string) => void;
}) {
  const fresh = props.kind === 'new';
  return (
    <Field label={fresh ? `${props.label} (at least 10 characters)` : props.label}>
      <input
        type="password"
        name={props.name}
        autoComplete={fresh ? 'new-password' : 'current-password'}
        minLength={fresh ? 10 : undefined}
        required
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
    </Field>
  );
}

/**
 * A table's row actions: `run` calls the API, then `done` (a reload); a refusal is kept in
 * `error`, in the service's words, for the page to show.
 */
export function useActions(done: () => void): {
  error: string | undefined;
  busy: boolean;
  run: (action: () => Promise<unknown>) => void;
} {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = (action: () => Promise<unknown>) => {
    setError(undefined);
    setBusy(true);
    action().then(
      () => {
        setBusy(false);
        done();
      },
      (failure: unknown) => {
        setBusy(false);
        setError(failure instanceof ApiError ? failure.message : String(failure));
      },
    );
  };
  return { error, busy, run };
}

/** The cell of a row's buttons, at the row's end. */
export function Actions({ children }: { children: ComponentChildren }) {
  return <td class="actions">{children}</td>;
}
