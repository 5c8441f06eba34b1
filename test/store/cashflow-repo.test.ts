import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/services/clock.js';
import { createServices, type Services } from '../../src/services/index.js';
import { type InvoiceVisitor, visitInvoiceRows } from '../../src/store/cashflow-repo.js';
import type { Db } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { storeOver } from '../../src/store/open-store.js';
import { createTestLocation, openLocationDb, STORE_KINDS, type TestLocation } from '../helpers/stores.js';

describe.each(STORE_KINDS)('cashflow reads on %s', (kind) => {
  let location: TestLocation;
  let db: Db;
  let services: Services;
  let accountId: string;
  /** Every call a visitor gets, as values. */
  const recorder = () => {
    const calls: unknown[][] = [];
    const visitor: InvoiceVisitor = {
      invoice: (...values) => calls.push(['invoice', ...values]),
      transaction: (...values) => calls.push(['transaction', ...values]),
    };
    return { calls, visitor };
  };
  /** Every call of a whole read, in pages of `size` invoices where the store reads by pages. */
  const visits = async (size?: number) => {
    const { calls, visitor } = recorder();
    await services.store.cashflow.eachInvoice(accountId, visitor, size);
    return calls;
  };
  let source: string;

  beforeAll(async () => {
    location = await createTestLocation(kind);
    db = await openLocationDb(location);
    await migrate(db);
    services = createServices(storeOver(db), fixedClock('2026-11-23T12:00:00Z'));
    accountId = (await services.accounts.create({ name: 'Cashflow' })).account.id;
    await services.customers.upsert(accountId, { id: 'c1', name: 'One' });
    await services.plans.import(accountId, { id: 'p1', name: 'P1', billing_freq: 'month', currency: 'usd' });
    await services.invoices.import(accountId, [
      {
        id: 'in1',
        customer_id: 'c1',
        date: '2025-01-01',
        currency: 'usd',
        lines: [
          { plan_id: 'p1', amount: 1000, period_start: '2025-01-01', period_end: '2025-02-01' },
          { type: 'one_time', amount: 50, description: 'Setup' },
        ],
        transactions: [{ id: 't1', date: '2025-01-02', type: 'payment', result: 'successful', amount: 1050 }],
      },
      { id: 'in2', customer_id: 'c1', date: '2025-02-01', currency: 'usd', amount: 700 },
      {
        id: 'in3',
        customer_id: 'c1',
        date: '2025-03-01',
        currency: 'usd',
        amount: 900,
        transactions: [
          { id: 'z', date: '2025-03-02T09:00:00Z', type: 'payment', result: 'failed', amount: 900 },
          { id: 'a', date: '2025-03-05T09:00:00Z', type: 'payment', result: 'successful', amount: 900 },
        ],
      },
    ]);
    source = (await visits())[0]![1] as string;
    // A second data source, so that a page can span two: its keys sort after or before the first's.
    otherSource = (await services.dataSources.create(accountId, { name: 'Other', type: 'csv' })).id;
    const other = otherSource;
    await services.customers.upsert(accountId, { id: 'c1', name: 'One elsewhere', data_source: other });
    await services.invoices.import(accountId, [
      {
        id: 'in1',
        customer_id: 'c1',
        data_source: other,
        date: '2025-04-01',
        currency: 'usd',
        amount: 300,
        transactions: [{ id: 't9', date: '2025-04-02', type: 'payment', result: 'successful', amount: 300 }],
      },
      { id: 'in0', customer_id: 'c1', data_source: other, date: '2025-05-01', currency: 'usd', amount: 400 },
    ]);
    otherFirst = other < source;
  });
  let otherFirst: boolean;
  let otherSource: string;
  afterAll(async () => {
    await db.close();
    await location.drop();
  });

  it('reads invoices with their transactions in key order, the same in pages of any size', async () => {
    const calls = await visits();
    // Each invoice's id, total and transactions' ids.
    const invoices: [unknown, unknown, unknown[]][] = [];
    for (const call of calls)
      if (call[0] === 'invoice') invoices.push([call[3], call[10], []]);
      else invoices.at(-1)![2].push(call[1]);
    const first = [
      ['in1', 1050, ['t1']],
      ['in2', 700, []],
      // Each invoice's transactions in time order, whatever their ids.
      ['in3', 900, ['z', 'a']],
    ];
    const other = [
      ['in0', 400, []],
      ['in1', 300, ['t9']],
    ];
    // Key order: by data source, then id; the same id in two data sources is two invoices.
    expect(invoices).toEqual(otherFirst ? [...other, ...first] : [...first, ...other]);
    // 2025-01-01 is day 20,089; t1 on the next day, a successful payment without a method.
    const in1 = calls.findIndex((call) => call[0] === 'invoice' && call[1] === source && call[3] === 'in1');
    expect(calls[in1]).toEqual([
      'invoice',
      source,
      'c1',
      'in1',
      null,
      null,
      20_089,
      null,
      null,
      'paid',
      1050,
      'usd',
    ]);
    expect(calls[in1 + 1]).toEqual(['transaction', 't1', 20_090, false, true, 1050, null]);
    // Pages of 2 and 3 span both data sources, whichever comes first.
    for (const size of [1, 2, 3]) expect(await visits(size)).toEqual(calls);
  });

  it("counts what a whole read hands over: five invoices, four transactions, not another account's", async () => {
    const other = (await services.accounts.create({ name: 'Other account' })).account.id;
    await services.customers.upsert(other, { id: 'c1', name: 'One' });
    await services.invoices.import(other, [
      {
        id: 'in1',
        customer_id: 'c1',
        date: '2025-01-01',
        currency: 'usd',
        amount: 100,
        transactions: [{ id: 't1', date: '2025-01-02', type: 'payment', result: 'successful', amount: 100 }],
      },
    ]);
    // in1, in2 and in3 in the first data source (t1; z and a), in1 and in0 in the other (t9).
    expect(await services.store.cashflow.size(accountId)).toEqual({ invoices: 5, transactions: 4 });
    expect(await services.store.cashflow.size(other)).toEqual({ invoices: 1, transactions: 1 });
    const calls = await visits();
    expect(calls.filter((call) => call[0] === 'invoice')).toHaveLength(5);
    expect(calls.filter((call) => call[0] === 'transaction')).toHaveLength(4);
  });

  it('hands every invoice to a visitor as the driver decodes them, transactions in time order', async () => {
    // Text the COPY read escapes, characters of several bytes, and transactions whose ids and
    // stored order are not their time order (two at one instant keep their stored order).
    await services.customers.upsert(accountId, { id: 'Ünï 🌍', name: 'Unicode' });
    await services.invoices.import(accountId, {
      id: 'in\\4',
      customer_id: 'Ünï 🌍',
      date: '2025-06-30',
      due_date: '2025-07-30',
      payment_date: '2025-07-02',
      status: 'paid',
      number: 'Nº\t7',
      description: 'Line one\nline two \\ back',
      currency: 'eur',
      amount: -250,
      transactions: [
        { id: 'z', date: '2025-07-02T23:30:00Z', type: 'refund', result: 'failed', amount: 250 },
        {
          id: 'y',
          date: '2025-07-01T10:00:00Z',
          type: 'payment',
          result: 'successful',
          amount: 250,
          payment_method: 'card',
        },
        { id: 'b', date: '2025-07-01T10:00:00Z', type: 'payment', result: 'failed', amount: 250 },
      ],
    });
    // Ids that a page's next key must carry as a literal: a quote, a backslash, one at the end,
    // each sorting before other invoices of its data source.
    await services.invoices.import(
      accountId,
      ["a'b", 'a\\b', 'a\\'].map((id) => ({
        id,
        customer_id: 'Ünï 🌍',
        date: '2025-05-01',
        currency: 'eur',
        amount: 10,
      })),
    );
    // The same invoices read by customer (rows decoded by the driver, transactions sorted here).
    const byCustomer = recorder();
    const customers = [
      { dataSourceId: source, id: 'c1' },
      { dataSourceId: otherSource, id: 'c1' },
      { dataSourceId: source, id: 'Ünï 🌍' },
    ];
    visitInvoiceRows(
      await services.store.cashflow.invoicesOfCustomers(accountId, customers),
      byCustomer.visitor,
    );
    const read = recorder();
    await services.store.cashflow.eachInvoice(accountId, read.visitor);
    expect(read.calls).toEqual(byCustomer.calls);
    for (const size of [1, 2, 3]) expect(await visits(size)).toEqual(read.calls);
    const start = read.calls.findIndex((call) => call[3] === 'in\\4');
    // 2025-06-30 is day 20,269; transactions by time, then stored order: y, b, z.
    expect(read.calls.slice(start, start + 4)).toEqual([
      [
        'invoice',
        source,
        'Ünï 🌍',
        'in\\4',
        'Nº\t7',
        'Line one\nline two \\ back',
        20_269,
        20_299,
        20_271,
        'paid',
        -250,
        'eur',
      ],
      ['transaction', 'y', 20_270, false, true, 250, 'card'],
      ['transaction', 'b', 20_270, false, false, 250, null],
      ['transaction', 'z', 20_271, true, false, 250, null],
    ]);
  });

  it('gives back its connection when the visitor stops the read, however often', async () => {
    const stop: InvoiceVisitor = {
      invoice: () => {
        throw new Error('stop');
      },
      transaction: () => {},
    };
    // More reads than the pool has connections.
    for (let attempt = 0; attempt < 12; attempt++)
      await expect(services.store.cashflow.eachInvoice(accountId, stop)).rejects.toThrow('stop');
    // COPY takes no parameters: an id that is not a UUID never reaches the statement.
    await expect(
      services.store.cashflow.eachInvoice("x'; drop table invoices; --", recorder().visitor),
    ).rejects.toThrow();
    const read = recorder();
    await services.store.cashflow.eachInvoice(accountId, read.visitor);
    expect(read.calls.filter((call) => call[0] === 'invoice')).toHaveLength(9);
    // A page of no invoices would never end the read.
    for (const size of [0, 1.5]) await expect(visits(size)).rejects.toThrow(/not a page size/);
  });

  it('reads the lines of the invoices asked for, in their order, and none for an unknown one', async () => {
    const rows = await services.store.cashflow.lines(accountId, [
      { dataSourceId: source, id: 'in2' },
      { dataSourceId: source, id: 'in1' },
      { dataSourceId: source, id: 'gone' },
    ]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get('in1')!.data_source).toBe(source);
    expect(byId.get('in1')!.lines.map((line) => [line.amount, line.description, line.period_start])).toEqual([
      [1000, null, '2025-01-01'],
      [50, 'Setup', null],
    ]);
    expect(byId.get('in2')!.lines).toEqual([]);
    expect(byId.get('gone')?.lines ?? []).toEqual([]);
    expect(await services.store.cashflow.lines(accountId, [])).toEqual([]);
  });
});
