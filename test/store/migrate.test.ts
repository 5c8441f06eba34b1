import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { loadMigrations, migrate } from '../../src/store/migrate.js';
import { openPgliteDb } from '../../src/store/pglite-db.js';
import { openPostgresDb } from '../../src/store/postgres-db.js';
import { createTestLocation, openLocationDb, STORE_KINDS } from '../helpers/stores.js';

const ALL_VERSIONS = loadMigrations().map((migration) => migration.version);

async function appliedVersions(db: Db): Promise<number[]> {
  const rows = await db.query<{ version: number }>('select version from schema_migrations order by version');
  return rows.map((row) => row.version);
}

describe('loadMigrations', () => {
  it('reads numbered SQL files in order, starting at 001', () => {
    expect(ALL_VERSIONS[0]).toBe(1);
    expect(ALL_VERSIONS).toEqual([...ALL_VERSIONS].sort((a, b) => a - b));
  });
});

describe.each(STORE_KINDS)('migrate on %s', (kind) => {
  it('applies every migration once and records it; a second run changes nothing', async () => {
    const location = await createTestLocation(kind);
    const db = await openLocationDb(location);
    try {
      expect(await migrate(db)).toEqual(ALL_VERSIONS);
      expect(await migrate(db)).toEqual([]);
      expect(await appliedVersions(db)).toEqual(ALL_VERSIONS);
    } finally {
      await db.close();
      await location.drop();
    }
  });

  it('leaves the schema untouched when a migration fails', async () => {
    const db = kind === 'pglite' ? await openPgliteDb() : undefined;
    if (!db) return; // the same transaction code runs on both; one engine suffices here
    try {
      const broken = [
        ...loadMigrations(),
        { version: 999, name: 'broken', sql: 'create table t999 (a int); select nope;' },
      ];
      await expect(migrate(db, broken)).rejects.toThrow();
      expect(await db.query("select to_regclass('accounts') as t")).toEqual([{ t: null }]);
      expect(await db.query("select to_regclass('t999') as t")).toEqual([{ t: null }]);
    } finally {
      await db.close();
    }
  });
});

describe.runIf(STORE_KINDS.includes('postgres'))('migrate from two processes at once', () => {
  it('applies each migration exactly once', async () => {
    const location = await createTestLocation('postgres');
    const url = (location.location as { databaseUrl: string }).databaseUrl;
    const [first, second] = await Promise.all([openPostgresDb(url), openPostgresDb(url)]);
    try {
      const results = await Promise.all([migrate(first), migrate(second)]);
      expect(results.flat().sort((a, b) => a - b)).toEqual(ALL_VERSIONS);
      expect(await appliedVersions(first)).toEqual(ALL_VERSIONS);
    } finally {
      await first.close();
      await second.close();
      await location.drop();
    }
  });
});
