import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Db, StoreKind } from '../../src/store/db.js';
import { openStore, type Store, type StoreLocation } from '../../src/store/open-store.js';
import { openPgliteDb } from '../../src/store/pglite-db.js';
import { openPostgresDb } from '../../src/store/postgres-db.js';

/** The server that holds the per-run test databases; each run creates its own and drops it. */
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch (error) {
    if (process.env.TEST_REQUIRE_POSTGRES === '1') {
      throw new Error(`PostgreSQL at ${ADMIN_URL} is required (TEST_REQUIRE_POSTGRES=1) but unreachable`, {
        cause: error,
      });
    }
    console.warn(`PostgreSQL at ${ADMIN_URL} is unreachable: store tests run on PGlite only`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export const STORE_KINDS: StoreKind[] = (await postgresReachable()) ? ['pglite', 'postgres'] : ['pglite'];

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A place a store can be opened, closed and opened again, removed by `drop`. */
export interface TestLocation {
  location: StoreLocation;
  drop(): Promise<void>;
}

export async function createTestLocation(kind: StoreKind): Promise<TestLocation> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'mrrlytics-test-'));
    return { location: { dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `mrrlytics_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin((client) => client.query(`create database ${name}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    location: { databaseUrl: url.toString() },
    drop: () =>
      admin((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}

/** The bare database at a location, not migrated: for tests of the layer under the repos. */
export function openLocationDb(location: TestLocation): Promise<Db> {
  return 'databaseUrl' in location.location
    ? openPostgresDb(location.location.databaseUrl)
    : openPgliteDb(location.location.dataDir);
}

export interface TestStore {
  store: Store;
  location: TestLocation;
  dispose(): Promise<void>;
}

/** A migrated store on a fresh location: PGlite in memory, or a new PostgreSQL database. */
export async function openTestStore(kind: StoreKind): Promise<TestStore> {
  const location: TestLocation =
    kind === 'pglite' ? { location: {}, drop: async () => {} } : await createTestLocation(kind);
  const store = await openStore(location.location);
  return {
    store,
    location,
    async dispose() {
      await store.close();
      await location.drop();
    },
  };
}
