import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../engine/webhook-events.js';
import type { Services } from '../services/index.js';
import { webhookInputSchema, WebhookExistsError } from '../services/webhooks-service.js';
import { authOf, requireAdmin, requireAdminToWrite } from './auth.js';
import { adminErrors, authErrors, errorSchema, isoInstant } from './schemas.js';

const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  event_type: z.string(),
  created_at: isoInstant,
});

const secretSchema = z
  .string()
  .describe('Signs every delivery (docs/webhooks.md); keep it with the receiver');

const deliverySchema = z.object({
  id: z.string().describe('The delivery id, sent as the body\'s "id" on every attempt'),
  event_key: z.string().describe('The event delivered: one delivery per event and webhook'),
  event_type: z.string(),
  status: z
    .enum(['pending', 'delivered', 'dead'])
    .describe('pending: not yet through, dead: every attempt failed'),
  attempts: z.number().int(),
  last_status: z.number().int().nullable().describe("The receiver's HTTP status at the last attempt"),
  last_response: z.string().nullable().describe("The start of the receiver's last answer"),
  last_error: z.string().nullable(),
  last_attempt_at: isoInstant.nullable(),
  next_attempt_at: isoInstant.nullable().describe('Earliest time of the next attempt while pending'),
  created_at: isoInstant,
});

const bodySchema = z.object({
  id: z.string(),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  created_at: isoInstant,
  data: z.record(z.string(), z.unknown()),
});

const verifyResultSchema = webhookSchema.extend({
  success: z.boolean().describe('The receiver answered 2xx'),
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
});

const deadJobSchema = z.object({
  id: z.string(),
  queue: z.string(),
  payload: z.record(z.string(), z.unknown()),
  attempts: z.number().int(),
  error: z.string().nullable(),
  created_at: isoInstant,
  failed_at: isoInstant,
});

const webhookParams = z.object({ id: z.string().describe('Webhook id (UUID)') });
const verifyInput = z.strictObject({ id: z.string().optional().describe('Only this webhook') });
const listSchema = z.object({ webhooks: z.array(webhookSchema) });
const created = { 201: webhookSchema.extend({ secret: secretSchema }), 400: errorSchema } as const;
const conflict = {
  409: z.object({
    error: z.string(),
    existing_id: z.string().describe('The webhook with this URL and event type'),
  }),
} as const;

/**
 * Outbound webhooks (docs/webhooks.md) and the account's dead background jobs. Viewers read;
 * writes and test deliveries need an admin key or role, and only those see signing secrets.
 */
export function integrationRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireAdminToWrite);
    const tags = ['Webhooks'];
    const { webhooks } = services;

    for (const [path, summary] of [
      ['/integrations/webhooks', "The account's webhooks"],
      ['/settings/webhook', 'The same list, where the settings clients look for it'],
    ] as const)
      app.get(
        path,
        { schema: { tags, summary, response: { 200: listSchema, ...authErrors } } },
        async (request) => ({
          webhooks: await webhooks.list(authOf(request).accountId),
        }),
      );

    for (const [path, summary] of [
      ['/integrations/webhooks', 'Subscribe a URL to an event type; the answer shows the signing secret'],
      ['/settings/webhook', 'The same as POST /integrations/webhooks'],
    ] as const)
      app.post(
        path,
        {
          schema: {
            tags,
            summary,
            body: webhookInputSchema,
            response: { ...created, ...conflict, ...adminErrors },
          },
        },
        async (request, reply) => {
          try {
            return reply.status(201).send(await webhooks.create(authOf(request).accountId, request.body));
          } catch (error) {
            if (!(error instanceof WebhookExistsError)) throw error;
            return reply.status(409).send({ error: error.message, existing_id: error.existingId });
          }
        },
      );

    app.get(
      '/integrations/webhooks/:id',
      {
        schema: {
          tags,
          summary: 'One webhook with its 50 latest deliveries; its secret for admins',
          params: webhookParams,
          response: {
            200: webhookSchema.extend({
              secret: secretSchema.optional(),
              deliveries: z.array(deliverySchema),
            }),
            404: errorSchema,
            ...authErrors,
          },
        },
      },
      async (request) => {
        const auth = authOf(request);
        const { webhook, secret, deliveries } = await webhooks.get(auth.accountId, request.params.id);
        return { ...webhook, ...(auth.accessLevel === 'admin' ? { secret } : {}), deliveries };
      },
    );

    app.delete(
      '/integrations/webhooks/:id',
      {
        schema: {
          tags,
          summary: 'Delete a webhook with its delivery log; deliveries still queued are dropped',
          params: webhookParams,
          response: {
            200: z.object({ success: z.literal(true), message: z.string() }),
            404: errorSchema,
            ...adminErrors,
          },
        },
      },
      async (request) => {
        await webhooks.delete(authOf(request).accountId, request.params.id);
        return { success: true as const, message: `Webhook ${request.params.id} deleted` };
      },
    );

    app.get(
      '/integrations/sample/:event',
      {
        schema: {
          tags,
          summary: 'A delivery body of this event type, with made-up data',
          params: z.object({ event: z.string().describe(`One of ${WEBHOOK_EVENT_TYPES.join(', ')}`) }),
          response: { 200: bodySchema, 404: errorSchema, ...authErrors },
        },
      },
      (request) => webhooks.sample(request.params.event),
    );

    const verifySchema = {
      tags,
      response: { 200: z.object({ results: z.array(verifyResultSchema) }), 404: errorSchema, ...adminErrors },
    };
    const verify = async (accountId: string, id: string | undefined) => ({
      results: await webhooks.verify(accountId, id),
    });
    app.get(
      '/integrations/verify',
      {
        onRequest: requireAdmin,
        schema: {
          ...verifySchema,
          summary: 'Send a test delivery to every webhook (or the one given) now, and say how each answered',
          querystring: verifyInput,
        },
      },
      (request) => verify(authOf(request).accountId, request.query.id),
    );
    app.post(
      '/integrations/verify',
      {
        schema: {
          ...verifySchema,
          summary: 'The same as GET /integrations/verify',
          body: verifyInput.nullish(),
        },
      },
      (request) => verify(authOf(request).accountId, request.body?.id),
    );

    app.get(
      '/jobs/dead',
      {
        onRequest: requireAdmin,
        schema: {
          tags: ['Background jobs'],
          summary: "The account's background jobs that failed every attempt, newest first (at most 100)",
          response: { 200: z.object({ jobs: z.array(deadJobSchema) }), ...adminErrors },
        },
      },
      async (request) => ({ jobs: await services.jobs.dead(authOf(request).accountId) }),
    );
  };
}
