import { DATA_SOURCE_TYPES } from '../engine/vocabulary.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../services/index.js';
import { authOf, requireAdminToWrite } from './auth.js';
import { authErrors, errorSchema, isoInstant, uuidParams } from './schemas.js';

const typeSchema = z.enum(DATA_SOURCE_TYPES, { error: `must be one of ${DATA_SOURCE_TYPES.join(', ')}` });
const nameSchema = z.string().trim().min(1, 'must not be empty').max(200);

const dataSourceSchema = z.object({
  id: z.uuid(),
  account_id: z.uuid(),
  name: z.string(),
  type: typeSchema,
  created_at: isoInstant,
});

const writeErrors = { 400: errorSchema, 403: errorSchema, ...authErrors } as const;

export function dataSourceRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireAdminToWrite);
    const tags = ['Data sources'];

    app.get(
      '/data/data-sources',
      {
        schema: {
          tags,
          summary: 'List data sources',
          querystring: z.object({ type: typeSchema.optional() }),
          response: { 200: z.object({ result: z.array(dataSourceSchema) }), 400: errorSchema, ...authErrors },
        },
      },
      async (request) => ({
        result: await services.dataSources.list(authOf(request).accountId, request.query.type),
      }),
    );

    app.post(
      '/data/data-sources',
      {
        schema: {
          tags,
          summary: 'Create a data source',
          body: z.object({ name: nameSchema, type: typeSchema }),
          response: { 201: dataSourceSchema, ...writeErrors },
        },
      },
      async (request, reply) => {
        const source = await services.dataSources.create(authOf(request).accountId, request.body);
        return reply.status(201).send(source);
      },
    );

    app.get(
      '/data/data-sources/:id',
      {
        schema: {
          tags,
          summary: 'One data source',
          params: uuidParams,
          response: { 200: dataSourceSchema, 404: errorSchema, 400: errorSchema, ...authErrors },
        },
      },
      (request) => services.dataSources.get(authOf(request).accountId, request.params.id),
    );

    app.put(
      '/data/data-sources/:id',
      {
        schema: {
          tags,
          summary: 'Rename a data source or change its type',
          params: uuidParams,
          body: z.object({ name: nameSchema.optional(), type: typeSchema.optional() }),
          response: { 200: dataSourceSchema, 404: errorSchema, ...writeErrors },
        },
      },
      (request) => services.dataSources.update(authOf(request).accountId, request.params.id, request.body),
    );

    app.delete(
      '/data/data-sources/:id',
      {
        schema: {
          tags,
          summary: 'Delete a data source',
          params: uuidParams,
          response: { 204: z.null().describe('Deleted'), 404: errorSchema, ...writeErrors },
        },
      },
      async (request, reply) => {
        await services.dataSources.delete(authOf(request).accountId, request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
