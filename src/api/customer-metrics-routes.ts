import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CUSTOMER_SORTS } from '../engine/reports/customer-item.js';
import type { Services } from '../services/index.js';
import { authOf, requireAdmin } from './auth.js';
import { pageQuery } from './data-schemas.js';
import { reportFilterQuery } from './report-schemas.js';
import { authErrors, errorSchema } from './schemas.js';

const day = z.string().nullable().describe('YYYY-MM-DD');

const customerItem = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  created_date: z.string().describe('YYYY-MM-DD'),
  country: z.string().nullable(),
  mrr: z.number().int().describe('MRR today, cents of the base currency'),
  trial_started: day,
  paid_started: day,
  cancel_date: day,
  status: z
    .enum(['active', 'cancelled'])
    .describe('cancelled once a customer that paid has no MRR; leads and trials are active'),
  currency: z.string(),
});

const customerDetail = customerItem.omit({ mrr: true }).extend({
  current_subscriptions: z.array(
    z.object({
      plan_id: z.string().nullable(),
      name: z.string().nullable(),
      billing_freq: z.string().nullable(),
      billing_freq_count: z.number().int().nullable(),
      currency: z.string(),
      mrr: z.number().int().describe("Cents of the customer's currency"),
    }),
  ),
  converted_mrr: z.number().int().describe('MRR today in the base currency, at the latest rates'),
});

const listQuery = reportFilterQuery.extend(pageQuery.shape).extend({
  status: z.enum(['active', 'cancelled', 'all']).default('active'),
  q: z.string().optional().describe('Part of the name, email or id'),
  'selected-date': z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
    .optional()
    .describe('Only customers who became leads, trials or paying in the period holding this day'),
  'selected-type': z.enum(['lead', 'trials', 'converted']).default('lead'),
  interval: z
    .string()
    .optional()
    .describe('Period of selected-date: day, week, month, quarter or year; default month'),
  sort: z.enum(CUSTOMER_SORTS).default('mrr'),
  order: z.enum(['asc', 'desc']).default('desc'),
});

const customerParams = z.object({ customerId: z.string().min(1) });
const dataSource = z.object({ data_source: z.uuid({ error: 'must be a data source id (UUID)' }).optional() });
const notFound = { 404: errorSchema, 409: errorSchema } as const;

export function customerMetricsRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Customers'];

    app.get(
      '/customers',
      {
        schema: {
          tags,
          summary: 'Customers with their MRR, filtered and sorted',
          querystring: listQuery,
          response: {
            200: z.object({
              currency: z.string().describe('The currency of mrr: the base currency'),
              result: z.object({ count: z.number().int(), list: z.array(customerItem) }),
            }),
            400: errorSchema,
            ...authErrors,
          },
        },
      },
      async (request) => {
        const { limit, offset, status, q, sort, order, ...filters } = request.query;
        const { currency, list } = await services.customerMetrics.list(authOf(request).accountId, {
          limit,
          offset,
          status,
          q,
          selectedDate: filters['selected-date'],
          selectedType: filters['selected-type'],
          sort,
          order,
          filters,
        });
        return { currency, result: { count: list.length, list } };
      },
    );

    app.get(
      '/customers/:customerId',
      {
        schema: {
          tags,
          summary: 'One customer with its current subscriptions and MRR',
          params: customerParams,
          querystring: dataSource.extend({ baseCurrency: z.string().optional() }),
          response: { 200: customerDetail, 400: errorSchema, ...notFound, ...authErrors },
        },
      },
      async (request) => {
        const { data_source, baseCurrency } = request.query;
        return services.customerMetrics.detail(
          authOf(request).accountId,
          request.params.customerId,
          { baseCurrency },
          data_source,
        );
      },
    );

    app.post(
      '/customers/:customerId/resync',
      {
        onRequest: requireAdmin,
        schema: {
          tags,
          summary:
            'Re-import the customer from its billing system, if connected, and recompute its metrics (admin)',
          params: customerParams,
          querystring: dataSource,
          response: {
            200: z.object({ message: z.literal('Resync initiated') }),
            403: errorSchema,
            ...notFound,
            ...authErrors,
          },
        },
      },
      async (request) => {
        const { accountId } = authOf(request);
        const { customerId } = request.params;
        const resynced = await services.imports.resyncCustomer(
          accountId,
          customerId,
          request.query.data_source,
        );
        // A customer deleted at its billing system was deleted here too, with its metrics.
        if (resynced !== 'deleted')
          await services.customerMetrics.resync(accountId, customerId, request.query.data_source);
        return { message: 'Resync initiated' as const };
      },
    );
  };
}
