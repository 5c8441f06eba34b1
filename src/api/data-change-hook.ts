import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/index.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * After every successful write of an account, tells notifications that its data may have
 * changed: detection then runs soon after (docs/notifications.md). Writes that change no
 * revenue data (a settings change) only cost a detection that finds nothing new.
 */
export function registerDataChangeHook(app: FastifyInstance, services: Services): void {
  // On send: the handler's transaction has committed, and the detection is asked for before
  // the client has its answer, so a client that then waits for it (a test) finds it asked for.
  app.addHook('onSend', async (request, reply, payload) => {
    if (READS.has(request.method) || reply.statusCode >= 300 || !request.auth) return payload;
    const { accountId } = request.auth;
    // Not awaited: the answer does not wait, and a failure is logged, never the client's.
    services.notifications.dataChanged(accountId).catch((error: unknown) => {
      request.log.error({ err: error, accountId }, 'Revenue event detection failed');
    });
    return payload;
  });
}
