import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IMPORT_PHASES } from '../connectors/import-control.js';
import type { Services } from '../services/index.js';
import { authOf, requireAdminToWrite } from './auth.js';
import { authErrors, errorSchema, isoInstant, uuidParams } from './schemas.js';

const progressSchema = z.object({
  phase: z.enum(IMPORT_PHASES),
  enqueuedCount: z.number().int().describe('Objects read from the billing system'),
  processedCount: z.number().int().describe('Records stored'),
  failedCount: z.number().int().describe('Records refused by validation'),
  percent: z.number().int().min(0).max(100),
  startedAt: isoInstant.optional().describe('Absent before the first import'),
  lastActivityAt: isoInstant.optional().describe('Absent before the first import'),
  finishedAt: isoInstant.nullable(),
  lastError: z.string().nullable().describe('Why the import stopped, or the last record it refused'),
});

const successSchema = z.object({ success: z.literal(true), id: z.uuid() });

const controlErrors = {
  400: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  ...authErrors,
} as const;

type ControlAction = 'fullImport' | 'abort' | 'reset';

/** Import control and progress of connector data sources; see docs/connectors.md. */
export function importRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireAdminToWrite);
    const tags = ['Data sources'];

    app.get(
      '/data/data-sources/:id/progress',
      {
        schema: {
          tags,
          summary: "Progress of the data source's import",
          params: uuidParams,
          response: { 200: progressSchema, 400: errorSchema, 404: errorSchema, ...authErrors },
        },
      },
      (request) => services.imports.progress(authOf(request).accountId, request.params.id),
    );

    const control = (path: string, summary: string, action: ControlAction) =>
      app.post(
        `/data/data-sources/:id/${path}`,
        { schema: { tags, summary, params: uuidParams, response: { 200: successSchema, ...controlErrors } } },
        async (request) => {
          await services.imports[action](authOf(request).accountId, request.params.id);
          return { success: true as const, id: request.params.id };
        },
      );
    control('full-import', 'Import everything from the billing system again', 'fullImport');
    control('abort', 'Stop the running import', 'abort');
    control('reset', "Delete the source's imported records and sync state, keeping the connection", 'reset');

    app.post(
      '/data/data-sources/:id/connect',
      {
        schema: {
          tags,
          summary: 'Connect the data source to its billing system with an API key and start the import',
          params: uuidParams,
          body: z.strictObject({
            api_key: z
              .string()
              .trim()
              .min(1, 'must not be empty')
              .max(500)
              .describe('A restricted, read-only key'),
            site: z
              .string()
              .trim()
              .regex(/^[a-z0-9][a-z0-9-]{0,62}$/i, 'must be a site name such as acme')
              .optional()
              .describe('processor-b only: the Chargebee site (acme of acme.chargebee.com)'),
            webhook_secret: z
              .string()
              .trim()
              .min(1, 'must not be empty')
              .max(500)
              .optional()
              .describe("The secret the system's webhook deliveries are checked with"),
          }),
          response: { 200: successSchema, ...controlErrors, 503: errorSchema },
        },
      },
      async (request) => {
        const { api_key: apiKey, site, webhook_secret: webhookSecret } = request.body;
        await services.imports.connectByKey(
          authOf(request).accountId,
          request.params.id,
          { apiKey, ...(site === undefined ? {} : { site }) },
          webhookSecret,
        );
        return { success: true as const, id: request.params.id };
      },
    );
  };
}
