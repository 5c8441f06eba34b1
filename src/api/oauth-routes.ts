import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OAuthStateError } from '../connectors/oauth-control.js';
import { ForbiddenError } from '../services/errors.js';
import type { Services } from '../services/index.js';
import { authOf, requireAdmin, sessionOf } from './auth.js';
import type { RateLimiter } from './rate-limits.js';
import { adminErrors, errorSchema } from './schemas.js';

/** The web interface's connections page (a hash route: the server serves the app at `/`). */
export const CONNECTIONS_PAGE = '/#/settings/connections';

function connectionsPage(params: Record<string, string>): string {
  return `${CONNECTIONS_PAGE}?${new URLSearchParams(params).toString()}`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** A page for a browser that arrived with a bad state: there is no source to report it on. */
function errorPage(message: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization failed</title></head>' +
    `<body><h1>Authorization failed</h1><p>${escapeHtml(message)}</p>` +
    `<p><a href="${CONNECTIONS_PAGE}">Back to the connections</a></p></body></html>`
  );
}

const dataSourceId = z.uuid({ error: 'must be a UUID' });

/**
 * Connecting processor-a (Stripe) by OAuth (Stripe Connect); see docs/connectors.md. The
 * authorization starts from a signed-in admin's browser and comes back to the callback from
 * Stripe's page: a cross-site navigation, which carries no SameSite=Strict session cookie, so
 * the callback is public and its single-use `state` is what authenticates it.
 */
export function oauthRoutes(services: Services, limiter: RateLimiter): FastifyPluginAsyncZod {
  return async (app) => {
    const type = 'processor-a' as const;

    app.get(
      `/oauth/${type}/authorize`,
      {
        schema: {
          hide: true,
          querystring: z.object({ data_source: dataSourceId }),
          response: {
            302: z.null(),
            400: errorSchema,
            404: errorSchema,
            409: errorSchema,
            503: errorSchema,
            ...adminErrors,
          },
        },
      },
      async (request, reply) => {
        const session = sessionOf(request);
        if (session.accessLevel !== 'admin')
          throw new ForbiddenError('Connecting a billing system needs the owner or admin role');
        const url = await services.oauth.authorizeUrl(session, type, request.query.data_source);
        return reply.redirect(url, 302);
      },
    );

    app.get(
      `/oauth/${type}/callback`,
      {
        config: { public: true },
        schema: {
          hide: true,
          querystring: z.object({
            code: z.string().max(500).optional(),
            state: z.string().max(200).optional(),
            error: z.string().max(200).optional(),
            error_description: z.string().max(1000).optional(),
          }),
        },
      },
      async (request, reply) => {
        limiter.checkAddress(request.ip);
        const { code, state, error, error_description: description } = request.query;
        let outcome;
        try {
          outcome = await services.oauth.callback(type, {
            code,
            state,
            error: error === undefined ? undefined : description ? `${error}: ${description}` : error,
          });
        } catch (failure) {
          if (!(failure instanceof OAuthStateError)) throw failure;
          // A wrong state is a guessed secret: it counts like a wrong key.
          const refusal = limiter.failedAuthentication(request.ip, failure);
          if (refusal !== failure) throw refusal;
          return reply.status(400).type('text/html; charset=utf-8').send(errorPage(failure.message));
        }
        return reply.redirect(
          'connected' in outcome
            ? connectionsPage({ connected: outcome.connected })
            : connectionsPage({ error: outcome.error, data_source: outcome.dataSourceId }),
          302,
        );
      },
    );

    app.post(
      `/oauth/${type}/deauthorize`,
      {
        onRequest: requireAdmin,
        schema: {
          tags: ['Data sources'],
          summary: "Revoke the source's Stripe Connect grant and disconnect it; its records stay",
          body: z.strictObject({ data_source: dataSourceId }),
          response: {
            200: z.object({ success: z.literal(true), id: z.uuid() }),
            400: errorSchema,
            404: errorSchema,
            409: errorSchema,
            ...adminErrors,
          },
        },
      },
      async (request) => {
        await services.oauth.deauthorize(authOf(request).accountId, type, request.body.data_source);
        return { success: true as const, id: request.body.data_source };
      },
    );
  };
}
