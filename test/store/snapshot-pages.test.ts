import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/services/clock.js';
import { createServices, type Services } from '../../src/services/index.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../helpers/stores.js';

describe.each(STORE_KINDS)('snapshot pages on %s', (kind) => {
  let test: TestStore;
  let services: Services;
  let accountId: string;

  /** Customer ids and their movements' days per page, pages of `size` customers. */
  const pages = async (size: number) => {
    const read: { customers: string[]; movements: string[] }[] = [];
    for await (const page of test.store.metrics.snapshotPages(accountId, size)) {
      read.push({
        customers: page.customers.map((row) => row.customer_id),
        movements: page.movements.map((row) => `${row.customer_id} ${row.day} ${row.kind}`),
      });
    }
    return read;
  };

  beforeAll(async () => {
    test = await openTestStore(kind);
    services = createServices(test.store, fixedClock('2026-11-23T12:00:00Z'));
    accountId = (await services.accounts.create({ name: 'Pages' })).account.id;
    for (const id of ['c3', 'c1', 'c2']) await services.customers.upsert(accountId, { id, name: id });
    await services.plans.import(accountId, { id: 'p1', name: 'P1', billing_freq: 'month', currency: 'usd' });
    // c1 pays two months and stops (new, then churn); c3 pays one month from October; c2 never pays.
    await services.invoices.import(accountId, [
      {
        id: 'a',
        customer_id: 'c1',
        date: '2026-01-01',
        currency: 'usd',
        lines: [{ plan_id: 'p1', amount: 1000, period_start: '2026-01-01', period_end: '2026-02-01' }],
      },
      {
        id: 'b',
        customer_id: 'c1',
        date: '2026-02-01',
        currency: 'usd',
        lines: [{ plan_id: 'p1', amount: 1000, period_start: '2026-02-01', period_end: '2026-03-01' }],
      },
      {
        id: 'c',
        customer_id: 'c3',
        date: '2026-10-01',
        currency: 'usd',
        lines: [{ plan_id: 'p1', amount: 500, period_start: '2026-10-01', period_end: '2026-11-01' }],
      },
    ]);
    await services.metrics.refresh(accountId);
  });
  afterAll(() => test.dispose());

  it('reads every customer once in key order, each with its own movements in day order, in pages of any size', async () => {
    const whole = await pages(10);
    expect(whole).toHaveLength(1);
    expect(whole[0]!.customers).toEqual(['c1', 'c2', 'c3']);
    expect(whole[0]!.movements.map((movement) => movement.split(' ')[0])).toEqual(['c1', 'c1', 'c3', 'c3']);
    expect(whole[0]!.movements.filter((movement) => movement.startsWith('c1'))).toEqual([
      expect.stringMatching(/^c1 2026-01-01 new$/),
      expect.stringMatching(/^c1 \S+ churn$/),
    ]);
    // Pages of one: each page holds exactly its customer's movements.
    expect(await pages(1)).toEqual([
      { customers: ['c1'], movements: whole[0]!.movements.slice(0, 2) },
      { customers: ['c2'], movements: [] },
      { customers: ['c3'], movements: whole[0]!.movements.slice(2) },
    ]);
    expect((await pages(2)).map((page) => page.customers)).toEqual([['c1', 'c2'], ['c3']]);
  });

  it('gives each customer its own movements when a page spans two data sources', async () => {
    const other = (await services.dataSources.create(accountId, { name: 'Other', type: 'csv' })).id;
    // c1 again, in the other data source: a customer of its own, paying one month.
    await services.customers.upsert(accountId, { id: 'c1', name: 'c1 elsewhere', data_source: other });
    await services.plans.import(accountId, {
      id: 'p1',
      name: 'P1',
      billing_freq: 'month',
      currency: 'usd',
      data_source: other,
    });
    await services.invoices.import(accountId, {
      id: 'x',
      customer_id: 'c1',
      data_source: other,
      date: '2026-06-01',
      currency: 'usd',
      lines: [{ plan_id: 'p1', amount: 700, period_start: '2026-06-01', period_end: '2026-07-01' }],
    });
    await services.metrics.refresh(accountId);
    /** Each customer's key and its movements' kinds, read in pages of `size`. */
    const read = async (size: number) => {
      const customers: [string, string[]][] = [];
      for await (const page of test.store.metrics.snapshotPages(accountId, size)) {
        const keys = page.customers.map((customer) => `${customer.data_source_id}/${customer.customer_id}`);
        // Every movement of the page belongs to one of its customers.
        for (const movement of page.movements)
          expect(keys).toContain(`${movement.data_source_id}/${movement.customer_id}`);
        for (const key of keys) {
          const own = page.movements.filter(
            (movement) => `${movement.data_source_id}/${movement.customer_id}` === key,
          );
          customers.push([key, own.map((movement) => movement.kind)]);
        }
      }
      return customers;
    };
    const whole = await read(10);
    expect(whole).toHaveLength(4);
    expect(whole).toContainEqual([`${other}/c1`, ['new', 'churn']]);
    for (const size of [1, 2, 3]) expect(await read(size)).toEqual(whole);
  });
});
