import type { DataSourceType } from '../engine/vocabulary.js';
import { randomUUID } from 'node:crypto';
import type { DataSourceRow } from '../store/data-sources-repo.js';
import type { Store } from '../store/open-store.js';
import { NotFoundError } from './errors.js';

export type DataSource = DataSourceRow;

function notFound(id: string): NotFoundError {
  return new NotFoundError(`Data source ${id} not found`);
}

export function createDataSourcesService(store: Store) {
  return {
    list(accountId: string, type?: DataSourceType): Promise<DataSource[]> {
      return store.dataSources.list(accountId, type);
    },

    async get(accountId: string, id: string): Promise<DataSource> {
      const row = await store.dataSources.get(accountId, id);
      if (!row) throw notFound(id);
      return row;
    },

    create(accountId: string, input: { name: string; type: DataSourceType }): Promise<DataSource> {
      return store.dataSources.insert({ accountId, dataSourceId: randomUUID(), ...input });
    },

    async update(
      accountId: string,
      id: string,
      changes: { name?: string | undefined; type?: DataSourceType | undefined },
    ): Promise<DataSource> {
      const row = await store.dataSources.update(accountId, id, changes);
      if (!row) throw notFound(id);
      return row;
    },

    /** Deletes the source with all its records; its customers are marked changed for the metrics engine. */
    async delete(accountId: string, id: string): Promise<void> {
      await store.transaction(async (tx) => {
        await tx.changes.markCustomersOfSource(accountId, id);
        if (!(await tx.dataSources.delete(accountId, id))) throw notFound(id);
        await tx.changes.bumpDataVersion(accountId);
      });
    },
  };
}

export type DataSourcesService = ReturnType<typeof createDataSourcesService>;
