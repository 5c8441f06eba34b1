import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CUSTOMER_STATUSES, customerInputSchema } from '../services/customers-service.js';
import type { Services } from '../services/index.js';
import { authOf, requireAdminToWrite } from './auth.js';
import { customersFromCsv, jsonOrCsv } from './csv-items.js';
import {
  dataSourceOf,
  dataSourceQuery,
  externalIdParams,
  readErrors,
  recordErrors,
  serviceValidatedBody,
  sourcePageQuery,
  writeErrors,
} from './data-schemas.js';
import { errorSchema, isoInstant, listOf } from './schemas.js';

const listItemSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  created_date: isoInstant,
  country: z.string().nullable().describe('ISO 3166-1 alpha-2, upper case'),
  trial_started: isoInstant.nullable(),
  paid_started: isoInstant.nullable(),
  cancel_date: isoInstant.nullable(),
  status: z.enum(CUSTOMER_STATUSES),
  currency: z.string().nullable().describe('ISO 4217, lower case'),
  data_source: z.uuid(),
});

const customerSchema = listItemSchema.extend({
  state: z.string().nullable(),
  trial_end_date: isoInstant.nullable(),
  overdue_date: isoInstant.nullable(),
  cancel_reason: z.string().nullable(),
  custom_variables: z.record(z.string(), z.string()),
  current_mrr: z.record(z.string(), z.number().int()).describe('Cents per lower-case currency code'),
});

const patchBody = customerInputSchema.omit({ id: true }).partial();

export function customerRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireAdminToWrite);
    const tags = ['Data: customers'];

    app.get(
      '/data/customers',
      {
        schema: {
          tags,
          summary: 'List raw customers, ordered by id',
          querystring: sourcePageQuery,
          response: { 200: listOf(listItemSchema), ...readErrors },
        },
      },
      async (request) => {
        const { source, ...page } = request.query;
        const list = await services.customers.list(authOf(request).accountId, {
          ...page,
          dataSourceId: source,
        });
        return { result: { count: list.length, list } };
      },
    );

    app.get(
      '/data/customers/:id',
      {
        schema: {
          tags,
          summary: 'One raw customer, without envelope',
          params: externalIdParams,
          querystring: dataSourceQuery,
          response: { 200: customerSchema, ...recordErrors },
        },
      },
      (request) =>
        services.customers.get(authOf(request).accountId, request.params.id, request.query.data_source),
    );

    app.post(
      '/data/customers',
      {
        config: { csv: true },
        schema: {
          tags,
          summary: 'Create or update customers: one object or an array (JSON or CSV); all or nothing',
          body: serviceValidatedBody(customerInputSchema, { bulk: true }),
          response: {
            201: z.object({
              result: z.object({ count: z.number().int(), list: z.array(z.object({ id: z.string() })) }),
            }),
            ...writeErrors,
          },
        },
      },
      async (request, reply) => {
        const body = jsonOrCsv(request.body, customersFromCsv);
        const list = await services.customers.upsert(authOf(request).accountId, body);
        return reply.status(201).send({ result: { count: list.length, list } });
      },
    );

    app.put(
      '/data/customers/:id',
      {
        schema: {
          tags,
          summary: 'Change the fields given; custom_variables are merged',
          params: externalIdParams,
          querystring: dataSourceQuery,
          body: serviceValidatedBody(patchBody, { bulk: false }),
          response: {
            200: z.object({ success: z.literal(true), result: customerSchema }),
            404: errorSchema,
            409: errorSchema,
            ...writeErrors,
          },
        },
      },
      async (request) => {
        const result = await services.customers.update(
          authOf(request).accountId,
          request.params.id,
          request.body,
          dataSourceOf(request.query, request.body),
        );
        return { success: true as const, result };
      },
    );

    app.delete(
      '/data/customers/:id',
      {
        schema: {
          tags,
          summary: 'Delete a customer with its invoices and subscriptions',
          params: externalIdParams,
          querystring: dataSourceQuery,
          response: {
            200: z.object({ success: z.literal(true), id: z.string() }),
            404: errorSchema,
            409: errorSchema,
            ...writeErrors,
          },
        },
      },
      async (request) => {
        await services.customers.delete(
          authOf(request).accountId,
          request.params.id,
          request.query.data_source,
        );
        return { success: true as const, id: request.params.id };
      },
    );
  };
}
