import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  NotConfiguredError,
  NotFoundError,
  type ServiceError,
  StoreTimeoutError,
  TooLargeError,
  UnauthorizedError,
} from '../services/errors.js';
import { MAX_EXTERNAL_ID_LENGTH } from '../services/limits.js';
import { TooManyRequestsError } from './rate-limits.js';

const SERVICE_STATUS: [new (...args: never[]) => ServiceError, number][] = [
  [InvalidInputError, 400],
  [UnauthorizedError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [TooLargeError, 413],
  [StoreTimeoutError, 503],
  [NotConfiguredError, 503],
];

// How to name the part of the request, as a whole and by one of its fields.
const CONTEXT_NAMES: Record<string, [whole: string, field: string]> = {
  body: ['body', 'body field'],
  querystring: ['query string', 'query parameter'],
  params: ['path', 'path parameter'],
  headers: ['headers', 'header'],
};

/** Names the first bad input, e.g. `Invalid body field "email.recipients.0": Invalid email address`. */
function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const [whole, context] = CONTEXT_NAMES[error.validationContext ?? 'body'] ?? ['input', 'input'];
  const path = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const unknownKeys = (first.params as { keys?: string[] }).keys;
  if (first.keyword === 'unrecognized_keys' && unknownKeys) {
    const where = path ? ` in "${path}"` : '';
    return `Unknown ${context}${unknownKeys.length > 1 ? 's' : ''}${where}: ${unknownKeys.join(', ')}`;
  }
  return path ? `Invalid ${context} "${path}": ${first.message}` : `Invalid ${whole}: ${first.message}`;
}

function statusAndMessage(error: FastifyError): [number, string] {
  if (error.validation) return [400, validationMessage(error)];
  for (const [type, status] of SERVICE_STATUS) {
    if (error instanceof type) return [status, error.message];
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return [413, 'Request body is too large'];
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return [415, 'Unsupported content type: send application/json (or text/csv where documented)'];
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return [400, 'Malformed JSON body'];
    case 'FST_ERR_BAD_URL':
      return [400, 'Malformed URL: a percent-encoded path segment is not UTF-8'];
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return [400, `Invalid path: a path parameter may be at most ${MAX_EXTERNAL_ID_LENGTH} characters`];
  }
  if (error instanceof SyntaxError && error.statusCode === 400)
    return [400, `Malformed JSON body: ${error.message}`];
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return [status, error.message];
  return [500, 'Internal error'];
}

/**
 * A 503 `{error}` sent from a hook, whatever the route: serialised as is, because a route's own
 * 503 schema (/health's) describes another answer and would turn this one into a 500.
 */
export function sendUnavailable(reply: FastifyReply, message: string): FastifyReply {
  return reply.status(503).serializer(JSON.stringify).send({ error: message });
}

/** The one place where failures become HTTP responses: always `{error}`, never a stack trace. */
function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const [status, message] = statusAndMessage(error);
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  if (error instanceof TooManyRequestsError)
    void reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.status(status).send({ error: message });
}

/**
 * Fastify's `frameworkErrors` option, for what the router refuses before any hook runs (a URL
 * that does not decode): answered like everything else, before authentication, naming no route.
 * Fastify ignores what it returns; the reply is sent all the same.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  void answerError(error, request, reply);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(answerError);
  // Fastify's own answer while it closes has another shape (return503OnClosing is off in app.ts).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (closing) return sendUnavailable(reply, 'The server is shutting down; try again shortly');
  });
  app.setNotFoundHandler((request, reply) => {
    return reply.status(404).send({ error: `Route ${request.method} ${request.url} not found` });
  });
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout: the request headers or body did not arrive in time'],
  HPE_HEADER_OVERFLOW: [431, 'Request headers are too large'],
};

/**
 * Answers what Node's HTTP parser refuses before Fastify sees a request (a header or body
 * timeout, a malformed request line) in the same `{error}` shape, then closes the connection.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'Malformed HTTP request'];
  const body = JSON.stringify({ error: message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
