import type { FastifyReply, FastifyRequest } from 'fastify';
import { type NewSession, SESSION_LIFETIME_MS } from '../services/web-auth-service.js';

export const SESSION_COOKIE = 'mrrlytics_session';
export const CSRF_HEADER = 'x-csrf-token';

/** The session token the browser sent, if any. */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === SESSION_COOKIE) {
      return part.slice(separator + 1).trim() || undefined;
    }
  }
  return undefined;
}

/**
 * HttpOnly: no script reads it. SameSite=Strict: no other site's page or link sends it.
 * Secure whenever the request came over https (behind a proxy: with TRUST_PROXY, by its
 * X-Forwarded-Proto); a plain-http localhost start would otherwise never keep a session.
 */
function cookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: NewSession): void {
  void reply.header('set-cookie', cookie(request, session.token, SESSION_LIFETIME_MS / 1000));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('set-cookie', cookie(request, '', 0));
}
