import { SUBSCRIPTION_STATUSES } from '../engine/vocabulary.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../services/index.js';
import { subscriptionInputSchema } from '../services/subscriptions-service.js';
import { requireAdminToWrite } from './auth.js';
import { registerRecordRoutes } from './record-routes.js';
import { isoInstant } from './schemas.js';

const subscriptionSchema = z.object({
  id: z.string(),
  data_source: z.uuid(),
  customer_id: z.string(),
  plan_id: z.string().nullable(),
  quantity: z.number().int(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  started_at: isoInstant,
  cancel_requested_at: isoInstant.nullable(),
  cancel_at: isoInstant.nullable(),
  ended_at: isoInstant.nullable(),
  mrr: z.number().int().nullable(),
  currency: z.string().nullable(),
  scheduled_changes: z.array(
    z.object({
      date: z.string().describe('YYYY-MM-DD'),
      plan_id: z.string().optional(),
      quantity: z.number().int().optional(),
      amount: z.number().int().optional(),
    }),
  ),
});

export function subscriptionRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireAdminToWrite);
    registerRecordRoutes(app, {
      path: '/data/subscriptions',
      plural: 'subscriptions',
      tags: ['Data: subscriptions'],
      service: services.subscriptions,
      input: subscriptionInputSchema,
      output: subscriptionSchema,
    });
  };
}
