import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/services/clock.js';
import { createConnectorPages } from '../../src/services/connector-pages.js';
import { createServices, type Services } from '../../src/services/index.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../helpers/stores.js';

describe.each(STORE_KINDS)('connector pages on %s', (kind) => {
  let testStore: TestStore;
  let services: Services;
  let accountId: string;
  let source: string;
  let other: string;

  beforeAll(async () => {
    testStore = await openTestStore(kind);
    services = createServices(testStore.store, fixedClock('2026-11-23T12:00:00Z'));
    accountId = (await services.accounts.create({ name: 'Lapsed' })).account.id;
    source = (await services.dataSources.create(accountId, { name: 'Stripe', type: 'processor-a' })).id;
    other = (await services.dataSources.create(accountId, { name: 'Other', type: 'processor-a' })).id;
  });
  afterAll(() => testStore.dispose());

  const stored = (results: { import_status?: string }[]) =>
    expect(results.filter((result) => result.import_status === 'error')).toEqual([]);

  /** A customer with one record and the lines billing it, in `dataSource`. */
  async function customerWith(
    id: string,
    record: Record<string, unknown>,
    lines: { end: string; amount?: number }[],
    dataSource = source,
  ) {
    const plan = (record.plan_id as string | undefined) ?? 'basic';
    await services.customers.upsert(accountId, [{ id, name: id, data_source: dataSource }]);
    stored(
      await services.subscriptions.import(accountId, [
        {
          id: `s-${id}`,
          customer_id: id,
          plan_id: plan,
          started_at: '2026-09-14T00:00:00Z',
          data_source: dataSource,
          ...record,
        },
      ]),
    );
    if (lines.length === 0) return;
    stored(
      await services.invoices.import(accountId, [
        {
          id: `in-${id}`,
          customer_id: id,
          date: '2026-10-14',
          currency: 'usd',
          data_source: dataSource,
          lines: lines.map((line, index) => ({
            id: `l${index}`,
            subscription_id: `s-${id}`,
            plan_id: plan,
            amount: line.amount ?? 1000,
            period_start: '2026-10-14',
            period_end: line.end,
          })),
        },
      ]),
    );
  }

  it('names the customers whose live record outlived every period its lines billed', async () => {
    for (const dataSource of [source, other])
      stored(
        await services.plans.import(accountId, [
          { id: 'basic', name: 'Basic', billing_freq: 'month', currency: 'usd', data_source: dataSource },
          {
            id: 'calls',
            name: 'Calls',
            billing_freq: 'month',
            currency: 'usd',
            pricing_model: 'metered',
            data_source: dataSource,
          },
        ]),
      );
    // Today is Nov 23.
    await customerWith('lapsed', {}, [{ end: '2026-11-14' }]);
    await customerWith('renewed', {}, [{ end: '2026-11-14' }, { end: '2026-12-14' }]);
    await customerWith('ended', { status: 'canceled', ended_at: '2026-11-14T00:00:00Z' }, [
      { end: '2026-11-14' },
    ]);
    await customerWith('cancelled-before', { cancel_at: '2026-11-20T00:00:00Z' }, [{ end: '2026-11-14' }]);
    await customerWith('cancels-later', { cancel_at: '2026-12-14T00:00:00Z' }, [{ end: '2026-11-14' }]);
    await customerWith('metered', { plan_id: 'calls' }, [{ end: '2026-11-14' }]);
    // A credit up to Dec 14 bills no period: Nov 14 was the last.
    await customerWith('credited', {}, [{ end: '2026-11-14' }, { end: '2026-12-14', amount: -500 }]);
    await customerWith('unbilled', {}, []);
    await customerWith('elsewhere', {}, [{ end: '2026-11-14' }], other);
    const pages = createConnectorPages(testStore.store, services.fx, services.clock, services);
    expect(await pages.lapsedCustomers(accountId, source)).toEqual(['cancels-later', 'credited', 'lapsed']);
  });
});
