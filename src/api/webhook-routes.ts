import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PROCESSOR_TYPES } from '../engine/vocabulary.js';
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
      '/webhooks/:type/:accountId/:id',
      {
        config: { public: true },
        schema: {
          tags: ['Data sources'],
          summary:
            "Receive a billing system's event for a connected source (checked with its webhook secret)",
          description:
            'processor-a checks the Stripe-Signature header, processor-b the password of the Basic Authorization header, processor-c the Recurly-Signature header; see docs/connectors.md.',
          params: z.object({
            type: z.enum(PROCESSOR_TYPES, { error: `must be one of ${PROCESSOR_TYPES.join(', ')}` }),
            accountId: z.uuid({ error: 'must be a UUID' }),
            id: z.uuid({ error: 'must be a UUID' }),
          }),
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
          request.params.type,
          request.body,
          request.headers,
        ),
      }),
    );
  };
}
