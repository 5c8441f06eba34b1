import { describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../../src/store/migrate.js';
import { createTestLocation, openLocationDb, STORE_KINDS } from '../helpers/stores.js';

const ACCOUNT = '00000000-0000-4000-8000-000000000001';
const SOURCE = '00000000-0000-4000-8000-000000000002';
const SUBTYPES_MIGRATION = 16;

describe.each(STORE_KINDS)('migration 016 (movement subtypes) on %s', (kind) => {
  it('gives stored movements their fallback subtype and marks every customer for a refresh', async () => {
    const location = await createTestLocation(kind);
    const db = await openLocationDb(location);
    try {
      const migrations = loadMigrations();
      await migrate(
        db,
        migrations.filter((migration) => migration.version < SUBTYPES_MIGRATION),
      );
      await db.exec(`
        insert into accounts (account_id, name) values ('${ACCOUNT}', 'Before 016');
        insert into account_data_state (account_id, data_version) values ('${ACCOUNT}', 7);
        insert into data_sources (account_id, data_source_id, name, type) values ('${ACCOUNT}', '${SOURCE}', 'API', 'api');
        insert into customers (account_id, data_source_id, customer_id, created_date)
          values ('${ACCOUNT}', '${SOURCE}', 'c1', '2024-01-01');
        insert into mrr_movements (account_id, data_source_id, customer_id, day, kind, amount, scheduled)
          values ('${ACCOUNT}', '${SOURCE}', 'c1', '2024-01-01', 'new', 4900, false),
                 ('${ACCOUNT}', '${SOURCE}', 'c1', '2024-02-01', 'expansion', 1000, false),
                 ('${ACCOUNT}', '${SOURCE}', 'c1', '2024-03-01', 'contraction', -500, false),
                 ('${ACCOUNT}', '${SOURCE}', 'c1', '2024-04-04', 'churn', -5400, false),
                 ('${ACCOUNT}', '${SOURCE}', 'c1', '2024-05-01', 'reactivation', 4900, false);
      `);
      expect(
        await migrate(
          db,
          migrations.filter((migration) => migration.version <= SUBTYPES_MIGRATION),
        ),
      ).toContain(SUBTYPES_MIGRATION);

      expect(await db.query('select kind, subtype from mrr_movements order by day')).toEqual([
        { kind: 'new', subtype: 'new' },
        { kind: 'expansion', subtype: 'other' },
        { kind: 'contraction', subtype: 'other' },
        { kind: 'churn', subtype: 'voluntary' },
        { kind: 'reactivation', subtype: 'reactivation' },
      ]);
      expect(await db.query('select customer_id from dirty_customers')).toEqual([{ customer_id: 'c1' }]);
      // 7 + 1: the next snapshot rebuilds, and its refresh derives the real subtypes first.
      expect(await db.query('select data_version::int as v from account_data_state')).toEqual([{ v: 8 }]);
      await expect(
        db.query(
          `insert into mrr_movements (account_id, data_source_id, customer_id, day, kind, subtype, amount, scheduled)
           values ('${ACCOUNT}', '${SOURCE}', 'c1', '2024-06-01', 'expansion', 'upsell', 100, false)`,
        ),
      ).rejects.toThrow(/mrr_movements_subtype_check/);
    } finally {
      await db.close();
      await location.drop();
    }
  });
});
