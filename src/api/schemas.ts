import { z } from 'zod';
import { TEAM_ROLES } from '../services/team-service.js';

export const errorSchema = z.object({ error: z.string() }).describe('What went wrong, in one sentence');

/** The error responses every authenticated route can give, for the OpenAPI document. */
export const authErrors = { 401: errorSchema, 429: errorSchema } as const;
export const adminErrors = { ...authErrors, 403: errorSchema } as const;

export const uuidParams = z.object({ id: z.uuid({ error: 'must be a UUID' }) });

export const isoInstant = z.string().describe('ISO 8601 instant');

/** The usual list envelope, `{result:{count, list}}`; `count` is the number of items in `list`. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ result: z.object({ count: z.number().int(), list: z.array(item) }) });
}

/** The account itself, in the API and in the web interface. */
export const accountProfileSchema = z.object({
  id: z.string(),
  name: z.string(),
  base_currency: z.string().describe('Lower-case ISO 4217 code that reports convert to by default'),
  created_at: isoInstant,
});

/** A team member as the account's admins see it, in the API and in the web interface. */
export const teamMemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(TEAM_ROLES),
  status: z.enum(['active', 'pending', 'disabled']),
  last_login: isoInstant.nullable(),
});

/** The error responses of the web interface's own routes. */
export const webErrors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  429: errorSchema,
} as const;
