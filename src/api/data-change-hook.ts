import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/index.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * After every successful write of an account, tells notifications that its data may have
 * changed: detection then runs soon after (docs/notifications.md). Writes that change no
 * revenue data (a settings change) only cost a detection that finds nothing new.
 */
export function registerDataChangeHook(app: FastifyInstance, services: Services): void {
  app.addHook('onResponse', async (request, reply) => {
    if (READS.has(request.method) || reply.statusCode >= 300 || !request.auth) return;
    const { accountId } = request.auth;
    // The answer is sent; a failure here is logged, never the client's.
    services.notifications.dataChanged(accountId).catch((error: unknown) => {
      request.log.error({ err: error, accountId }, 'Revenue event detection failed');
    });
  });
}
