import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeysService, AuthContext } from '../services/api-keys-service.js';
import { ForbiddenError, UnauthorizedError } from '../services/errors.js';
import type { RateLimiter } from './rate-limits.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** Served without an API key (health, the OpenAPI document). */
    public?: boolean;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The authenticated caller of a route that the auth hook has already let through. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new UnauthorizedError();
  return request.auth;
}

/**
 * Every request needs `Authorization: Bearer <key>`, unknown routes included, so that
 * without a key nothing reveals which routes exist. Rate limits are checked here, where the
 * key id is known: per key once authenticated, per client address for failures.
 */
export function registerAuthentication(
  app: FastifyInstance,
  apiKeys: ApiKeysService,
  limiter: RateLimiter,
): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.public) return;
    limiter.checkAddress(request.ip);
    const match = BEARER.exec(request.headers.authorization ?? '');
    const auth = match ? await apiKeys.authenticate(match[1]!) : undefined;
    if (!auth) throw limiter.failedAuthentication(request.ip);
    limiter.checkKey(auth.keyId);
    request.auth = auth;
  });
}

/** Hook for a plugin whose routes all need an admin key (SPEC part 5). */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (authOf(request).accessLevel !== 'admin') {
    throw new ForbiddenError('This endpoint needs an admin API key');
  }
}

/** Viewer keys are read-only: they may read data but not change it (docs/decisions.md). */
export async function requireAdminToWrite(request: FastifyRequest): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') await requireAdmin(request);
}
