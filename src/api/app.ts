import swagger from '@fastify/swagger';
import type { Server } from 'node:http';
import Fastify, { type FastifyHttpOptions, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Services } from '../services/index.js';
import { MAX_EXTERNAL_ID_LENGTH } from '../services/limits.js';
import { accountRoutes } from './account-routes.js';
import { registerAuthentication } from './auth.js';
import { registerCsvParser } from './csv-body.js';
import { customerRoutes } from './customers-routes.js';
import { customerMetricsRoutes } from './customer-metrics-routes.js';
import { registerDataChangeHook } from './data-change-hook.js';
import { registerReadFreshness } from './read-freshness-header.js';
import { dataSourceRoutes } from './data-sources-routes.js';
import { answerClientError, answerFrameworkError, registerErrorHandling } from './errors.js';
import { exportRoutes } from './export-routes.js';
import { healthRoutes } from './health-routes.js';
import { importRoutes } from './import-routes.js';
import { webhookRoutes } from './webhook-routes.js';
import { registerInputGuards } from './input-guards.js';
import { integrationRoutes } from './integrations-routes.js';
import { invoiceRoutes } from './invoices-routes.js';
import { oauthRoutes } from './oauth-routes.js';
import { planGroupRoutes } from './plan-groups-routes.js';
import { segmentRoutes } from './segments-routes.js';
import { planRoutes } from './plans-routes.js';
import { NO_RATE_LIMITS, rateLimiter, type RateLimits } from './rate-limits.js';
import { registerRequestDeadline } from './request-deadline.js';
import { reportRegistryRoutes } from './reports/registry.js';
import { REPORTS } from './reports/index.js';
import { profileRoutes } from './profile-routes.js';
import { settingsRoutes } from './settings-routes.js';
import { subscriptionRoutes } from './subscriptions-routes.js';
import { uploadRoutes } from './uploads-routes.js';
import { spreadsheetRoutes } from './spreadsheet-routes.js';
import { webAppRoutes } from './web-app-routes.js';
import { webSessionRoutes } from './web-session-routes.js';
import { webSettingsRoutes } from './web-settings-routes.js';

/** How long the HTTP server waits on a client; see docs/operations.md. */
export interface HttpTimeouts {
  /** From connection (or the previous request) to the end of the request headers. */
  headersMs: number;
  /** From connection to the end of the request body. */
  requestMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveMs: number;
  /** A connection on which nothing moves either way (a client that stops reading its answer). */
  socketIdleMs: number;
}

export interface AppOptions {
  bodyLimitBytes?: number;
  logger?: FastifyServerOptions['logger'];
  /** Absent: nothing is limited (tests that send many requests). */
  rateLimits?: RateLimits;
  /** Absent: a request may take as long as its work does. */
  requestDeadlineMs?: number;
  /** Absent: Node's defaults. */
  timeouts?: HttpTimeouts;
  /** Behind a reverse proxy, the client address (limited on failed authentication) is in `X-Forwarded-For`. */
  trustProxy?: boolean | string;
  /** The built web app; absent: `dist/web` of this checkout. */
  webRoot?: string;
  /**
   * Absent or true: every write asks for revenue-event detection (docs/notifications.md).
   * Tests that do not look at notifications turn it off: each detection rebuilds the account.
   */
  detectAfterWrites?: boolean;
}

export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024 * 1024;

// Node looks for expired header and request timers only this often (30 s by default), so a
// timeout takes effect up to this much late.
const MAX_TIMEOUT_CHECK_INTERVAL_MS = 1000;

function serverTimeouts(timeouts: HttpTimeouts | undefined): Partial<FastifyHttpOptions<Server>> {
  if (!timeouts) return {};
  return {
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: Math.min(MAX_TIMEOUT_CHECK_INTERVAL_MS, timeouts.headersMs),
    },
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionTimeout: timeouts.socketIdleMs,
  };
}

/** `/v1/x` and `/x` are the same resource: the prefix is dropped before routing. */
function withoutVersionPrefix(url = '/'): string {
  if (url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?')) return url.slice(3) || '/';
  return url;
}

/** Builds the HTTP application; listening is the caller's business, so tests use `inject`. */
export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    rewriteUrl: (request) => withoutVersionPrefix(request.url),
    frameworkErrors: answerFrameworkError,
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_EXTERNAL_ID_LENGTH },
    clientErrorHandler: answerClientError,
    trustProxy: options.trustProxy ?? false,
    ...serverTimeouts(options.timeouts),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // A DELETE or GET sent with a JSON content type but no body is common; treat it as no body.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    return parseJson(request, body as string, done);
  });

  // Bodies are JSON, or CSV where documented; anything else, plain text included, is a 415.
  app.removeContentTypeParser('text/plain');
  registerCsvParser(app);

  registerErrorHandling(app);
  // Before authentication, which waits on the store and so may be what hangs.
  if (options.requestDeadlineMs !== undefined) registerRequestDeadline(app, options.requestDeadlineMs);
  const limiter = rateLimiter(options.rateLimits ?? NO_RATE_LIMITS);
  registerAuthentication(app, services.apiKeys, services.webAuth, limiter);
  registerInputGuards(app);
  registerDataChangeHook(app, services, options.detectAfterWrites !== false);
  registerReadFreshness(app);

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'mrrlytics API',
        version: '1.0.0',
        description:
          'Subscription-revenue analytics. Every route except /health needs `Authorization: Bearer <API key>`, ' +
          'and every route is also served under the /v1 prefix.',
      },
      servers: [{ url: '/' }, { url: '/v1' }],
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer' } } },
      security: [{ apiKey: [] }],
    },
    transform: jsonSchemaTransform,
  });

  await app.register(healthRoutes(services));
  await app.register(accountRoutes(services));
  await app.register(settingsRoutes(services));
  await app.register(profileRoutes(services));
  await app.register(dataSourceRoutes(services));
  await app.register(importRoutes(services));
  await app.register(webhookRoutes(services));
  await app.register(integrationRoutes(services));
  await app.register(oauthRoutes(services, limiter));
  await app.register(customerRoutes(services));
  await app.register(planRoutes(services));
  await app.register(planGroupRoutes(services));
  await app.register(segmentRoutes(services));
  await app.register(invoiceRoutes(services));
  await app.register(subscriptionRoutes(services));
  await app.register(uploadRoutes(services));
  await app.register(spreadsheetRoutes(services));
  await app.register(customerMetricsRoutes(services));
  await app.register(reportRegistryRoutes(services, REPORTS));
  await app.register(exportRoutes(services));
  await app.register(webAppRoutes(options.webRoot));
  await app.register(webSessionRoutes(services, limiter));
  await app.register(webSettingsRoutes(services));
  return app;
}
