import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../services/index.js';

const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  store: z.object({ kind: z.enum(['pglite', 'postgres']), reachable: z.boolean() }),
  error: z.string().optional(),
});

export function healthRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        config: { public: true },
        schema: {
          tags: ['Service'],
          summary: 'Whether the service can reach its store (no API key needed)',
          security: [],
          response: { 200: healthSchema, 503: healthSchema },
        },
      },
      async (request, reply) => {
        const kind = services.store.kind;
        try {
          await services.store.ping();
          return { status: 'ok' as const, store: { kind, reachable: true } };
        } catch (err) {
          request.log.warn({ err }, 'store unreachable');
          return reply
            .status(503)
            .send({ status: 'unavailable', store: { kind, reachable: false }, error: 'Store unreachable' });
        }
      },
    );

    app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, () => app.swagger());
  };
}
