import { z } from 'zod';

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
