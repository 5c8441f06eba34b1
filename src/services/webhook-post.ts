import { SIGNATURE_HEADER, signatureHeader } from './webhook-signature.js';

/** What the receiver answered, or why it did not. */
export interface PostOutcome {
  ok: boolean;
  status: number | null;
  /** The start of the answer's body, kept in the delivery log. */
  response: string | null;
  error: string | null;
  durationMs: number;
}

/** How much of a receiver's answer is kept: enough to read an error message. */
const RESPONSE_EXCERPT = 500;

function describe(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'No answer within the time limit';
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * POSTs a signed JSON body once. Only a 2xx answer counts as delivered; a redirect is not
 * followed (the receiver should be configured at its final address).
 */
export async function postSigned(
  url: string,
  secret: string,
  body: string,
  options: { at: Date; timeoutMs: number },
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'mrrlytics-webhooks',
        [SIGNATURE_HEADER]: signatureHeader(secret, body, options.at),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = (await response.text()).slice(0, RESPONSE_EXCERPT);
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      status: response.status,
      response: text,
      error: ok ? null : `HTTP ${response.status}`,
      durationMs: elapsed(),
    };
  } catch (error) {
    return { ok: false, status: null, response: null, error: describe(error), durationMs: elapsed() };
  }
}
