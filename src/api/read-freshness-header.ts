import type { FastifyInstance } from 'fastify';
import { staleSeconds, trackReadFreshness } from '../services/read-freshness.js';

/** Says how old an answer's data is when a report was answered from the previous snapshot. */
export const DATA_AGE_HEADER = 'mrrlytics-data-age';

/**
 * An answer read from a snapshot older than the latest write carries `Mrrlytics-Data-Age`:
 * the seconds since its data was current (docs/api.md, "Freshness"). Absent, the answer holds
 * every write committed before the request.
 */
export function registerReadFreshness(app: FastifyInstance): void {
  // A callback hook: the tracking starts in the request's own context, which the handler's inherits.
  app.addHook('onRequest', (_request, _reply, done) => {
    trackReadFreshness();
    done();
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    const seconds = staleSeconds(Date.now());
    if (seconds !== null) reply.header(DATA_AGE_HEADER, seconds.toFixed(1));
    return payload;
  });
}
