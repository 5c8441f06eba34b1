import { BlockedTargetError, type OutboundPolicy, outboundRequest } from './outbound-http.js';
import { SIGNATURE_HEADER, signatureHeader } from './webhook-signature.js';

/** What the receiver answered, or why it did not. */
export interface PostOutcome {
  ok: boolean;
  /** The policy refused the target: another attempt would be refused too. */
  blocked: boolean;
  status: number | null;
  /** The start of the answer's body, kept in the delivery log. */
  response: string | null;
  error: string | null;
  durationMs: number;
}

/** How much of a receiver's answer is kept: enough to read an error message. */
const RESPONSE_EXCERPT = 500;

/** A connection failure by its code (ECONNREFUSED), anything else by its message. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code } = error as { code?: unknown };
  return typeof code === 'string' && !(error instanceof BlockedTargetError) ? code : error.message;
}

/**
 * POSTs a signed JSON body once, under the outbound policy. Only a 2xx answer counts as
 * delivered; a redirect is not followed (the receiver should be configured at its final address).
 */
export async function postSigned(
  url: string,
  secret: string,
  body: string,
  options: { at: Date; timeoutMs: number; policy: OutboundPolicy },
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await outboundRequest(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'mrrlytics-webhooks',
        [SIGNATURE_HEADER]: signatureHeader(secret, body, options.at),
      },
      body,
      timeoutMs: options.timeoutMs,
      policy: options.policy,
    });
    const { bytes } = await response.read(RESPONSE_EXCERPT * 4);
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      blocked: false,
      status: response.status,
      response: bytes.toString('utf8').slice(0, RESPONSE_EXCERPT),
      error: ok ? null : `HTTP ${response.status}`,
      durationMs: elapsed(),
    };
  } catch (error) {
    return {
      ok: false,
      blocked: error instanceof BlockedTargetError,
      status: null,
      response: null,
      error: describe(error),
      durationMs: elapsed(),
    };
  }
}
