import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../services/index.js';
import { planGroupInputSchema, planGroupPatchSchema } from '../services/plan-groups-service.js';
import { authOf, requireAdminToWrite } from './auth.js';
import { pageQuery, readErrors, successId, writeErrors } from './data-schemas.js';
import { planSchema } from './plans-routes.js';
import { errorSchema, listOf } from './schemas.js';

const groupSchema = z.object({ id: z.uuid(), name: z.string(), plans: z.array(planSchema) });

// Group ids are UUIDs the service assigns; any other id names no group, so it is a 404 like an unknown one.
const groupParams = z.object({ id: z.string().describe('Plan group id (UUID)') });

const missing = { 404: errorSchema } as const;

export function planGroupRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireAdminToWrite);
    const tags = ['Data: plan groups'];

    app.get(
      '/data/plan-groups',
      {
        schema: {
          tags,
          summary: 'List plan groups with their plans, oldest first',
          querystring: pageQuery,
          response: { 200: listOf(groupSchema), ...readErrors },
        },
      },
      async (request) => {
        const list = await services.planGroups.list(authOf(request).accountId, request.query);
        return { result: { count: list.length, list } };
      },
    );

    app.get(
      '/data/plan-groups/:id',
      {
        schema: {
          tags,
          summary: 'One plan group with its plans',
          params: groupParams,
          response: { 200: groupSchema, ...missing, ...readErrors },
        },
      },
      (request) => services.planGroups.get(authOf(request).accountId, request.params.id),
    );

    app.post(
      '/data/plan-groups',
      {
        schema: {
          tags,
          summary: 'Create a plan group of existing plans',
          body: planGroupInputSchema,
          response: { 200: successId, 409: errorSchema, ...writeErrors },
        },
      },
      async (request) => ({
        success: true as const,
        id: await services.planGroups.create(authOf(request).accountId, request.body),
      }),
    );

    app.put(
      '/data/plan-groups/:id',
      {
        schema: {
          tags,
          summary: 'Rename a plan group or replace its plans',
          params: groupParams,
          body: planGroupPatchSchema,
          response: { 200: successId, 409: errorSchema, ...missing, ...writeErrors },
        },
      },
      async (request) => {
        await services.planGroups.update(authOf(request).accountId, request.params.id, request.body);
        return { success: true as const, id: request.params.id };
      },
    );

    app.delete(
      '/data/plan-groups/:id',
      {
        schema: {
          tags,
          summary: 'Delete a plan group; its plans stay',
          params: groupParams,
          response: { 200: successId, ...missing, ...writeErrors },
        },
      },
      async (request) => {
        await services.planGroups.delete(authOf(request).accountId, request.params.id);
        return { success: true as const, id: request.params.id };
      },
    );
  };
}
