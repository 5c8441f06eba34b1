import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/services/clock.js';
import { createServices, type Services } from '../../src/services/index.js';
import type { Db, Queryable } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { repos, storeOver } from '../../src/store/open-store.js';
import { createTestLocation, openLocationDb, STORE_KINDS, type TestLocation } from '../helpers/stores.js';

/**
 * Passes every statement through, except that the `failAt`-th statement of a transaction
 * matching `pattern` throws, as a server fault in the middle of an import would.
 */
function withFault(db: Db, fault: { pattern: RegExp; failAt: number } | undefined): Db {
  return {
    ...db,
    transaction: (fn) =>
      db.transaction((tx) => {
        let seen = 0;
        const faulty: Queryable = {
          exec: (sql) => tx.exec(sql),
          query: (sql, params) => {
            if (fault?.pattern.test(sql) && ++seen === fault.failAt) throw new Error('injected fault');
            return tx.query(sql, params);
          },
        };
        return fn(faulty);
      }),
  };
}

const invoiceFor = (i: number) => ({
  id: `in${i}`,
  customer_id: `c${i % 3}`,
  date: '2025-01-01',
  currency: 'usd',
  lines: [
    { plan_id: 'p1', amount: 1000, period_start: '2025-01-01', period_end: '2025-02-01' },
    { type: 'one_time', amount: 50 },
  ],
  transactions: [{ id: `t${i}`, date: '2025-01-01', type: 'payment', result: 'successful', amount: 1050 }],
});

describe.each(STORE_KINDS)('raw data writes on %s', (kind) => {
  let location: TestLocation;
  let db: Db;
  let fault: { pattern: RegExp; failAt: number } | undefined;
  let services: Services;
  let accountId: string;

  beforeAll(async () => {
    location = await createTestLocation(kind);
    db = await openLocationDb(location);
    await migrate(db);
    // The fault to inject is read at the start of each transaction; undefined means none.
    const switchable: Db = { ...db, transaction: (fn) => withFault(db, fault).transaction(fn) };
    services = createServices(storeOver(switchable), fixedClock('2026-11-23T12:00:00Z'));
    accountId = (await services.accounts.create({ name: 'Raw' })).account.id;
  });
  afterAll(async () => {
    await db.close();
    await location.drop();
  });

  const count = async (table: string) =>
    (await db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;
  const claim = () => services.store.changes.claimDirtyCustomers(accountId);
  const version = () => services.store.changes.dataVersion(accountId);

  it('records which customers changed, once per write request', async () => {
    const start = await version();
    await services.customers.upsert(accountId, [
      { id: 'c0', name: 'Zero' },
      { id: 'c1', name: 'One' },
      { id: 'c2', name: 'Two' },
    ]);
    await services.plans.import(accountId, [
      { id: 'p1', name: 'P1', billing_freq: 'month', currency: 'usd' },
      { id: 'p2', name: 'P2', billing_freq: 'year', currency: 'usd' },
    ]);
    expect(await version()).toBe(start + 2);
    const source = (await claim())[0]!.dataSourceId;
    const key = (id: string) => ({ dataSourceId: source, id });
    expect(await claim()).toEqual([]);

    await services.invoices.import(accountId, { ...invoiceFor(0), customer_id: 'c1' });
    expect(await claim()).toEqual([key('c1')]);
    // Moving an invoice to another customer changes both.
    await services.invoices.import(accountId, { ...invoiceFor(0), customer_id: 'c2' });
    expect(await claim()).toEqual([key('c1'), key('c2')]);
    // A plan change reaches every customer billed on it.
    await services.plans.update(accountId, 'p1', { name: 'P1 renamed' });
    expect(await claim()).toEqual([key('c2')]);
    await services.subscriptions.import(accountId, {
      id: 's1',
      customer_id: 'c0',
      plan_id: 'p2',
      started_at: '2025-01-01',
    });
    expect(await claim()).toEqual([key('c0')]);
    await services.plans.delete(accountId, 'p2');
    expect(await claim()).toEqual([key('c0')]);
    await services.customers.upsert(accountId, { id: 'c1', name: 'Uno' });
    await services.invoices.delete(accountId, 'in0');
    expect(await claim()).toEqual([key('c1'), key('c2')]);
    // A customer update answers with current_mrr, so the engine first catches up on every dirty customer.
    await services.invoices.import(accountId, { ...invoiceFor(0), customer_id: 'c1' });
    await services.customers.update(accountId, 'c2', { name: 'Dos' });
    expect(await claim()).toEqual([]);
    await services.invoices.delete(accountId, 'in0');
    expect(await claim()).toEqual([key('c1')]);
    // Plan groups change no customer, but move the data version.
    const before = await version();
    await services.planGroups.create(accountId, { name: 'G', plans: ['p1'] });
    expect(await version()).toBe(before + 1);
    expect(await claim()).toEqual([]);
    await services.customers.delete(accountId, 'c0');
    expect(await claim()).toEqual([key('c0')]);
  });

  it('claims in parts, so that several workers can share the work', async () => {
    await services.customers.upsert(accountId, [
      { id: 'c0', name: 'Zero' },
      { id: 'c3', name: 'Three' },
    ]);
    const first = await services.store.changes.claimDirtyCustomers(accountId, 1);
    const second = await services.store.changes.claimDirtyCustomers(accountId, 5);
    expect([...first, ...second].map((key) => key.id)).toEqual(['c0', 'c3']);
  });

  it('claims a customer marked by several writes once, with all its marks', async () => {
    // Three writes, three transactions: three marks of c4, one of c5.
    for (const name of ['Four', 'Four again', 'Four once more'])
      await services.customers.upsert(accountId, [{ id: 'c4', name }]);
    await services.customers.upsert(accountId, [{ id: 'c5', name: 'Five' }]);
    const ids = async (limit?: number) =>
      (await services.store.changes.claimDirtyCustomers(accountId, limit)).map((key) => key.id);
    expect(await ids(1)).toEqual(['c4']);
    expect(await ids()).toEqual(['c5']);
  });

  it('stores nothing of a request when a server fault strikes in the middle', async () => {
    const before = {
      invoices: await count('invoices'),
      lines: await count('invoice_lines'),
      transactions: await count('invoice_transactions'),
      version: await version(),
    };
    await claim();
    // 2,500 invoices carry 5,000 lines: three statements of lines; the second one fails.
    fault = { pattern: /insert into invoice_lines/, failAt: 2 };
    const body = Array.from({ length: 2_500 }, (_, i) => invoiceFor(i + 1));
    await expect(services.invoices.import(accountId, body)).rejects.toThrow('injected fault');
    fault = undefined;
    expect({
      invoices: await count('invoices'),
      lines: await count('invoice_lines'),
      transactions: await count('invoice_transactions'),
      version: await version(),
    }).toEqual(before);
    expect(await claim()).toEqual([]);

    const results = await services.invoices.import(accountId, body);
    expect(results.every((result) => result.import_status === 'inserted')).toBe(true);
    expect(await count('invoice_lines')).toBe(before.lines + 5_000);
  });

  it('is idempotent: the same body again changes no stored row', async () => {
    const body = Array.from({ length: 50 }, (_, i) => invoiceFor(i + 1));
    const snapshot = async () => ({
      invoices: await db.query('select * from invoices order by invoice_id'),
      lines: await db.query('select * from invoice_lines order by invoice_id, line_id'),
      transactions: await db.query('select * from invoice_transactions order by invoice_id, transaction_id'),
    });
    await services.invoices.import(accountId, body);
    const once = await snapshot();
    await services.invoices.import(accountId, body);
    expect(await snapshot()).toEqual(once);
  });

  it('deleting a data source deletes its records and marks its customers changed', async () => {
    const other = await services.dataSources.create(accountId, { name: 'Other', type: 'csv' });
    await services.customers.upsert(accountId, { id: 'x1', name: 'X', data_source: other.id });
    await services.invoices.import(accountId, {
      id: 'xi',
      customer_id: 'x1',
      data_source: other.id,
      date: '2025-01-01',
      amount: 5,
      currency: 'usd',
    });
    await claim();
    await services.dataSources.delete(accountId, other.id);
    expect(await claim()).toEqual([{ dataSourceId: other.id, id: 'x1' }]);
    expect(await db.query('select 1 from invoices where data_source_id = $1', [other.id])).toEqual([]);
  });

  it('deleting an invoice, or its customer, deletes its lines and transactions', async () => {
    await services.customers.upsert(accountId, { id: 'c9', name: 'Nine' });
    await services.invoices.import(accountId, [
      { ...invoiceFor(91), customer_id: 'c9' },
      { ...invoiceFor(92), customer_id: 'c9' },
    ]);
    const children = async (invoiceId: string) =>
      (
        await db.query<{ n: number }>(
          `select (select count(*) from invoice_lines where invoice_id = $1)
             + (select count(*) from invoice_transactions where invoice_id = $1) as n`,
          [invoiceId],
        )
      )[0]!.n;
    // Two lines and one transaction each.
    expect([await children('in91'), await children('in92')]).toEqual([3, 3]);
    await services.invoices.delete(accountId, 'in91');
    expect([await children('in91'), await children('in92')]).toEqual([0, 3]);
    await services.customers.delete(accountId, 'c9');
    expect(await children('in92')).toBe(0);
  });

  it.runIf(kind === 'postgres')('an import holds its customers: deleting one waits for it', async () => {
    await services.customers.upsert(accountId, { id: 'c8', name: 'Eight' });
    const [dataSourceId] = await services.store.records.sourcesOf('customers', accountId, 'c8');
    let locked!: () => void;
    let finish!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const importing = db.transaction(async (tx) => {
      await repos(tx).records.existing('customers', accountId, [{ dataSourceId: dataSourceId!, id: 'c8' }], {
        lock: true,
      });
      locked();
      await finished;
    });
    await lockTaken;
    const deleting = db.transaction(async (tx) => {
      await tx.query("set local lock_timeout = '200ms'");
      await tx.query("delete from customers where account_id = $1 and customer_id = 'c8'", [accountId]);
    });
    await expect(deleting).rejects.toThrow(/lock timeout/);
    finish();
    await importing;
  });

  it('deleting an account deletes its invoices, their lines and transactions, and its subscriptions', async () => {
    await services.subscriptions.import(accountId, { id: 's2', customer_id: 'c1', started_at: '2025-01-01' });
    const tables = ['invoices', 'invoice_lines', 'invoice_transactions', 'subscriptions'];
    const counts = async () => {
      const rows = [];
      for (const table of tables) {
        rows.push(
          (
            await db.query<{ n: number }>(`select count(*)::int as n from ${table} where account_id = $1`, [
              accountId,
            ])
          )[0]!.n,
        );
      }
      return rows;
    };
    expect((await counts()).every((n) => n > 0)).toBe(true);
    await db.query('delete from accounts where account_id = $1', [accountId]);
    expect(await counts()).toEqual([0, 0, 0, 0]);
  });
});
