import pg from 'pg';
import type { Db, Queryable, Row } from './db.js';
import { typeParsers } from './db.js';

// pg's own parsers for every type we do not decode ourselves (typed `any` upstream).
const builtInParser = pg.types.getTypeParser as (oid: number, format: 'text') => (value: string) => unknown;

// Only the text format is used: pg never asks for binary unless a query requests it.
const types: pg.CustomTypesConfig = {
  getTypeParser: (oid: number) => typeParsers[oid] ?? builtInParser(oid, 'text'),
};

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    query: async <T = Row>(sql: string, params: readonly unknown[] = []) => {
      const result = await client.query(sql, params as unknown[]);
      return result.rows as T[];
    },
    exec: async (sql: string) => {
      await client.query(sql);
    },
  };
}

/** Opens a pool on a real PostgreSQL server. Several processes may share one database. */
export async function openPostgresDb(connectionString: string, maxConnections = 10): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: maxConnections, types });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const root = wrap(pool);
  await root.query('select 1');
  return {
    kind: 'postgres',
    ...root,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
