import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressRange, type BlockedRange, hostRange, RANGE_DESCRIPTIONS } from '../engine/address-ranges.js';

/**
 * Where the server may send requests on a user's behalf (webhooks, chat, sheets). Private
 * targets are refused unless the operator allows them (OUTBOUND_ALLOW_PRIVATE, docs/operations.md).
 */
export interface OutboundPolicy {
  allowPrivate: boolean;
}

export const STRICT_OUTBOUND: OutboundPolicy = { allowPrivate: false };

/** A target the policy refuses; no retry can change that until the URL or its DNS does. */
export class BlockedTargetError extends Error {
  override name = 'BlockedTargetError';
}

/** The answer did not arrive, whole, within the time limit. */
export class OutboundTimeoutError extends Error {
  override name = 'OutboundTimeoutError';
  constructor() {
    super('No answer within the time limit');
  }
}

const blockedMessage = (address: string, range: BlockedRange) =>
  `${address} is ${RANGE_DESCRIPTIONS[range]}, which the server does not call`;

/** The range of `address` when the policy refuses it. */
function refusedRange(address: string, policy: OutboundPolicy): BlockedRange | undefined {
  const range = addressRange(address);
  return policy.allowPrivate || range === undefined || range === 'public' ? undefined : range;
}

/**
 * Why `url` may not be saved as a target, judged on its text alone: not http(s), or a host that
 * is a refused address without asking DNS (an IP literal, `localhost`). Null when it may be; a
 * name is checked again, resolved, at every request.
 */
export function refusedUrl(url: string, policy: OutboundPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http(s) URL';
  const range = hostRange(parsed.hostname);
  if (policy.allowPrivate || range === undefined || range === 'public') return null;
  return blockedMessage(parsed.hostname, range);
}

/**
 * Resolves like the system does, every address of the name, and refuses the name if any of them
 * is refused. The socket then connects to an address this check answered, so a name that
 * changes its answer between a check and the connection (DNS rebinding) gains nothing.
 */
const guardedLookup =
  (policy: OutboundPolicy): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      for (const { address } of addresses) {
        const range = refusedRange(address, policy);
        if (range) {
          const reason = `${hostname} resolves to ${address}, ${RANGE_DESCRIPTIONS[range]}, which the server does not call`;
          return callback(new BlockedTargetError(reason), '', 0);
        }
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return callback(null, first!.address, first!.family);
    });
  };

export interface OutboundRequest {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** For the whole exchange, the answer's body included. */
  timeoutMs: number;
  policy: OutboundPolicy;
}

export interface OutboundResponse {
  status: number;
  header(name: string): string | undefined;
  /** Reads the body up to `maxBytes`; past it, stops reading and says the body was cut. */
  read(maxBytes: number): Promise<{ bytes: Buffer; complete: boolean }>;
  /** Drops the body unread and closes the connection (a redirect's). */
  discard(): void;
}

async function readUpTo(response: IncomingMessage, maxBytes: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > maxBytes) {
      response.destroy();
      return { bytes: Buffer.concat(chunks).subarray(0, maxBytes), complete: false };
    }
  }
  return { bytes: Buffer.concat(chunks), complete: true };
}

/**
 * One http(s) request to a user-given URL under the outbound policy: an IP literal is checked
 * before connecting, a name as it is resolved. Redirects are answers like any other (callers
 * decide whether to follow one). No connection is kept for reuse.
 */
export function outboundRequest(url: string, options: OutboundRequest): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      return reject(new BlockedTargetError(`${target.protocol} is not http or https`));
    const literal = refusedRange(target.hostname, options.policy);
    if (literal) return reject(new BlockedTargetError(blockedMessage(target.hostname, literal)));
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(target, {
      method: options.method,
      headers: options.headers,
      agent: false,
      ...(options.policy.allowPrivate ? {} : { lookup: guardedLookup(options.policy) }),
    });
    let response: IncomingMessage | undefined;
    const timer = setTimeout(() => {
      const error = new OutboundTimeoutError();
      if (response) response.destroy(error);
      else request.destroy(error);
    }, options.timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.on('response', (answer) => {
      response = answer;
      answer.on('close', () => clearTimeout(timer));
      // A body nobody reads may still fail (the time limit); `read` reports such errors itself.
      answer.on('error', () => {});
      resolve({
        status: answer.statusCode ?? 0,
        header: (name) => {
          const value = answer.headers[name.toLowerCase()];
          return Array.isArray(value) ? value[0] : value;
        },
        read: (maxBytes) => readUpTo(answer, maxBytes),
        discard: () => answer.destroy(),
      });
    });
    request.end(options.body);
  });
}
