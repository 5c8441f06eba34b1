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

async function asAdmin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
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
  await asAdmin(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind,
    env: { DATABASE_URL: url.toString() },
    databaseUrl: url.toString(),
    drop: () => asAdmin(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

/** The PostgreSQL server's version, for the results page. */
export async function postgresVersion(adminUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    return rows[0]?.server_version ?? 'unknown';
  } finally {
    await client.end();
  }
}
