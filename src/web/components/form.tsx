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
