import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeysService, AuthContext } from '../services/api-keys-service.js';
import { ForbiddenError, UnauthorizedError } from '../services/errors.js';
import { csrfTokenOf, type SessionContext, type WebAuthService } from '../services/web-auth-service.js';
import type { RateLimiter } from './rate-limits.js';
import { CSRF_HEADER, sessionTokenOf } from './session-cookie.js';

/** Whoever a request acts for: an API key, or a team member signed in to the web interface. */
export type Caller = AuthContext | SessionContext;

declare module 'fastify' {
  interface FastifyRequest {
    auth: Caller | null;
  }
  interface FastifyContextConfig {
    /** Served without an API key or session (health, the OpenAPI document, the web app, sign-in). */
    public?: boolean;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The authenticated caller of a route that the auth hook has already let through. */
export function authOf(request: FastifyRequest): Caller {
  if (!request.auth) throw new UnauthorizedError();
  return request.auth;
}

/**
 * The signed-in member of a route that exists only in the web interface (docs/decisions.md, "Web
 * sessions: the API's own auth hook accepts a session cookie").
 */
export function sessionOf(request: FastifyRequest): SessionContext {
  const auth = authOf(request);
  if (!('sessionId' in auth)) throw new ForbiddenError('This action is only available in the web interface');
  return auth;
}

function sameToken(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A session rides on a cookie the browser adds by itself, so a change is accepted only with the
 * session's CSRF token in a header, which a page of another site cannot know.
 */
function checkCsrf(request: FastifyRequest, sessionToken: string): void {
  if (SAFE_METHODS.has(request.method)) return;
  const sent = request.headers[CSRF_HEADER];
  if (typeof sent !== 'string' || !sameToken(sent, csrfTokenOf(sessionToken)))
    throw new ForbiddenError(`Missing or invalid CSRF token: send the session's token in ${CSRF_HEADER}`);
}

function presentsCredentials(request: FastifyRequest): boolean {
  return request.headers.authorization !== undefined || sessionTokenOf(request) !== undefined;
}

async function callerOf(
  request: FastifyRequest,
  apiKeys: ApiKeysService,
  webAuth: WebAuthService,
): Promise<Caller | undefined> {
  // An Authorization header decides alone: a wrong key is not rescued by a cookie beside it.
  if (request.headers.authorization !== undefined) {
    const match = BEARER.exec(request.headers.authorization);
    return match ? apiKeys.authenticate(match[1]!) : undefined;
  }
  const sessionToken = sessionTokenOf(request);
  if (sessionToken === undefined) return undefined;
  const session = await webAuth.authenticate(sessionToken);
  if (session) checkCsrf(request, sessionToken);
  return session;
}

/**
 * Every request needs `Authorization: Bearer <key>` or a web session, unknown routes included,
 * so that without either nothing reveals which routes exist. Rate limits are checked here, where
 * the caller is known: per key or member once authenticated, per client address for failures.
 */
export function registerAuthentication(
  app: FastifyInstance,
  apiKeys: ApiKeysService,
  webAuth: WebAuthService,
  limiter: RateLimiter,
): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.public) return;
    limiter.checkAddress(request.ip);
    const auth = await callerOf(request, apiKeys, webAuth);
    // Failures count credentials that were wrong. A request with none (a signed-out page
    // asking whether it has a session) guesses nothing, and must not lock its address out.
    if (!auth && !presentsCredentials(request)) throw new UnauthorizedError();
    if (!auth) throw limiter.failedAuthentication(request.ip);
    limiter.checkKey('sessionId' in auth ? `member:${auth.memberId}` : auth.keyId);
    request.auth = auth;
  });
}

/** Hook for a plugin whose routes all need an admin key or role (docs/api.md, "Conventions"). */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  const auth = authOf(request);
  if (auth.accessLevel === 'admin') return;
  throw new ForbiddenError(
    'sessionId' in auth
      ? 'This action needs the owner or admin role'
      : 'This endpoint needs an admin API key',
  );
}

/** Viewer keys and readonly members may read data but not change it (docs/decisions.md). */
export async function requireAdminToWrite(request: FastifyRequest): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') await requireAdmin(request);
}
