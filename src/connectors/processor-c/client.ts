import recurly from 'recurly';
import type { HttpResponse } from 'recurly/lib/recurly/HttpAdapter.js';
import { ConnectorError } from '../connector.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, type RetryVerdict, withRetries } from '../retry.js';

/**
 * Where the Recurly API is and how patiently it is called. The package always builds
 * `https://v3.recurly.com/...` (or v3.eu.recurly.com with `region: 'eu'`); `host`, `port` and
 * `protocol` rewrite that address in the HTTP adapter the package takes, so tests (or a proxy)
 * can stand in for Recurly.
 */
export interface RecurlyApiSettings {
  region?: 'us' | 'eu' | undefined;
  host?: string | undefined;
  port?: number | undefined;
  protocol?: 'http' | 'https' | undefined;
  /** Per request; a timed-out request is retried like a 5xx. */
  timeoutMs?: number | undefined;
  /** Objects per list page, at most 200. */
  pageSize?: number | undefined;
  retry?: RetryPolicy | undefined;
}

/** The package's own HTTP adapter (gzip, keep-alive, timeout), sent to another address when set. */
type AdapterClass = new (options: { timeout?: number }) => {
  execute(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | null,
  ): Promise<HttpResponse>;
};
const DefaultHttpAdapter = (recurly as unknown as { DefaultHttpAdapter: AdapterClass }).DefaultHttpAdapter;

class AddressedHttpAdapter extends DefaultHttpAdapter {
  constructor(
    private readonly settings: RecurlyApiSettings,
    timeout: number,
  ) {
    super({ timeout });
  }

  override async execute(method: string, url: string, headers: Record<string, string>, body: string | null) {
    const target = new URL(url);
    if (this.settings.protocol !== undefined) target.protocol = `${this.settings.protocol}:`;
    if (this.settings.host !== undefined) target.hostname = this.settings.host;
    if (this.settings.port !== undefined) target.port = String(this.settings.port);
    const response = await super.execute(method, target.toString(), headers, body);
    // The package reads only `X-RateLimit-Reset` (what Recurly sends); a 429 that says
    // `Retry-After` instead (a proxy's) is given the reset it means.
    const retryAfter = Number(response.headers['retry-after']);
    if (response.statusCode === 429 && !response.headers['x-ratelimit-reset'] && Number.isFinite(retryAfter))
      response.headers['x-ratelimit-reset'] = String(Math.ceil(Date.now() / 1000 + retryAfter));
    return response;
  }
}

export function recurlyClient(apiKey: string, settings: RecurlyApiSettings): recurly.Client {
  return new recurly.Client(apiKey, {
    ...(settings.region === undefined ? {} : { region: settings.region }),
    httpAdapter: new AddressedHttpAdapter(settings, settings.timeoutMs ?? 30_000),
  });
}

interface ErrorResponse {
  status?: number;
  rateLimitReset?: Date | null;
}

function responseOf(error: unknown): ErrorResponse | undefined {
  if (!(error instanceof recurly.ApiError)) return undefined;
  const response = (error as { getResponse?: () => unknown }).getResponse?.();
  return typeof response === 'object' && response !== null ? response : undefined;
}

/** `X-RateLimit-Reset` (epoch seconds, which the package reads as a Date) as a delay from now. */
function resetDelayMs(response: ErrorResponse | undefined, now = Date.now()): number | undefined {
  const reset = response?.rateLimitReset;
  if (!(reset instanceof Date) || Number.isNaN(reset.getTime())) return undefined;
  return Math.max(0, reset.getTime() - now);
}

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND']);

/** 429 after `X-RateLimit-Reset`; 5xx, timeouts and dropped connections with backoff; nothing else. */
export function classifyRecurlyError(error: unknown): RetryVerdict {
  const response = responseOf(error);
  const status = response?.status;
  if (error instanceof recurly.errors.TooManyRequestsError || status === 429)
    return { retry: true, afterMs: resetDelayMs(response) };
  if (error instanceof recurly.errors.ServerError || (status !== undefined && status >= 500))
    return { retry: true };
  const code = (error as { code?: unknown } | null)?.code;
  if (!(error instanceof recurly.ApiError) && typeof code === 'string' && NETWORK_CODES.has(code))
    return { retry: true };
  return { retry: false };
}

/** Calls Recurly with retries; a final failure is named as Recurly's, with its HTTP status. */
export async function callRecurly<T>(
  fn: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<T> {
  try {
    return await withRetries(fn, classifyRecurlyError, policy);
  } catch (error) {
    if (error instanceof recurly.ApiError) {
      const status = responseOf(error)?.status;
      if (isNotFound(error)) throw new RecurlyNotFoundError(`Recurly: ${error.message} (HTTP 404)`);
      throw new ConnectorError(`Recurly: ${error.message}${status ? ` (HTTP ${status})` : ''}`);
    }
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && NETWORK_CODES.has(code))
      throw new ConnectorError(`Recurly: ${code} reaching the API`);
    throw error;
  }
}

/** Recurly has no such object (an account code that names no account). */
export class RecurlyNotFoundError extends ConnectorError {
  override name = 'RecurlyNotFoundError';
}

function isNotFound(error: unknown): boolean {
  return error instanceof recurly.errors.NotFoundError || responseOf(error)?.status === 404;
}
