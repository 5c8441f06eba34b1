import { type FastifyPluginAsyncZod, serializerCompiler } from 'fastify-type-provider-zod';
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
   * inputs), or it is cheaply made from another report's kept answer (a table from its series).
   */
  madeEachTime?: boolean;
  // A method, not a property: each entry narrows `query`, and methods take that bivariantly.
  run(services: Services, accountId: string, query: z.output<Query>): Promise<z.input<Result>>;
}

/** What Fastify itself names a JSON answer. */
const JSON_BODY = 'application/json; charset=utf-8';

/** Keeps an entry's query and answer types tied together while the list holds them loosely. */
export function defineReport<Query extends z.ZodType, Result extends z.ZodType>(
  definition: ReportDefinition<Query, Result>,
): ReportDefinition<Query, Result> {
  return definition;
}

/** Each report's serializer, compiled once: the answer checked against its schema, or as is when unchecked. */
const serializers = new WeakMap<ReportDefinition, (data: unknown) => string>();

function serializerOf(report: ReportDefinition): (data: unknown) => string {
  let serialize = serializers.get(report);
  if (serialize === undefined) {
    serialize = report.unchecked
      ? (data) => JSON.stringify(data)
      : serializerCompiler({ schema: report.result, method: 'GET', url: report.path });
    serializers.set(report, serialize);
  }
  return serialize;
}

/**
 * A report's answer as sent: serialized once, and kept per snapshot unless it is made each time
 * (docs/decisions.md, "Report answers are kept per snapshot"). The account is in the key
 * through the snapshot, which is the account's own.
 */
export function answerOf<Query extends z.ZodType>(
  report: ReportDefinition<Query>,
  services: Services,
  accountId: string,
  query: z.output<Query>,
): Promise<Buffer> {
  const run = async () => Buffer.from(serializerOf(report)(await report.run(services, accountId, query)));
  return report.madeEachTime
    ? run()
    : services.reportAnswers.answer(`${report.path}?${JSON.stringify(query)}`, run);
}

/**
 * Registers every report of the list with the same errors, tag rule and authentication, each
 * answer sent as the bytes `answerOf` gives.
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
        },
        async (request, reply) =>
          reply
            .type(JSON_BODY)
            .send(await answerOf(report, services, authOf(request).accountId, request.query)),
      );
    }
  };
}
