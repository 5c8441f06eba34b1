import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from './api.js';

export type Load<T> =
  { state: 'loading' } | { state: 'error'; message: string } | { state: 'done'; value: T };

/** Runs `load` whenever `key` changes; an answer that arrives after a newer request is dropped. */
export function useLoad<T>(load: () => Promise<T>, key: string): [Load<T>, () => void] {
  const [result, setResult] = useState<Load<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setResult({ state: 'loading' });
    load().then(
      (value) => current && setResult({ state: 'done', value }),
      (error: unknown) =>
        current &&
        setResult({ state: 'error', message: error instanceof ApiError ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
    // `load` is a new closure on every render; `key` names what it fetches.
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return [result, reload];
}
