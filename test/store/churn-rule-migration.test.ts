import { describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../../src/store/migrate.js';
import { createTestLocation, openLocationDb, STORE_KINDS } from '../helpers/stores.js';

const CHURNED = '00000000-0000-4000-8000-000000000001';
const GROWING = '00000000-0000-4000-8000-000000000003';
const SOURCE = '00000000-0000-4000-8000-000000000002';
const OTHER_SOURCE = '00000000-0000-4000-8000-000000000004';
const CHURN_RULE_MIGRATION = 25;

describe.each(STORE_KINDS)('migration 025 (churn on a shared last day) on %s', (kind) => {
  it('marks the customers with a churn for a refresh and moves their accounts’ data version', async () => {
    const location = await createTestLocation(kind);
    const db = await openLocationDb(location);
    try {
      const migrations = loadMigrations();
      await migrate(
        db,
        migrations.filter((migration) => migration.version < CHURN_RULE_MIGRATION),
      );
      const movement = (account: string, source: string, customer: string, day: string, kind: string) =>
        `('${account}', '${source}', '${customer}', '${day}', '${kind}', '${kind === 'churn' ? 'voluntary' : 'new'}', ${kind === 'churn' ? -100 : 100}, false)`;
      await db.exec(`
        insert into accounts (account_id, name) values ('${CHURNED}', 'Churned'), ('${GROWING}', 'Growing');
        insert into account_data_state (account_id, data_version) values ('${CHURNED}', 7), ('${GROWING}', 3);
        insert into data_sources (account_id, data_source_id, name, type)
          values ('${CHURNED}', '${SOURCE}', 'API', 'api'), ('${GROWING}', '${OTHER_SOURCE}', 'API', 'api');
        insert into customers (account_id, data_source_id, customer_id, created_date)
          values ('${CHURNED}', '${SOURCE}', 'c1', '2024-01-01'), ('${CHURNED}', '${SOURCE}', 'c2', '2024-01-01'),
                 ('${GROWING}', '${OTHER_SOURCE}', 'g1', '2024-01-01');
        insert into mrr_movements (account_id, data_source_id, customer_id, day, kind, subtype, amount, scheduled)
          values ${movement(CHURNED, SOURCE, 'c1', '2024-01-01', 'new')}, ${movement(CHURNED, SOURCE, 'c1', '2024-03-04', 'churn')},
                 ${movement(CHURNED, SOURCE, 'c2', '2024-01-01', 'new')}, ${movement(GROWING, OTHER_SOURCE, 'g1', '2024-01-01', 'new')};
      `);
      expect(
        await migrate(
          db,
          migrations.filter((migration) => migration.version <= CHURN_RULE_MIGRATION),
        ),
      ).toEqual([CHURN_RULE_MIGRATION]);
      expect(await db.query('select account_id, customer_id from dirty_customers')).toEqual([
        { account_id: CHURNED, customer_id: 'c1' },
      ]);
      // 7 + 1 for the account with a churn; the other keeps its snapshot.
      expect(
        await db.query(
          'select account_id, data_version::int as v from account_data_state order by account_id',
        ),
      ).toEqual([
        { account_id: CHURNED, v: 8 },
        { account_id: GROWING, v: 3 },
      ]);
    } finally {
      await db.close();
      await location.drop();
    }
  });
});
