/** A failed API call, with the service's own `{error}` message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken: string | undefined;
const sessionEnded = new EventTarget();

/** Calls `listener` when a report or settings call finds the session gone; returns the unsubscribe. */
export function onSessionEnded(listener: () => void): () => void {
  sessionEnded.addEventListener('ended', listener);
  return () => sessionEnded.removeEventListener('ended', listener);
}

/** Set once the session is known; every change sends it (docs/decisions.md, web sessions). */
export function useCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

export type Query = Record<string, string | number | undefined>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** A body sent as it is, with its own content type (an uploaded file), rather than as JSON. */
class FileBody {
  constructor(
    readonly blob: Blob,
    readonly type: string,
  ) {}
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const raw = body instanceof FileBody ? body : undefined;
  if (body !== undefined) headers['content-type'] = raw ? raw.type : 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: raw ? raw.blob : body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'The server cannot be reached. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const payload: unknown = await response.json().catch(() => undefined);
  if (response.status === 401 && !path.startsWith('/web/')) sessionEnded.dispatchEvent(new Event('ended'));
  if (!response.ok) {
    const message =
      payload && typeof payload === 'object' && 'error' in payload && typeof payload.error === 'string'
        ? payload.error
        : response.status >= 500
          ? `The server failed to answer (HTTP ${response.status}). Try again in a moment.`
          : `The server answered HTTP ${response.status}.`;
    throw new ApiError(response.status, message);
  }
  return payload as T;
}

/** The same JSON endpoints the API serves to key holders; the session cookie authenticates. */
export const api = {
  get: <T>(path: string, query?: Query) => call<T>('GET', withQuery(path, query)),
  post: <T>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
  /** POSTs a file's bytes as the body, with the given content type. */
  postFile: <T>(path: string, blob: Blob, type: string) => call<T>('POST', path, new FileBody(blob, type)),
  put: <T>(path: string, body: unknown) => call<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => call<T>('PATCH', path, body),
  delete: (path: string) => call<void>('DELETE', path),
};
