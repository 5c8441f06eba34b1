import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../services/index.js';
import { profileChangeSchema, type ProfileSubject } from '../services/profile-service.js';
import { authOf, requireAdmin } from './auth.js';
import { adminErrors, errorSchema } from './schemas.js';

const profileSchema = z.object({
  id: z.string().describe('The team member'),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  locale: z.string().nullable().describe('BCP 47 language tag'),
  timezone: z.string().nullable().describe('IANA time zone'),
  accounts: z
    .array(
      z.object({ account_id: z.string(), name: z.string(), role: z.enum(['owner', 'admin', 'readonly']) }),
    )
    .describe('Every account this email is a member of, with its role there'),
});

/**
 * A signed-in member reads and changes their own profile, whatever their role. An API key has no
 * person behind it: it answers for the account's owner, so it needs admin access (docs/decisions.md).
 */
async function subjectOf(request: FastifyRequest): Promise<ProfileSubject> {
  const auth = authOf(request);
  if ('sessionId' in auth) return { accountId: auth.accountId, memberId: auth.memberId };
  await requireAdmin(request);
  return { accountId: auth.accountId };
}

export function profileRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Account'];
    const errors = { 404: errorSchema, ...adminErrors };

    app.get(
      '/profile',
      {
        schema: {
          tags,
          summary: "The signed-in member's profile; with an API key, the account owner's",
          response: { 200: profileSchema, ...errors },
        },
      },
      async (request) => services.profile.get(await subjectOf(request)),
    );

    app.put(
      '/profile',
      {
        schema: {
          tags,
          summary: 'Change some of the profile: names, locale, time zone',
          body: profileChangeSchema,
          response: { 200: profileSchema, 400: errorSchema, ...errors },
        },
      },
      async (request) => services.profile.update(await subjectOf(request), request.body),
    );
  };
}
