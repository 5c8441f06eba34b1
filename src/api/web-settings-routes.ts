import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../services/index.js';
import { ASSIGNABLE_ROLES, SETTABLE_STATUSES } from '../services/team-service.js';
import { requireAdmin, sessionOf } from './auth.js';
import { accountProfileSchema, isoInstant, teamMemberSchema, uuidParams, webErrors } from './schemas.js';

const issuedKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  access_level: z.enum(['admin', 'viewer']),
  created_at: isoInstant,
  last_used: isoInstant.nullable(),
  key: z.string().describe('The secret: shown this once, never again'),
  prefix: z.string(),
});

/**
 * What only the web interface does (docs/decisions.md, "Web sessions: the API's own auth hook
 * accepts a session cookie"): creating, regenerating and deleting API keys, and inviting and
 * changing team members; and the account page's base currency (which admin keys change with
 * POST /settings too). Only a signed-in owner or admin, never an API key; the lists themselves are
 * the API's /account/api-keys and /account/team.
 */
export function webSettingsRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', async (request) => {
      sessionOf(request);
      await requireAdmin(request);
    });
    const hide = true;

    app.post(
      '/web/api-keys',
      {
        schema: {
          hide,
          body: z.object({
            name: z.string().trim().min(1).max(200),
            access_level: z.enum(['admin', 'viewer']),
          }),
          response: { 201: issuedKeySchema, ...webErrors },
        },
      },
      async (request, reply) => {
        const { name, access_level } = request.body;
        const key = await services.apiKeys.create(sessionOf(request).accountId, {
          name,
          accessLevel: access_level,
        });
        return reply.status(201).send(key);
      },
    );

    app.post(
      '/web/api-keys/:id/regenerate',
      { schema: { hide, params: uuidParams, response: { 200: issuedKeySchema, ...webErrors } } },
      (request) => services.apiKeys.regenerate(sessionOf(request).accountId, request.params.id),
    );

    app.delete(
      '/web/api-keys/:id',
      { schema: { hide, params: uuidParams, response: { 204: z.null(), ...webErrors } } },
      async (request, reply) => {
        await services.apiKeys.delete(sessionOf(request).accountId, request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/web/team',
      {
        schema: {
          hide,
          body: z.object({
            email: z.string().max(320),
            name: z.string().trim().max(200).optional(),
            role: z.enum(ASSIGNABLE_ROLES),
          }),
          response: {
            201: z.object({
              member: teamMemberSchema,
              invite_token: z.string().describe('Opens /#/invite/<token> once, to set a password'),
            }),
            ...webErrors,
          },
        },
      },
      async (request, reply) => {
        const invitation = await services.team.invite(sessionOf(request).accountId, request.body);
        return reply.status(201).send({ member: invitation.member, invite_token: invitation.token });
      },
    );

    app.patch(
      '/web/team/:id',
      {
        schema: {
          hide,
          params: uuidParams,
          body: z
            .strictObject({
              role: z.enum(ASSIGNABLE_ROLES).optional(),
              status: z.enum(SETTABLE_STATUSES).optional(),
            })
            .refine((body) => body.role !== undefined || body.status !== undefined, 'give role or status'),
          response: { 200: teamMemberSchema, ...webErrors },
        },
      },
      (request) => {
        const session = sessionOf(request);
        return services.team.change(session.accountId, session.memberId, request.params.id, request.body);
      },
    );

    app.patch(
      '/web/account',
      {
        schema: {
          hide,
          body: z.strictObject({ base_currency: z.string().trim().min(1).max(10) }),
          response: { 200: accountProfileSchema, ...webErrors },
        },
      },
      (request) =>
        services.accounts.setBaseCurrency(sessionOf(request).accountId, request.body.base_currency),
    );
  };
}
