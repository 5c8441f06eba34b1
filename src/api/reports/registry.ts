import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Services } from '../../services/index.js';
import { authOf } from '../auth.js';
import { reportErrors } from '../report-schemas.js';
import { errorSchema } from '../schemas.js';

/**
 * One report as the API serves it: its path, its query and answer schemas and the service call
 * that computes it. Every `/reports/*` route is one of these, listed in `index.ts`, so that a
 * new report is its engine function, its service call and one entry (docs/decisions.md,
 * "One report registry").
 */
export interface ReportDefinition<Query extends z.ZodType = z.ZodType, Result extends z.ZodType = z.ZodType> {
  path: `/reports/${string}`;
  summary: string;
  description?: string;
  /** The OpenAPI tag; "Reports" unless the report belongs to a named group. */
  tag?: string;
  query: Query;
  result: Result;
  /**
   * Serialize the answer without checking it against `result`: only for the answers that list
   * every customer, where the check cost several times the report (docs/decisions.md).
   */
  unchecked?: boolean;
  /** The report names one record (a customer) and answers 404 when it does not exist. */
  notFound?: boolean;
  /**
   * Made at every request rather than kept per snapshot (docs/decisions.md, "Report answers are
   * kept per snapshot"): the answer holds more than the snapshot, its tables and the parsed query
   * give (an invoice's lines read from the store, the time it was made, a second report's
   * inputs).
   */
  madeEachTime?: boolean;
  // A method, not a property: each entry narrows `query`, and methods take that bivariantly.
  run(services: Services, accountId: string, query: z.output<Query>): Promise<z.input<Result>>;
}

/** What Fastify itself names a JSON answer. */
const JSON_BODY = 'application/json; charset=utf-8';

function bytesOf(body: string | ArrayBuffer | Buffer): Buffer {
  if (typeof body === 'string') return Buffer.from(body);
  return Buffer.isBuffer(body) ? body : Buffer.from(body);
}

/** Keeps an entry's query and answer types tied together while the list holds them loosely. */
export function defineReport<Query extends z.ZodType, Result extends z.ZodType>(
  definition: ReportDefinition<Query, Result>,
): ReportDefinition<Query, Result> {
  return definition;
}

/**
 * Registers every report of the list with the same errors, tag rule and authentication. A report
 * is serialized once per answer, and a kept answer is sent as those bytes to every request it
 * answers (docs/decisions.md, "Report answers are kept per snapshot").
 */
export function reportRegistryRoutes(
  services: Services,
  reports: readonly ReportDefinition[],
): FastifyPluginAsyncZod {
  return async (app) => {
    for (const report of reports) {
      app.get(
        report.path,
        {
          schema: {
            tags: [report.tag ?? 'Reports'],
            summary: report.summary,
            ...(report.description === undefined ? {} : { description: report.description }),
            querystring: report.query,
            response: {
              200: report.result,
              ...reportErrors,
              ...(report.notFound ? { 404: errorSchema } : {}),
            },
          },
          ...(report.unchecked ? { serializerCompiler: () => (data: unknown) => JSON.stringify(data) } : {}),
        },
        async (request, reply) => {
          // The route's own serializer: the answer checked against its schema, or as is when unchecked.
          const run = async () =>
            bytesOf(reply.serialize(await report.run(services, authOf(request).accountId, request.query)));
          // The account is in the key through the snapshot, which is the account's own.
          const body = report.madeEachTime
            ? await run()
            : await services.reportAnswers.answer(`${report.path}?${JSON.stringify(request.query)}`, run);
          return reply.type(JSON_BODY).send(body);
        },
      );
    }
  };
}
