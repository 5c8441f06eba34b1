import { z } from 'zod';
import { InvalidInputError } from '../services/errors.js';
import { DEFAULT_LIST_LIMIT, MAX_BULK_ITEMS, MAX_LIST_LIMIT, MAX_LIST_OFFSET } from '../services/limits.js';
import { authErrors, errorSchema } from './schemas.js';

export const pageQuery = z.object({
  limit: z.coerce
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(MAX_LIST_LIMIT, `must be at most ${MAX_LIST_LIMIT}`)
    .default(DEFAULT_LIST_LIMIT)
    .describe(`Most records returned; default ${DEFAULT_LIST_LIMIT}, at most ${MAX_LIST_LIMIT}`),
  offset: z.coerce
    .number()
    .int('must be an integer')
    .min(0, 'must not be negative')
    .max(MAX_LIST_OFFSET, `must be at most ${MAX_LIST_OFFSET}`)
    .default(0)
    .describe(`Records skipped first; at most ${MAX_LIST_OFFSET}`),
});

const dataSourceId = z.uuid({ error: 'must be a data source id (UUID)' });

export const sourcePageQuery = pageQuery.extend({
  source: dataSourceId.optional().describe('Only records of this data source'),
});

/** Names the data source when several hold the same external id. */
export const dataSourceQuery = z.object({
  data_source: dataSourceId.optional().describe('Data source of the record, needed when several hold its id'),
});

export const externalIdParams = z.object({ id: z.string().min(1).describe('External id') });

export const successId = z.object({ success: z.literal(true), id: z.string() });

export const itemResults = z.object({
  result: z.array(
    z.object({
      id: z.string().nullable().describe("The item's id; null when it gave none"),
      import_status: z.enum(['inserted', 'error']).describe('inserted: stored (created or replaced)'),
      import_error: z.string().optional().describe('Why the item was refused, naming the field'),
    }),
  ),
});

export const readErrors = { 400: errorSchema, ...authErrors } as const;
export const recordErrors = { 400: errorSchema, 404: errorSchema, 409: errorSchema, ...authErrors } as const;
export const writeErrors = {
  400: errorSchema,
  403: errorSchema,
  413: errorSchema,
  415: errorSchema,
  ...authErrors,
} as const;

function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    io: 'input',
    target: 'openapi-3.0',
    unrepresentable: 'any',
  });
  return json;
}

/**
 * A body the service validates itself, item by item, so that one bad item cannot reject the
 * request before the service reports it; the OpenAPI document still shows the item schema.
 */
export function serviceValidatedBody(item: z.ZodType, options: { bulk: boolean }) {
  const json = inputJsonSchema(item);
  const shape = options.bulk
    ? { anyOf: [json, { type: 'array', items: json, maxItems: MAX_BULK_ITEMS }] }
    : json;
  return z.unknown().meta(shape);
}

/** A write names a record's data source in the query or, as importers often do, in the body. */
export function dataSourceOf(query: { data_source?: string | undefined }, body: unknown): string | undefined {
  if (query.data_source !== undefined) return query.data_source;
  const inBody =
    typeof body === 'object' && body !== null ? (body as { data_source?: unknown }).data_source : undefined;
  return typeof inBody === 'string' ? inBody : undefined;
}

/** A single-record body; no body counts as an empty object. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw new InvalidInputError('Body must be a JSON object');
  return body as Record<string, unknown>;
}
