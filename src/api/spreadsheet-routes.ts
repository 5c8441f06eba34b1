import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UPLOAD_KINDS } from '../engine/vocabulary.js';
import type { Services } from '../services/index.js';
import { authOf, requireAdminToWrite } from './auth.js';
import { authErrors, errorSchema, isoInstant, uuidParams } from './schemas.js';

const sheetsSchema = z.object({
  result: z.array(
    z.object({
      kind: z.enum(UPLOAD_KINDS),
      url: z.string(),
      last_upload: z.uuid().nullable().describe('The upload the last sync made: GET /data/uploads/{id}'),
      last_synced_at: isoInstant.nullable(),
      last_error: z.string().nullable().describe('Why the last sync of this sheet failed, if it did'),
    }),
  ),
});

const sheetUrl = z
  .url({ error: 'must be an absolute URL' })
  .max(2000)
  .nullable()
  .optional()
  .describe("The sheet's published CSV address; null removes it");

const sheetErrors = {
  400: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  ...authErrors,
} as const;

/** The published sheets a `spreadsheet` source reads, and syncing them now. */
export function spreadsheetRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireAdminToWrite);
    const tags = ['Data sources'];

    app.get(
      '/data/data-sources/:id/sheets',
      {
        schema: {
          tags,
          summary: "A spreadsheet source's sheets and how their last sync went",
          params: uuidParams,
          response: { 200: sheetsSchema, ...sheetErrors },
        },
      },
      async (request) => ({
        result: await services.spreadsheets.sheets(authOf(request).accountId, request.params.id),
      }),
    );

    app.put(
      '/data/data-sources/:id/sheets',
      {
        schema: {
          tags,
          summary: "Set a spreadsheet source's sheet per record kind",
          params: uuidParams,
          body: z.strictObject(Object.fromEntries(UPLOAD_KINDS.map((kind) => [kind, sheetUrl]))),
          response: { 200: sheetsSchema, ...sheetErrors },
        },
      },
      async (request) => ({
        result: await services.spreadsheets.setSheets(
          authOf(request).accountId,
          request.params.id,
          request.body,
        ),
      }),
    );

    app.post(
      '/data/data-sources/:id/sync',
      {
        schema: {
          tags,
          summary: "Read a spreadsheet source's sheets again now, in the background",
          params: uuidParams,
          response: { 202: z.object({ success: z.literal(true), id: z.uuid() }), ...sheetErrors },
        },
      },
      async (request, reply) => {
        await services.spreadsheets.sync(authOf(request).accountId, request.params.id);
        return reply.status(202).send({ success: true as const, id: request.params.id });
      },
    );
  };
}
