import type { FastifyInstance } from 'fastify';

/**
 * A request not answered within `deadlineMs` of its arrival gets a 503 naming the deadline, so
 * no request holds its client for minutes. JavaScript cannot stop the work already under way:
 * it goes on (a write still commits or rolls back whole), and its late answer is dropped.
 */
export function registerRequestDeadline(app: FastifyInstance, deadlineMs: number): void {
  const seconds = deadlineMs / 1000;
  app.addHook('onRequest', async (request, reply) => {
    const timer = setTimeout(() => {
      if (reply.sent || request.raw.destroyed) return;
      request.log.warn({ deadlineMs }, 'request deadline passed, answering 503');
      void reply.status(503).send({
        error: `The request did not complete within the ${seconds} s deadline; a write it started may still complete`,
      });
    }, deadlineMs);
    // A finished request must not keep its timer: a busy server would hold thousands of them.
    reply.raw.once('close', () => clearTimeout(timer));
  });
}
