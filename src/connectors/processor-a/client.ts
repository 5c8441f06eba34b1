import Stripe from 'stripe';
import { ConnectorError, CursorLostError } from '../connector.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, type RetryVerdict, withRetries } from '../retry.js';

/** Where the Stripe API is and how patiently it is called; tests point it at a local fake. */
export interface StripeApiSettings {
  host?: string | undefined;
  port?: number | undefined;
  protocol?: 'http' | 'https' | undefined;
  /** Per request; a timed-out request is retried like a 5xx. */
  timeoutMs?: number | undefined;
  /** Objects per list page, at most 100. */
  pageSize?: number | undefined;
  retry?: RetryPolicy | undefined;
}

export function stripeClient(apiKey: string, settings: StripeApiSettings): Stripe {
  return new Stripe(apiKey, {
    ...(settings.host === undefined ? {} : { host: settings.host }),
    ...(settings.port === undefined ? {} : { port: settings.port }),
    ...(settings.protocol === undefined ? {} : { protocol: settings.protocol }),
    timeout: settings.timeoutMs ?? 30_000,
    // Retries are ours (withRetries): the SDK's own do not wait what a 429 asks for.
    maxNetworkRetries: 0,
    telemetry: false,
    appInfo: { name: 'mrrlytics' },
  });
}

/** `Retry-After` in seconds, as a delay in milliseconds. */
function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
  const seconds = Number(headers?.['retry-after']);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** 429 after the advertised delay; 5xx, timeouts and dropped connections with backoff; nothing else. */
export function classifyStripeError(error: unknown): RetryVerdict {
  if (error instanceof Stripe.errors.StripeRateLimitError) {
    return { retry: true, afterMs: retryAfterMs(error.headers) };
  }
  if (error instanceof Stripe.errors.StripeConnectionError) return { retry: true };
  if (error instanceof Stripe.errors.StripeError && (error.statusCode ?? 0) >= 500) return { retry: true };
  return { retry: false };
}

/** Calls Stripe with retries; a final failure is named as Stripe's, a vanished cursor as such. */
export async function callStripe<T>(
  fn: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<T> {
  try {
    return await withRetries(fn, classifyStripeError, policy);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) {
      const message = `Stripe: ${error.message}${error.statusCode ? ` (HTTP ${error.statusCode})` : ''}`;
      if (
        (error.param === 'starting_after' || error.param === 'ending_before') &&
        error.code === 'resource_missing'
      )
        throw new CursorLostError(message);
      throw new ConnectorError(message);
    }
    throw error;
  }
}
