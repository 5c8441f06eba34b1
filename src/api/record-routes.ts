import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ItemResult } from '../services/bulk-import.js';
import type { StoredRecord } from '../services/record-import.js';
import { authOf } from './auth.js';
import type { CsvBody } from './csv-body.js';
import { jsonOrCsv } from './csv-items.js';
import {
  bodyObject,
  dataSourceOf,
  dataSourceQuery,
  externalIdParams,
  itemResults,
  readErrors,
  recordErrors,
  serviceValidatedBody,
  sourcePageQuery,
  successId,
  writeErrors,
} from './data-schemas.js';
import { errorSchema, listOf } from './schemas.js';

interface RecordService<R extends StoredRecord> {
  list(
    accountId: string,
    page: { dataSourceId?: string; customerId?: string; limit: number; offset: number },
  ): Promise<R[]>;
  import(accountId: string, body: unknown): Promise<ItemResult[]>;
  get(accountId: string, id: string, dataSource?: string): Promise<R>;
  update(accountId: string, id: string, patch: Record<string, unknown>, dataSource?: string): Promise<R>;
  delete(accountId: string, id: string, dataSource?: string): Promise<void>;
}

export interface RecordRoutesOptions<R extends StoredRecord> {
  /** `/data/invoices` */
  path: string;
  /** Plural noun for summaries: "invoices". */
  plural: string;
  tags: string[];
  service: RecordService<R>;
  input: z.ZodType;
  output: z.ZodType;
  fromCsv?: (csv: CsvBody) => unknown[];
}

const listQuery = sourcePageQuery.extend({
  customer: z.string().optional().describe('Only records of the customer with this external id'),
});

/** List, bulk upsert, read, update and delete of a raw record type owned by customers. */
export function registerRecordRoutes<R extends StoredRecord>(
  app: FastifyInstance,
  options: RecordRoutesOptions<R>,
): void {
  const { path, plural, tags, service } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const patch = serviceValidatedBody(options.input, { bulk: false });
  const missingOrAmbiguous = { 404: errorSchema, 409: errorSchema } as const;

  typed.get(
    path,
    {
      schema: {
        tags,
        summary: `List ${plural}, ordered by id`,
        querystring: listQuery,
        response: { 200: listOf(options.output), ...readErrors },
      },
    },
    async (request) => {
      const { source, customer, ...page } = request.query;
      const list = await service.list(authOf(request).accountId, {
        ...page,
        ...(source === undefined ? {} : { dataSourceId: source }),
        ...(customer === undefined ? {} : { customerId: customer }),
      });
      return { result: { count: list.length, list } };
    },
  );

  typed.post(
    path,
    {
      config: { csv: options.fromCsv !== undefined },
      schema: {
        tags,
        summary: `Create or replace ${plural}: one object or an array${options.fromCsv ? ' (JSON or CSV)' : ''}, one result per item`,
        body: serviceValidatedBody(options.input, { bulk: true }),
        response: { 200: itemResults, ...writeErrors },
      },
    },
    async (request) => {
      const body = options.fromCsv ? jsonOrCsv(request.body, options.fromCsv) : request.body;
      return { result: await service.import(authOf(request).accountId, body) };
    },
  );

  typed.get(
    `${path}/:id`,
    {
      schema: {
        tags,
        summary: `One of the ${plural}`,
        params: externalIdParams,
        querystring: dataSourceQuery,
        response: { 200: options.output, ...recordErrors },
      },
    },
    (request) => service.get(authOf(request).accountId, request.params.id, request.query.data_source),
  );

  typed.put(
    `${path}/:id`,
    {
      schema: {
        tags,
        summary:
          'Change the fields given; lines, transactions and scheduled changes given replace the old ones',
        params: externalIdParams,
        querystring: dataSourceQuery,
        body: patch,
        response: { 200: successId, ...missingOrAmbiguous, ...writeErrors },
      },
    },
    async (request) => {
      const body = bodyObject(request.body);
      await service.update(
        authOf(request).accountId,
        request.params.id,
        body,
        dataSourceOf(request.query, body),
      );
      return { success: true as const, id: request.params.id };
    },
  );

  typed.delete(
    `${path}/:id`,
    {
      schema: {
        tags,
        summary: `Delete one of the ${plural}`,
        params: externalIdParams,
        querystring: dataSourceQuery,
        response: { 200: successId, ...missingOrAmbiguous, ...writeErrors },
      },
    },
    async (request) => {
      await service.delete(authOf(request).accountId, request.params.id, request.query.data_source);
      return { success: true as const, id: request.params.id };
    },
  );
}
