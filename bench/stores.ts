import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { StoreKind } from '../src/store/db.js';

/** A fresh, empty place for a server's store, and how to remove it afterwards. */
export interface BenchStore {
  kind: StoreKind;
  /** The server's environment: DATA_DIR or DATABASE_URL. */
  env: NodeJS.ProcessEnv;
  databaseUrl: string | null;
  drop(): Promise<void>;
}

/** Runs `fn` with a client connected to `url`, and disconnects whatever happens. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** PGlite in a new temporary folder, or a new uniquely named PostgreSQL database on `adminUrl`'s server. */
export async function createBenchStore(kind: StoreKind, adminUrl: string): Promise<BenchStore> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'mrrlytics-bench-'));
    return {
      kind,
      env: { DATA_DIR: dataDir },
      databaseUrl: null,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `mrrlytics_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind,
    env: { DATABASE_URL: url.toString() },
    databaseUrl: url.toString(),
    drop: async () => {
      await withClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/** The PostgreSQL server's version, for the results page. */
export async function postgresVersion(adminUrl: string): Promise<string> {
  const { rows } = await withClient(adminUrl, (client) =>
    client.query<{ server_version: string }>('show server_version'),
  );
  return rows[0]?.server_version ?? 'unknown';
}
