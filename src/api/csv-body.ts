import { parse } from 'csv-parse/sync';
import { errorCodes, type FastifyInstance } from 'fastify';
import { InvalidInputError } from '../services/errors.js';

export interface CsvRow {
  /** Line of the row in the file, counting the header as line 1. */
  line: number;
  cells: Record<string, string>;
}

/** A `text/csv` body: rows keyed by the header's column names. Routes turn it into items. */
export class CsvBody {
  constructor(readonly rows: CsvRow[]) {}
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes `text/csv` bodies besides JSON. */
    csv?: boolean;
  }
}

/**
 * Accepts `text/csv` bodies: a header row, then one record per row. Only routes that say
 * `config: { csv: true }` take them; elsewhere a CSV body is a 415 like any other non-JSON body.
 */
export function registerCsvParser(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.body instanceof CsvBody && !request.routeOptions.config?.csv) {
      throw new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type']);
    }
  });
  app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => {
    try {
      const records: { record: Record<string, string>; info: { lines: number } }[] = parse(body as string, {
        columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
        bom: true,
        trim: true,
        skip_empty_lines: true,
        info: true,
      });
      done(null, new CsvBody(records.map(({ record, info }) => ({ line: info.lines, cells: record }))));
    } catch (error) {
      const line = (error as { lines?: number }).lines;
      const where = line === undefined ? '' : ` at row ${line}`;
      done(new InvalidInputError(`Malformed CSV${where}: ${(error as Error).message}`), undefined);
    }
  });
}
