import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import Chargebee, { type HttpClientInterface } from 'chargebee';
import { ConnectorError, CursorLostError } from '../connector.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, type RetryVerdict, withRetries } from '../retry.js';

/** Where the Chargebee API is and how patiently it is called; tests point it at a local fake. */
export interface ChargebeeApiSettings {
  /**
   * Sends every request to this host instead of `{site}.chargebee.com` (a proxy, or a test's
   * fake); the Host header still names the site's own host, so the site travels with it.
   */
  host?: string | undefined;
  port?: number | undefined;
  protocol?: 'http' | 'https' | undefined;
  /** Per request; a timed-out request is retried like a 5xx. */
  timeoutMs?: number | undefined;
  /** Objects per list page, at most 100. */
  pageSize?: number | undefined;
  retry?: RetryPolicy | undefined;
}

/** The SDK's own request timeout error, so a timeout here reads like one of the default client. */
function timeoutError() {
  return Object.assign(new Error('io_error'), {
    type: 'timeout',
    api_error_code: 'request aborted due to timeout.',
    http_status_code: 504,
  });
}

/**
 * An `httpClient` (a documented option of the SDK) that sends the SDK's request to another
 * host while keeping its Host header: fetch cannot set Host, node:http can.
 */
function redirectingClient(host: string): HttpClientInterface {
  return {
    async makeApiRequest(request: Request, timeout: number): Promise<Response> {
      const url = new URL(request.url);
      const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
      const headers: Record<string, string> = { host: url.host };
      request.headers.forEach((value, name) => (headers[name] = value));
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      return new Promise<Response>((resolve, reject) => {
        const outgoing = send(
          {
            host,
            port: url.port || (url.protocol === 'https:' ? 443 : 80),
            method: request.method,
            path: `${url.pathname}${url.search}`,
            headers,
            timeout,
            ...(url.protocol === 'https:' ? { servername: url.hostname } : {}),
          },
          (incoming) => {
            const chunks: Buffer[] = [];
            incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
            incoming.on('error', reject);
            incoming.on('end', () => {
              const responseHeaders = new Headers();
              for (const [name, value] of Object.entries(incoming.headers))
                if (value !== undefined)
                  responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
              const status = incoming.statusCode ?? 500;
              resolve(
                new Response(status === 204 ? null : Buffer.concat(chunks), {
                  status,
                  headers: responseHeaders,
                }),
              );
            });
          },
        );
        outgoing.on('timeout', () => outgoing.destroy(timeoutError()));
        outgoing.on('error', reject);
        outgoing.end(body);
      });
    },
  };
}

export function chargebeeClient(apiKey: string, site: string, settings: ChargebeeApiSettings): Chargebee {
  return new Chargebee({
    apiKey,
    site,
    ...(settings.protocol === undefined ? {} : { protocol: settings.protocol }),
    ...(settings.port === undefined ? {} : { port: settings.port }),
    ...(settings.host === undefined ? {} : { httpClient: redirectingClient(settings.host) }),
    timeout: settings.timeoutMs ?? 30_000,
    // Retries are ours (withRetries), bounded and jittered; the SDK's stay off.
    retryConfig: { enabled: false },
    sdkTelemetryEnabled: false,
    userAgentSuffix: 'mrrlytics',
  });
}

/**
 * What the SDK rejects with: for an error answer, Chargebee's JSON error body itself
 * (`message`, `api_error_code`, `param`, ...) with `http_status_code` and the response headers.
 */
interface ChargebeeApiError {
  message?: string;
  api_error_code?: string;
  param?: string;
  http_status_code: number;
  headers?: Record<string, string>;
}

function apiError(error: unknown): ChargebeeApiError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = (error as { http_status_code?: unknown }).http_status_code;
  return typeof status === 'number' ? (error as ChargebeeApiError) : undefined;
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
]);

/** A request that never got an answer: the fetch failure or socket error of either client. */
function isNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof TypeError && error.message === 'fetch failed') return true;
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && NETWORK_CODES.has(code);
}

/** `Retry-After` in seconds, as a delay in milliseconds. */
function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
  const raw = headers?.['retry-after'];
  if (raw === undefined || raw === '') return undefined;
  const seconds = Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** 429 after the advertised delay; 5xx (timeouts are 504), dropped connections with backoff; nothing else. */
export function classifyChargebeeError(error: unknown): RetryVerdict {
  const api = apiError(error);
  if (api?.http_status_code === 429) return { retry: true, afterMs: retryAfterMs(api.headers) };
  if (api !== undefined) return { retry: api.http_status_code >= 500 };
  return { retry: isNetworkError(error) };
}

/** Calls Chargebee with retries; a final failure is named as Chargebee's, a refused offset as such. */
export async function callChargebee<T>(
  fn: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<T> {
  try {
    return await withRetries(fn, classifyChargebeeError, policy);
  } catch (error) {
    const api = apiError(error);
    if (api !== undefined) {
      const message = `Chargebee: ${api.message ?? api.api_error_code ?? 'request failed'} (HTTP ${api.http_status_code})`;
      if (api.param === 'offset') throw new CursorLostError(message);
      // Not a 404 for an unknown site: only the object named is missing.
      if (api.api_error_code === 'resource_not_found') throw new NotFoundAtChargebee(message);
      throw new ConnectorError(message);
    }
    if (isNetworkError(error)) throw new ConnectorError(`Chargebee: ${(error as Error).message}`);
    throw error;
  }
}

/** Chargebee says the object asked for does not exist (a deleted customer). */
export class NotFoundAtChargebee extends ConnectorError {
  override name = 'NotFoundAtChargebee';
}
