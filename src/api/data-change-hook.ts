import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/index.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * After every successful write of an account, its changed customers are derived in the
 * background, so the next report does not wait for them (docs/decisions.md, "Refresh after
 * writes"), and, with `detect`, notifications learn that its data may have changed: detection
 * then runs soon after (docs/notifications.md). Writes that change no revenue data (a settings
 * change) only cost a refresh and a detection that find nothing new.
 */
export function registerDataChangeHook(app: FastifyInstance, services: Services, detect: boolean): void {
  // On send: the handler's transaction has committed, and the detection is asked for before
  // the client has its answer, so a client that then waits for it (a test) finds it asked for.
  app.addHook('onSend', async (request, reply, payload) => {
    if (READS.has(request.method) || reply.statusCode >= 300 || !request.auth) return payload;
    const { accountId } = request.auth;
    services.metrics.refreshSoon(accountId);
    // Not awaited: the answer does not wait, and a failure is logged, never the client's.
    if (detect) {
      services.notifications.dataChanged(accountId).catch((error: unknown) => {
        request.log.error({ err: error, accountId }, 'Revenue event detection failed');
      });
    }
    return payload;
  });
}
