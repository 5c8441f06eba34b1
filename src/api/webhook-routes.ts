import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../services/index.js';
import { errorSchema } from './schemas.js';

/**
 * Live sync: the billing system posts its events here. The route takes no API key (the system
 * has none of ours); the event's signature, checked against the source's signing secret, is
 * its authentication. The body is kept as sent, since the signature covers its exact bytes.
 */
export function webhookRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      done(null, body);
    });

    app.post(
      '/webhooks/processor-a/:accountId/:id',
      {
        config: { public: true },
        schema: {
          tags: ['Data sources'],
          summary:
            "Receive a Stripe event for a processor-a source (signed with the source's webhook secret)",
          params: z.object({
            accountId: z.uuid({ error: 'must be a UUID' }),
            id: z.uuid({ error: 'must be a UUID' }),
          }),
          headers: z.object({ 'stripe-signature': z.string().min(1, 'is required') }),
          body: z.string(),
          response: {
            200: z.object({
              received: z.literal(true),
              outcome: z.enum(['applied', 'duplicate', 'ignored']),
            }),
            400: errorSchema,
            404: errorSchema,
            409: errorSchema,
          },
        },
      },
      async (request) => ({
        received: true as const,
        outcome: await services.imports.receiveEvent(
          request.params.accountId,
          request.params.id,
          request.body,
          request.headers['stripe-signature'],
        ),
      }),
    );
  };
}
