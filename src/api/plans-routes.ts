import { BILLING_FREQUENCIES, PRICING_MODELS } from '../engine/vocabulary.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { InvalidInputError } from '../services/errors.js';
import { MAX_LIST_LIMIT } from '../services/limits.js';
import type { Services } from '../services/index.js';
import {
  planFields,
  planInputSchema,
  requireExternalId,
  withIdFromExternalId,
} from '../services/plans-service.js';
import { authOf, requireAdminToWrite } from './auth.js';
import { jsonOrCsv, plansFromCsv } from './csv-items.js';
import {
  bodyObject,
  dataSourceOf,
  dataSourceQuery,
  externalIdParams,
  itemResults,
  readErrors,
  serviceValidatedBody,
  sourcePageQuery,
  successId,
  writeErrors,
} from './data-schemas.js';
import { errorSchema, listOf } from './schemas.js';

export const planSchema = z.object({
  id: z.string(),
  name: z.string(),
  billing_freq: z.enum(BILLING_FREQUENCIES),
  billing_freq_count: z.number().int(),
  pricing_model: z.enum(PRICING_MODELS),
  product_name: z.string().nullable(),
  currency: z.string().describe('ISO 4217, lower case'),
});

/** A plan of the plan lists, which name its data source and its id as the hosted service does. */
const listedPlanSchema = planSchema.extend({
  external_id: z.string().describe('The same as id, under the name the hosted service uses'),
  data_source: z.uuid().describe('The data source holding the plan'),
});

/** A plan as served: its id also under the hosted service's name for it. */
const served = <Plan extends { id: string }>(plan: Plan) => ({ ...plan, external_id: plan.id });

const catalogueSchema = listedPlanSchema.extend({
  groups: z.array(z.object({ id: z.string(), name: z.string() })).describe('Plan groups holding the plan'),
});

const updateBody = z.strictObject(planFields).partial();
const updated = z.object({ result: z.literal('ok'), updated: z.string() });
const deleted = z.object({ result: z.literal('ok'), deleted: z.string() });
const recordErrors = { 404: errorSchema, 409: errorSchema, ...writeErrors } as const;

export function planRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireAdminToWrite);
    const tags = ['Data: plans'];

    app.get(
      '/data/plans',
      {
        schema: {
          tags,
          summary: 'List plans, ordered by id',
          querystring: sourcePageQuery,
          response: { 200: listOf(listedPlanSchema), ...readErrors },
        },
      },
      async (request) => {
        const { source, ...page } = request.query;
        const list = await services.plans.list(authOf(request).accountId, { ...page, dataSourceId: source });
        return { result: { count: list.length, list: list.map(served) } };
      },
    );

    app.post(
      '/data/plans',
      {
        config: { csv: true },
        schema: {
          tags,
          summary: 'Create or replace plans: one object or an array (JSON or CSV), one result per item',
          body: serviceValidatedBody(planInputSchema, { bulk: true }),
          response: { 200: itemResults, ...writeErrors },
        },
      },
      async (request) => ({
        result: await services.plans.import(authOf(request).accountId, jsonOrCsv(request.body, plansFromCsv)),
      }),
    );

    const update = async (
      accountId: string,
      id: unknown,
      patch: Record<string, unknown>,
      dataSource: string | undefined,
    ) => {
      const externalId = requireExternalId(id);
      await services.plans.update(accountId, externalId, patch, dataSource);
      return { result: 'ok' as const, updated: externalId };
    };

    app.put(
      '/data/plans',
      {
        schema: {
          tags,
          summary: 'Change the fields given of the plan whose id is in the body',
          querystring: dataSourceQuery,
          body: serviceValidatedBody(updateBody, { bulk: false }),
          response: { 200: updated, ...recordErrors },
        },
      },
      (request) => {
        const body = withIdFromExternalId(bodyObject(request.body));
        return update(authOf(request).accountId, body.id, body, dataSourceOf(request.query, body));
      },
    );

    app.get(
      '/data/plans/:id',
      {
        schema: {
          tags,
          summary: 'One plan',
          params: externalIdParams,
          querystring: dataSourceQuery,
          response: { 200: listedPlanSchema, 404: errorSchema, 409: errorSchema, ...readErrors },
        },
      },
      async (request) =>
        served(
          await services.plans.get(authOf(request).accountId, request.params.id, request.query.data_source),
        ),
    );

    app.get(
      '/plans',
      {
        schema: {
          tags: ['Plans'],
          summary: 'The plan catalogue: every plan with the plan groups it belongs to, ordered by id',
          querystring: sourcePageQuery.extend({ limit: sourcePageQuery.shape.limit.default(MAX_LIST_LIMIT) }),
          response: { 200: listOf(catalogueSchema), ...readErrors },
        },
      },
      async (request) => {
        const { source, ...page } = request.query;
        const list = await services.plans.catalogue(authOf(request).accountId, {
          ...page,
          dataSourceId: source,
        });
        return { result: { count: list.length, list: list.map(served) } };
      },
    );

    app.put(
      '/data/plans/:id',
      {
        schema: {
          tags,
          summary: 'Change the fields given of a plan',
          params: externalIdParams,
          querystring: dataSourceQuery,
          body: serviceValidatedBody(updateBody, { bulk: false }),
          response: { 200: updated, ...recordErrors },
        },
      },
      (request) => {
        const body = withIdFromExternalId(bodyObject(request.body));
        if (body.id !== undefined && body.id !== request.params.id) {
          throw new InvalidInputError('id in the body must equal the id in the path');
        }
        return update(authOf(request).accountId, request.params.id, body, dataSourceOf(request.query, body));
      },
    );

    app.delete(
      '/data/plans',
      {
        schema: {
          tags,
          summary: 'Delete the plan, or the plan group (UUID), whose id is in the body',
          description:
            'This path deletes plan groups too: an id naming a plan group of the account ' +
            'deletes that group (its plans stay) and answers {success, id}.',
          querystring: dataSourceQuery,
          body: serviceValidatedBody(z.object({ id: z.string(), data_source: z.string().optional() }), {
            bulk: false,
          }),
          response: { 200: z.union([deleted, successId]), ...recordErrors },
        },
      },
      async (request) => {
        const { accountId } = authOf(request);
        const body = withIdFromExternalId(bodyObject(request.body));
        const id = requireExternalId(body.id);
        if (await services.planGroups.exists(accountId, id)) {
          await services.planGroups.delete(accountId, id);
          return { success: true as const, id };
        }
        await services.plans.delete(accountId, id, dataSourceOf(request.query, body));
        return { result: 'ok' as const, deleted: id };
      },
    );

    app.delete(
      '/data/plans/:id',
      {
        schema: {
          tags,
          summary: 'Delete a plan; it leaves the plan groups it was in',
          params: externalIdParams,
          querystring: dataSourceQuery,
          response: { 200: deleted, ...recordErrors },
        },
      },
      async (request) => {
        await services.plans.delete(authOf(request).accountId, request.params.id, request.query.data_source);
        return { result: 'ok' as const, deleted: request.params.id };
      },
    );
  };
}
