import { randomUUID } from 'node:crypto';
import type { Repos } from '../store/open-store.js';
import type { RecordTable } from '../store/records-repo.js';
import { ConflictError, NotFoundError } from './errors.js';
import { isUuid } from './ids.js';

/**
 * Resolves the `data_source` of written items inside one transaction: a given id must be one
 * of the account's sources; no id means the default "API" source, created on first need.
 */
function sourceResolver(tx: Repos, accountId: string) {
  let known: Promise<Set<string>> | undefined;
  let fallback: Promise<string> | undefined;
  return {
    /** The data source id to store the item under, or undefined when the given one is unknown. */
    async resolve(dataSource: string | undefined): Promise<string | undefined> {
      if (dataSource === undefined) {
        fallback ??= tx.dataSources.findOrCreateDefault(accountId, randomUUID());
        return fallback;
      }
      known ??= tx.dataSources.list(accountId).then((rows) => new Set(rows.map((row) => row.id)));
      return (await known).has(dataSource) ? dataSource : undefined;
    },
  };
}

/**
 * The data source each of `named` is stored under (undefined where the account has no such
 * source), each name resolved once: a body's items mostly share one.
 */
export async function resolveSources(
  tx: Repos,
  accountId: string,
  named: Iterable<string | undefined>,
): Promise<Map<string | undefined, string | undefined>> {
  const resolver = sourceResolver(tx, accountId);
  return new Map(
    await Promise.all([...new Set(named)].map(async (name) => [name, await resolver.resolve(name)] as const)),
  );
}

export function unknownSourceError(dataSource: string): string {
  return `Invalid field "data_source": no data source ${dataSource} in this account`;
}

/**
 * Finds the data source holding the record with this external id. Without `dataSource`, it
 * searches the whole account and refuses to guess when several sources hold the id.
 */
export async function locateRecord(
  tx: Repos,
  table: RecordTable,
  noun: string,
  accountId: string,
  id: string,
  dataSource?: string,
): Promise<string> {
  if (dataSource !== undefined && !isUuid(dataSource)) {
    throw new NotFoundError(`${noun} ${id} not found: no data source ${dataSource} in this account`);
  }
  const wanted = dataSource?.toLowerCase();
  const sources = (await tx.records.sourcesOf(table, accountId, id)).filter(
    (source) => wanted === undefined || source === wanted,
  );
  if (sources.length === 0) {
    const where = dataSource === undefined ? '' : ` in data source ${dataSource}`;
    throw new NotFoundError(`${noun} ${id} not found${where}`);
  }
  if (sources.length > 1) {
    throw new ConflictError(
      `${noun} ${id} exists in ${sources.length} data sources (${sources.join(', ')}); name one with data_source`,
    );
  }
  return sources[0]!;
}
