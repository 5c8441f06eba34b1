import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { CUSTOMER_SORTS } from '../engine/reports/customer-item.js';
import type { CsvExport } from '../services/exports-service.js';
import type { Services } from '../services/index.js';
import { authOf } from './auth.js';
import { reportErrors, reportRangeQuery } from './report-schemas.js';

const csvAnswer = { content: { 'text/csv': { schema: z.string().describe('CSV, RFC 4180, UTF-8') } } };

/** Sends the file as it is built; the client saves it under its name. */
function sendCsv(reply: FastifyReply, file: CsvExport): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .send(Readable.from(file.chunks));
}

export function exportRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Exports'];

    app.get(
      '/exports/customers.csv',
      {
        schema: {
          tags,
          summary: 'Every customer the filters keep, with MRR today, as CSV',
          description:
            'With `date`, only the customers who became leads within the range. Money in cents; `mrr` in the base currency.',
          querystring: reportRangeQuery.extend({
            sort: z.enum(CUSTOMER_SORTS).default('mrr'),
            order: z.enum(['asc', 'desc']).default('desc'),
          }),
          response: { 200: csvAnswer, ...reportErrors },
        },
      },
      async (request, reply) => {
        const { sort, order, ...raw } = request.query;
        return sendCsv(
          reply,
          await services.exports.customers(authOf(request).accountId, raw, { sort, order }),
        );
      },
    );

    app.get(
      '/exports/mrr-movements.csv',
      {
        schema: {
          tags,
          summary: 'Every MRR movement of the range, in day order, as CSV',
          querystring: reportRangeQuery.extend({
            type: z.string().optional().describe('Movement kinds, comma- or space-separated'),
            committed: z.string().optional().describe('true also lists movements scheduled after today'),
          }),
          response: { 200: csvAnswer, ...reportErrors },
        },
      },
      async (request, reply) =>
        sendCsv(reply, await services.exports.movements(authOf(request).accountId, request.query)),
    );

    app.get(
      '/exports/mrr-growth.csv',
      {
        schema: {
          tags,
          summary: "Each month's MRR movements added up day by day, one column per month, as CSV",
          querystring: reportRangeQuery.extend({
            category: z.string().optional().describe('Movement kinds to add up, space- or comma-separated'),
            types: z.string().optional().describe('The same as category'),
          }),
          response: { 200: csvAnswer, ...reportErrors },
        },
      },
      async (request, reply) =>
        sendCsv(reply, await services.exports.growth(authOf(request).accountId, request.query)),
    );
  };
}
