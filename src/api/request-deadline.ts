import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendUnavailable } from './errors.js';

/**
 * A request not answered within `deadlineMs` gets a 503 naming the deadline, so no request
 * holds its client for minutes. The deadline counts the work before the body is read
 * (authentication, which waits on the store) and again the work after it; receiving the body is
 * bounded by the server's request timeout instead, so a large upload on a slow line is not
 * mistaken for a stuck handler. JavaScript cannot stop the work already under way: it goes on
 * (a write still commits or rolls back whole), and its late answer is dropped. Once the handler
 * answers, the deadline is off: a CSV export streamed to a slow reader is not a stuck handler.
 */
export function registerRequestDeadline(app: FastifyInstance, deadlineMs: number): void {
  const message = `The request did not complete within the ${deadlineMs / 1000} s deadline; a write it started may still complete`;
  const timers = new WeakMap<FastifyRequest, NodeJS.Timeout>();

  const disarm = (request: FastifyRequest) => clearTimeout(timers.get(request));
  const arm = (request: FastifyRequest, reply: FastifyReply) => {
    disarm(request);
    const timer = setTimeout(() => {
      // A streamed answer has begun (reply.sent only turns true at its end): it is no longer stuck.
      if (reply.sent || reply.raw.headersSent || request.raw.destroyed) return;
      request.log.warn({ deadlineMs }, 'request deadline passed, answering 503');
      void sendUnavailable(reply, message);
    }, deadlineMs);
    timers.set(request, timer);
  };

  app.addHook('onRequest', async (request, reply) => {
    arm(request, reply);
    // A finished request must not keep its timer: a busy server would hold thousands of them.
    reply.raw.once('close', () => disarm(request));
  });
  app.addHook('preParsing', async (request) => disarm(request));
  app.addHook('preValidation', async (request, reply) => arm(request, reply));
  // The handler has answered: sending, a long export to a slow reader included, is the socket's.
  app.addHook('onSend', async (request) => disarm(request));
}
