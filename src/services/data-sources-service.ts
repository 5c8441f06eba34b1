import { randomUUID } from 'node:crypto';
import type { DataSourceRow, DataSourceType } from '../store/data-sources-repo.js';
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

    async delete(accountId: string, id: string): Promise<void> {
      if (!(await store.dataSources.delete(accountId, id))) throw notFound(id);
    },
  };
}

export type DataSourcesService = ReturnType<typeof createDataSourcesService>;
