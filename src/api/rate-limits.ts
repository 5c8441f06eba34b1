import { isIPv6 } from 'node:net';
import { UnauthorizedError } from '../services/errors.js';

/** A sustained rate and the burst allowed above it; 0 per minute means no limit. */
export interface RateLimit {
  perMinute: number;
  burst: number;
}

export interface RateLimits {
  /** Requests per API key, counted after authentication (by key id, not by header). */
  perKey: RateLimit;
  /** Failed authentications per client address. */
  authFailuresPerAddress: RateLimit;
}

/** 429 with `Retry-After`; the error handler turns it into `{error}`. */
export class TooManyRequestsError extends Error {
  override name = 'TooManyRequestsError';
  readonly statusCode = 429;
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

// Past this many keys or addresses the least recently seen bucket is forgotten, so a flood from
// many addresses cannot grow memory; a forgotten bucket starts full, which only favours the caller.
const MAX_BUCKETS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets by name: each holds up to `burst` tokens and regains `perMinute` a minute.
 * `now` is in milliseconds (monotonic), injectable for tests.
 */
export function tokenBuckets(limit: RateLimit, now: () => number = () => performance.now()) {
  const buckets = new Map<string, Bucket>();
  const perMs = limit.perMinute / 60_000;

  function current(name: string): Bucket {
    const time = now();
    const known = buckets.get(name);
    const bucket = known
      ? { tokens: Math.min(limit.burst, known.tokens + (time - known.at) * perMs), at: time }
      : { tokens: limit.burst, at: time };
    // Re-inserting keeps the map in least-recently-seen order for the eviction below.
    buckets.delete(name);
    buckets.set(name, bucket);
    if (buckets.size > MAX_BUCKETS) buckets.delete(buckets.keys().next().value!);
    return bucket;
  }

  const secondsUntilToken = (bucket: Bucket) => Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));

  return {
    /**
     * Seconds to wait when the bucket is empty, else undefined; takes nothing and creates no
     * bucket, so that names which never take a token cannot push out those that did.
     */
    waitFor(name: string): number | undefined {
      if (limit.perMinute === 0 || !buckets.has(name)) return undefined;
      const bucket = current(name);
      return bucket.tokens >= 1 ? undefined : secondsUntilToken(bucket);
    },
    /** Takes a token: undefined when there was one, else the seconds until there is. */
    take(name: string): number | undefined {
      if (limit.perMinute === 0) return undefined;
      const bucket = current(name);
      if (bucket.tokens < 1) return secondsUntilToken(bucket);
      bucket.tokens -= 1;
      return undefined;
    },
  };
}

/** How many 16-bit groups these take: a trailing dotted IPv4 part stands for two. */
const width = (groups: readonly string[]) =>
  groups.reduce((sum, group) => sum + (group.includes('.') ? 2 : 1), 0);

/**
 * The network a client address stands for when failures are counted. One IPv6 host commonly
 * holds a whole /64 and can pick a new address from it for each request, so IPv6 addresses
 * count per /64; IPv4 addresses (also when written IPv4-mapped) count alone.
 */
export function clientNetwork(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail] = address.split('%')[0]!.toLowerCase().split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array<string>(8 - headGroups.length - width(tailGroups)).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The checks the authentication hook makes, in its order. */
export function rateLimiter(limits: RateLimits, now?: () => number) {
  const keys = tokenBuckets(limits.perKey, now);
  const failures = tokenBuckets(limits.authFailuresPerAddress, now);
  const tooManyFailures = (wait: number) =>
    new TooManyRequestsError('Too many failed authentications from this address', wait);

  return {
    /** An address that failed too often is refused before its key costs a store look-up. */
    checkAddress(address: string): void {
      const wait = failures.waitFor(clientNetwork(address));
      if (wait !== undefined) throw tooManyFailures(wait);
    },
    /**
     * The error for a failed authentication (a key, a session, a password or a one-time link):
     * `refusal` (401 by default) while the address has failures left, then 429.
     */
    failedAuthentication(address: string, refusal: Error = new UnauthorizedError()): Error {
      const wait = failures.take(clientNetwork(address));
      return wait === undefined ? refusal : tooManyFailures(wait);
    },
    checkKey(keyId: string): void {
      const wait = keys.take(keyId);
      if (wait !== undefined) {
        throw new TooManyRequestsError(
          `Rate limit exceeded: each API key or signed-in member may send ${limits.perKey.perMinute} requests a minute ` +
            `(bursts of ${limits.perKey.burst})`,
          wait,
        );
      }
    },
  };
}

export type RateLimiter = ReturnType<typeof rateLimiter>;

/** Nothing is limited: what an app built without limits (most tests) gets. */
export const NO_RATE_LIMITS: RateLimits = {
  perKey: { perMinute: 0, burst: 0 },
  authFailuresPerAddress: { perMinute: 0, burst: 0 },
};
