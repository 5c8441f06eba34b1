import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../services/index.js';
import { segmentInputSchema, segmentPatchSchema } from '../services/segments-service.js';
import { authOf, requireAdminToWrite } from './auth.js';
import { pageQuery, readErrors, successId, writeErrors } from './data-schemas.js';
import { errorSchema, listOf } from './schemas.js';

const segmentSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  filters: z.record(z.string(), z.string()).describe('The report filter parameters the segment stands for'),
  mode: z.enum(['filter', 'breakdown']),
});

const segmentParams = z.object({ id: z.string().describe('Segment id (UUID)') });
const missing = { 404: errorSchema } as const;

/** /data/segments: saved filters that every report applies with `segment=<id>`. */
export function segmentRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireAdminToWrite);
    const tags = ['Data: segments'];

    app.get(
      '/data/segments',
      {
        schema: {
          tags,
          summary: 'List saved segments, oldest first',
          querystring: pageQuery,
          response: { 200: listOf(segmentSchema), ...readErrors },
        },
      },
      async (request) => {
        const list = await services.segments.list(authOf(request).accountId, request.query);
        return { result: { count: list.length, list } };
      },
    );

    app.get(
      '/data/segments/:id',
      {
        schema: {
          tags,
          summary: 'One saved segment',
          params: segmentParams,
          response: { 200: segmentSchema, ...missing, ...readErrors },
        },
      },
      (request) => services.segments.get(authOf(request).accountId, request.params.id),
    );

    app.post(
      '/data/segments',
      {
        schema: {
          tags,
          summary: 'Save a combination of report filters; they are checked as a report would',
          body: segmentInputSchema,
          response: { 200: successId, ...writeErrors },
        },
      },
      async (request) => ({
        success: true as const,
        id: await services.segments.create(authOf(request).accountId, request.body),
      }),
    );

    app.put(
      '/data/segments/:id',
      {
        schema: {
          tags,
          summary: 'Change a segment; given filters replace the saved ones',
          params: segmentParams,
          body: segmentPatchSchema,
          response: { 200: successId, ...missing, ...writeErrors },
        },
      },
      async (request) => {
        await services.segments.update(authOf(request).accountId, request.params.id, request.body);
        return { success: true as const, id: request.params.id };
      },
    );

    app.delete(
      '/data/segments/:id',
      {
        schema: {
          tags,
          summary: 'Delete a segment',
          params: segmentParams,
          response: { 200: successId, ...missing, ...writeErrors },
        },
      },
      async (request) => {
        await services.segments.delete(authOf(request).accountId, request.params.id);
        return { success: true as const, id: request.params.id };
      },
    );
  };
}
