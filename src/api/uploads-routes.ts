import { errorCodes, type FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UPLOAD_KINDS } from '../engine/vocabulary.js';
import type { Services } from '../services/index.js';
import { MAX_UPLOAD_ROWS } from '../services/limits.js';
import { MAX_KEPT_ROW_ERRORS, PREVIEW_ROWS } from '../services/uploads-service.js';
import { authOf, requireAdmin } from './auth.js';
import { adminErrors, errorSchema, isoInstant, uuidParams } from './schemas.js';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const FORMATS = { 'text/csv': 'csv', [XLSX_CONTENT_TYPE]: 'xlsx' } as const;

function formatOf(request: FastifyRequest): 'csv' | 'xlsx' | undefined {
  const type = request.headers['content-type']?.split(';')[0]!.trim().toLowerCase();
  return type !== undefined && Object.hasOwn(FORMATS, type)
    ? FORMATS[type as keyof typeof FORMATS]
    : undefined;
}

/** A file comes as one of its own content types; JSON, or no body at all, is a 415. */
async function requireFile(request: FastifyRequest): Promise<void> {
  if (formatOf(request) === undefined || !Buffer.isBuffer(request.body)) {
    throw new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type']);
  }
}

const mappingSchema = z
  .record(z.string(), z.string())
  .describe('File column → record field it fills; columns left out are not imported');

const rowErrorSchema = z.object({
  row: z.number().int().describe("The row's number in the file; the header is row 1"),
  column: z.string().nullable().describe('The file column at fault, when the error names a mapped field'),
  message: z.string(),
});

const uploadSchema = z.object({
  id: z.uuid(),
  data_source: z.uuid(),
  kind: z.enum(UPLOAD_KINDS),
  format: z.enum(['csv', 'xlsx']),
  state: z
    .enum(['uploaded', 'running', 'done', 'error'])
    .describe('uploaded: not imported yet; error: the import stopped on a fault, see last_error'),
  columns: z.array(z.string()).describe("The header row's cells"),
  fields: z.array(z.string()).describe('The fields a column can fill; customers also take custom_<key>'),
  mapping: mappingSchema.describe(
    'What the import applies: at first a suggestion (the mapping saved for the data source and kind, ' +
      'then columns named like a field), then what PUT .../mapping set',
  ),
  preview: z
    .array(z.object({ row: z.number().int(), cells: z.array(z.string()) }))
    .describe(`The first ${PREVIEW_ROWS} rows under the header, one cell per column`),
  rows_total: z.number().int(),
  rows_done: z.number().int().describe('Rows the import has been through, good or not'),
  rows_imported: z.number().int().describe('Rows whose record was stored'),
  percent: z.number().int().min(0).max(100),
  errors: z.array(rowErrorSchema).describe(`Rows refused, the first ${MAX_KEPT_ROW_ERRORS}`),
  error_count: z.number().int().describe('Rows refused in all'),
  last_error: z.string().nullable(),
  created_at: isoInstant,
  finished_at: isoInstant.nullable(),
});

const uploadErrors = { 400: errorSchema, 404: errorSchema, ...adminErrors } as const;

/** Uploaded CSV and XLSX files: preview, column mapping and background import; admin only. */
export function uploadRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireAdmin);
    // This plugin's own parsers: a file arrives as bytes, read by the service (CSV or XLSX alike).
    app.removeContentTypeParser('text/csv');
    app.addContentTypeParser(Object.keys(FORMATS), { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    const tags = ['Uploads'];

    app.post(
      '/data/uploads',
      {
        preValidation: requireFile,
        schema: {
          tags,
          summary: 'Upload a CSV or XLSX file of records',
          description:
            `Send the file itself as the body, as text/csv or ${XLSX_CONTENT_TYPE} (its first worksheet is read). ` +
            'The first row names the columns. The body limit of the server applies (413 above it), and a file ' +
            `may hold ${MAX_UPLOAD_ROWS} rows. Nothing is imported yet: the answer shows the columns, a preview ` +
            'and a suggested mapping.',
          consumes: Object.keys(FORMATS),
          body: z.any().describe('The file: CSV text, or an XLSX workbook'),
          querystring: z.strictObject({
            kind: z.enum(UPLOAD_KINDS, { error: `must be one of ${UPLOAD_KINDS.join(', ')}` }),
            data_source: z
              .uuid({ error: 'must be a UUID' })
              .describe('A data source of type csv, api or spreadsheet'),
          }),
          response: { 201: uploadSchema, 413: errorSchema, 415: errorSchema, ...uploadErrors },
        },
      },
      async (request, reply) => {
        const format =
          FORMATS[request.headers['content-type']?.split(';')[0]!.trim() as keyof typeof FORMATS];
        const upload = await services.uploads.create(authOf(request).accountId, {
          dataSourceId: request.query.data_source,
          kind: request.query.kind,
          format,
          bytes: request.body as Buffer,
        });
        return reply.status(201).send(upload);
      },
    );

    app.get(
      '/data/uploads/:id',
      {
        schema: {
          tags,
          summary: 'An upload: its preview, mapping, and the progress and row errors of its import',
          params: uuidParams,
          response: { 200: uploadSchema, ...uploadErrors },
        },
      },
      (request) => services.uploads.get(authOf(request).accountId, request.params.id),
    );

    app.put(
      '/data/uploads/:id/mapping',
      {
        schema: {
          tags,
          summary: "Set the upload's column mapping, saved for the data source's next file of this kind",
          params: uuidParams,
          body: mappingSchema,
          response: { 200: uploadSchema, 409: errorSchema, ...uploadErrors },
        },
      },
      (request) => services.uploads.setMapping(authOf(request).accountId, request.params.id, request.body),
    );

    app.post(
      '/data/uploads/:id/import',
      {
        schema: {
          tags,
          summary: "Import the upload's rows in the background",
          description:
            'Rows go through the same validation and upsert as the /data routes, in batches; a refused row is ' +
            'skipped and named in errors. Importing the same rows again changes nothing. Follow the progress ' +
            'with GET /data/uploads/{id}.',
          params: uuidParams,
          response: { 202: uploadSchema, 409: errorSchema, ...uploadErrors },
        },
      },
      async (request, reply) => {
        const upload = await services.uploads.startImport(authOf(request).accountId, request.params.id);
        return reply.status(202).send(upload);
      },
    );
  };
}
