import type { HttpTimeouts } from './api/app.js';
import type { RateLimits } from './api/rate-limits.js';
import type { ConnectorSettings } from './connectors/index.js';
import type { SmtpSettings } from './services/mailer.js';
import { parseSecretsKey } from './services/secret-box.js';
import { DEFAULT_SPREADSHEET_BASE_URL } from './services/spreadsheet-sync.js';
import type { StoreLocation } from './store/open-store.js';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from './store/postgres-db.js';

export interface Config {
  store: StoreLocation;
  host: string;
  port: number;
  bodyLimitBytes: number;
  logLevel: string;
  rateLimits: RateLimits;
  timeouts: HttpTimeouts;
  requestDeadlineMs: number;
  /** How long a report waits for a newer snapshot before it answers from the previous one. */
  readWaitMs: number;
  /** How long an account's snapshot is kept in memory while nothing (no report, no detection) reads it. */
  snapshotIdleMs: number;
  /** After SIGTERM or SIGINT, how long in-flight requests may finish before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** Whose `X-Forwarded-For` to believe for the client address: `true` (anyone) or addresses and CIDRs. */
  trustProxy: boolean | string;
  connectors: ConnectorSettings;
  /** Seals billing-system secrets in the store; without it no connector can be connected. */
  secretsKey: Buffer | undefined;
  /** The address browsers reach the server at (OAuth redirect URIs); unset: no OAuth. */
  publicUrl: string | undefined;
  /** How often connected sources are caught up from their change feed; 0: never. */
  catchUpIntervalMs: number;
  /** Spreadsheet sources read sheets only from addresses starting with it. */
  spreadsheetBaseUrl: string;
  /** How often spreadsheet sources read their sheets again; 0: never. */
  spreadsheetSyncIntervalMs: number;
  /** Outgoing mail for digests and alerts; unset: no email is sent. */
  smtp: SmtpSettings | undefined;
  /** Whether webhooks, chat and sheets may reach private addresses (OUTBOUND_ALLOW_PRIVATE). */
  outboundAllowPrivate: boolean;
  /** Server processes on the one port; more than one makes this process their primary (src/cluster). */
  workers: number;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

/** Where the store lives: PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR (default ./data). */
export function storeLocation(env: NodeJS.ProcessEnv = process.env): StoreLocation {
  if (!env.DATABASE_URL) return { dataDir: env.DATA_DIR || './data' };
  return {
    databaseUrl: env.DATABASE_URL,
    statementTimeoutMs: integer(env, 'STATEMENT_TIMEOUT_MS', DEFAULT_STATEMENT_TIMEOUT_MS, 0),
  };
}

// The defaults and their reasons are listed in docs/operations.md ("Limits, timeouts and rates").
function rateLimits(env: NodeJS.ProcessEnv): RateLimits {
  const authFailures = integer(env, 'AUTH_FAILURES_PER_MINUTE', 30, 0);
  return {
    perKey: {
      perMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 0),
      burst: integer(env, 'RATE_LIMIT_BURST', 200, 1),
    },
    authFailuresPerAddress: { perMinute: authFailures, burst: authFailures },
  };
}

function httpTimeouts(env: NodeJS.ProcessEnv, requestDeadlineMs: number): HttpTimeouts {
  const headersMs = integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 1);
  const requestMs = integer(env, 'REQUEST_TIMEOUT_MS', 120_000, 1);
  // Node refuses a header timeout longer than the whole request's.
  if (headersMs > requestMs) throw new Error('HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS');
  return {
    headersMs,
    requestMs,
    keepAliveMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 65_000, 1),
    // No bytes move while a handler works, so a silent connection is only cut once neither the
    // upload nor the handler may still be going.
    socketIdleMs: Math.max(requestMs, requestDeadlineMs),
  };
}

/** `<PREFIX>_HOST`, `_PORT` and `_PROTOCOL`: an address a test (or a proxy) can stand in with. */
const isProtocol = (value: string): value is 'http' | 'https' => value === 'http' || value === 'https';

function apiAddress(env: NodeJS.ProcessEnv, prefix: string) {
  const protocol = env[`${prefix}_PROTOCOL`] || undefined;
  if (protocol !== undefined && !isProtocol(protocol))
    throw new Error(`${prefix}_PROTOCOL must be http or https, got "${protocol}"`);
  return {
    host: env[`${prefix}_HOST`] || undefined,
    port: env[`${prefix}_PORT`] ? integer(env, `${prefix}_PORT`, 443, 1) : undefined,
    protocol,
  };
}

/**
 * The billing systems' API addresses (api.stripe.com, {site}.chargebee.com, v3.recurly.com
 * unless overridden) and, with STRIPE_CLIENT_ID and STRIPE_SECRET_KEY, Stripe Connect OAuth at
 * connect.stripe.com (STRIPE_CONNECT_HOST...).
 */
function connectorSettings(env: NodeJS.ProcessEnv): ConnectorSettings {
  const clientId = env.STRIPE_CLIENT_ID || undefined;
  const secretKey = env.STRIPE_SECRET_KEY || undefined;
  if ((clientId === undefined) !== (secretKey === undefined))
    throw new Error('STRIPE_CLIENT_ID and STRIPE_SECRET_KEY are set together, or neither');
  if (clientId !== undefined && !clientId.startsWith('ca_'))
    throw new Error('STRIPE_CLIENT_ID must be a Connect client id (ca_...)');
  const region = env.RECURLY_API_REGION || undefined;
  if (region !== undefined && region !== 'us' && region !== 'eu')
    throw new Error(`RECURLY_API_REGION must be us or eu, got "${region}"`);
  return {
    stripe: apiAddress(env, 'STRIPE_API'),
    stripeOAuth:
      clientId === undefined || secretKey === undefined
        ? undefined
        : { clientId, secretKey, connect: apiAddress(env, 'STRIPE_CONNECT') },
    chargebee: apiAddress(env, 'CHARGEBEE_API'),
    recurly: { region, ...apiAddress(env, 'RECURLY_API') },
  };
}

/** An absolute http(s) URL from `name`, as written apart from normalisation. */
function httpUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name] || undefined;
  if (raw === undefined) return undefined;
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${name} must be an absolute http(s) URL, got "${raw}"`);
  return url.toString();
}

function publicUrl(env: NodeJS.ProcessEnv): string | undefined {
  return httpUrl(env, 'PUBLIC_URL')?.replace(/\/+$/, '');
}

/**
 * SMTP_URL (smtp:// or smtps://, credentials in it), or SMTP_HOST with SMTP_PORT (default 587;
 * 465 speaks TLS from the start), SMTP_USER and SMTP_PASS; SMTP_FROM is the sender address.
 */
export function smtpSettings(env: NodeJS.ProcessEnv): SmtpSettings | undefined {
  const from = env.SMTP_FROM || 'mrrlytics <notifications@localhost>';
  if (env.SMTP_URL) {
    if (!/^smtps?:\/\//.test(env.SMTP_URL)) throw new Error('SMTP_URL must start with smtp:// or smtps://');
    return { url: env.SMTP_URL, from };
  }
  if (!env.SMTP_HOST) return undefined;
  const port = integer(env, 'SMTP_PORT', 587, 1);
  const url = new URL(`${port === 465 ? 'smtps' : 'smtp'}://${env.SMTP_HOST}:${port}`);
  if (env.SMTP_USER) {
    url.username = env.SMTP_USER;
    url.password = env.SMTP_PASS ?? '';
  }
  return { url: url.toString(), from };
}

/** PGlite is opened by one process only, so several need PostgreSQL. */
function workers(env: NodeJS.ProcessEnv, store: StoreLocation): number {
  const count = integer(env, 'WORKERS', 1, 1);
  if (count > 1 && !('databaseUrl' in store))
    throw new Error(
      `WORKERS=${count} needs PostgreSQL (DATABASE_URL): the embedded store can be opened by one process only`,
    );
  return count;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const requestDeadlineMs = integer(env, 'REQUEST_DEADLINE_MS', 60_000, 1);
  const store = storeLocation(env);
  return {
    store,
    host: env.HOST || '127.0.0.1',
    // 0 picks a free port.
    port: integer(env, 'PORT', 3000, 0),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_MB', 64, 1) * 1024 * 1024,
    logLevel: env.LOG_LEVEL || 'info',
    rateLimits: rateLimits(env),
    timeouts: httpTimeouts(env, requestDeadlineMs),
    requestDeadlineMs,
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 1),
    readWaitMs: integer(env, 'READ_WAIT_MS', 2_000, 0),
    snapshotIdleMs: integer(env, 'SNAPSHOT_IDLE_MINUTES', 30, 1) * 60_000,
    trustProxy: env.TRUST_PROXY === 'true' ? true : env.TRUST_PROXY || false,
    connectors: connectorSettings(env),
    secretsKey: env.SECRETS_KEY ? parseSecretsKey(env.SECRETS_KEY) : undefined,
    publicUrl: publicUrl(env),
    catchUpIntervalMs: integer(env, 'CATCH_UP_INTERVAL_SECONDS', 300, 0) * 1000,
    spreadsheetBaseUrl: httpUrl(env, 'SPREADSHEET_BASE_URL') ?? DEFAULT_SPREADSHEET_BASE_URL,
    spreadsheetSyncIntervalMs: integer(env, 'SPREADSHEET_SYNC_INTERVAL_SECONDS', 3600, 0) * 1000,
    smtp: smtpSettings(env),
    outboundAllowPrivate: flag(env, 'OUTBOUND_ALLOW_PRIVATE'),
    workers: workers(env, store),
  };
}
