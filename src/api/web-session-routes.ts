import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PROCESSOR_TYPES } from '../engine/vocabulary.js';
import { InvalidInputError, NotFoundError, UnauthorizedError } from '../services/errors.js';
import type { Services } from '../services/index.js';
import { MAX_PASSWORD_LENGTH } from '../services/passwords.js';
import { TEAM_ROLES } from '../services/team-service.js';
import { csrfTokenOf, type NewSession } from '../services/web-auth-service.js';
import { sessionOf } from './auth.js';
import type { RateLimiter } from './rate-limits.js';
import { webErrors } from './schemas.js';
import { clearSessionCookie, sessionTokenOf, setSessionCookie } from './session-cookie.js';

// Length checks beyond these (the password rules) are the service's, with their own messages.
const password = z.string().max(MAX_PASSWORD_LENGTH);
const email = z.string().max(320);
const name = z.string().trim().max(200);
const token = z.string().min(1).max(100);
const signedIn = z.object({ signed_in: z.literal(true) });

const sessionSchema = z.object({
  member: z.object({ id: z.string(), email: z.string(), name: z.string(), role: z.enum(TEAM_ROLES) }),
  account: z.object({ id: z.string(), name: z.string(), base_currency: z.string() }),
  access_level: z.enum(['admin', 'viewer']),
  csrf_token: z.string().describe('Send it as X-CSRF-Token with every request that changes something'),
  oauth: z.array(z.enum(PROCESSOR_TYPES)).describe('The billing systems this server can connect by OAuth'),
});

/**
 * Sign-in, sign-out, password change and the one-time links of the web interface. Not part of
 * the API for key holders, so hidden from /openapi.json. Everything that takes a password or a
 * link counts its failures in the same per-address budget as a wrong API key.
 */
export function webSessionRoutes(services: Services, limiter: RateLimiter): FastifyPluginAsyncZod {
  return async (app) => {
    const hide = true;
    const publicRoute = { public: true };

    /** Runs a public step that a wrong secret can fail, counting that failure against the address. */
    async function guarded<T>(request: FastifyRequest, step: () => Promise<T>): Promise<T> {
      limiter.checkAddress(request.ip);
      try {
        return await step();
      } catch (error) {
        if (error instanceof NotFoundError || error instanceof UnauthorizedError)
          throw limiter.failedAuthentication(request.ip, error);
        throw error;
      }
    }

    function start(request: FastifyRequest, reply: FastifyReply, session: NewSession) {
      setSessionCookie(request, reply, session);
      return { signed_in: true as const };
    }

    app.get(
      '/web/session',
      { schema: { hide, response: { 200: sessionSchema, ...webErrors } } },
      async (request) => {
        const session = sessionOf(request);
        const [member, account] = await Promise.all([
          services.webAuth.member(session),
          services.accounts.profile(session.accountId),
        ]);
        return {
          member: { id: member.member_id, email: member.email, name: member.name, role: member.role },
          account: { id: account.id, name: account.name, base_currency: account.base_currency },
          access_level: session.accessLevel,
          csrf_token: csrfTokenOf(sessionTokenOf(request)!),
          oauth: PROCESSOR_TYPES.filter((type) => services.oauth.configured(type)),
        };
      },
    );

    app.post(
      '/web/sign-in',
      {
        config: publicRoute,
        schema: { hide, body: z.object({ email, password }), response: { 200: signedIn, ...webErrors } },
      },
      async (request, reply) => {
        const session = await guarded(request, async () => {
          const opened = await services.webAuth.signIn(request.body.email, request.body.password);
          if (!opened) throw new UnauthorizedError('Wrong email or password');
          return opened;
        });
        return start(request, reply, session);
      },
    );

    app.post(
      '/web/sign-out',
      { schema: { hide, response: { 204: z.null(), ...webErrors } } },
      async (request, reply) => {
        await services.webAuth.signOut(sessionOf(request));
        clearSessionCookie(request, reply);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/web/password',
      {
        schema: {
          hide,
          body: z.object({ current_password: password, new_password: password }),
          response: { 204: z.null(), ...webErrors },
        },
      },
      async (request, reply) => {
        const { current_password, new_password } = request.body;
        const changed = await services.webAuth.changePassword(
          sessionOf(request),
          current_password,
          new_password,
        );
        // Whoever holds a session must not try passwords faster than anyone at the sign-in form.
        if (!changed)
          throw limiter.failedAuthentication(
            request.ip,
            new InvalidInputError('current_password is not correct'),
          );
        return reply.status(204).send(null);
      },
    );

    // Tokens travel in bodies, never in a path, so that no request log keeps them.
    app.post(
      '/web/setup/check',
      {
        config: publicRoute,
        schema: {
          hide,
          body: z.object({ token }),
          response: { 200: z.object({ valid: z.literal(true) }), ...webErrors },
        },
      },
      (request) =>
        guarded(request, async () => {
          if (!(await services.webAuth.setupTokenIsLive(request.body.token)))
            throw new NotFoundError('This setup link is not valid (used, replaced or expired)');
          return { valid: true as const };
        }),
    );

    app.post(
      '/web/setup',
      {
        config: publicRoute,
        schema: {
          hide,
          body: z.object({ token, email, name, password }),
          response: { 200: signedIn, ...webErrors },
        },
      },
      async (request, reply) => {
        const { token: setupToken, ...owner } = request.body;
        const session = await guarded(request, () => services.webAuth.completeSetup(setupToken, owner));
        return start(request, reply, session);
      },
    );

    app.post(
      '/web/invitations/check',
      {
        config: publicRoute,
        schema: {
          hide,
          body: z.object({ token }),
          response: { 200: z.object({ email: z.string(), name: z.string() }), ...webErrors },
        },
      },
      (request) => guarded(request, () => services.webAuth.invitation(request.body.token)),
    );

    app.post(
      '/web/invitations/accept',
      {
        config: publicRoute,
        schema: {
          hide,
          body: z.object({ token, name: name.optional(), password }),
          response: { 200: signedIn, ...webErrors },
        },
      },
      async (request, reply) => {
        const { token: inviteToken, ...accepted } = request.body;
        const session = await guarded(request, () =>
          services.webAuth.acceptInvitation(inviteToken, accepted),
        );
        return start(request, reply, session);
      },
    );
  };
}
