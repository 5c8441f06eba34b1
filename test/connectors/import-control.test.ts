import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { connectorRegistry, CursorLostError } from '../../src/connectors/connector.js';
import { createServices } from '../../src/services/index.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { newSource } from '../helpers/connector-tests.js';
import { gate, type PageCall, scriptedConnector } from '../helpers/scripted-connector.js';
import { STORE_KINDS } from '../helpers/stores.js';

const SECRETS_KEY = randomBytes(32);
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

const customers = Array.from({ length: 5 }, (_, i) => ({ id: `cus_${i}`, name: `Customer ${i}` }));
const RECORDS = {
  customers,
  plans: [{ id: 'pro', name: 'Pro', billing_freq: 'month', currency: 'usd' }],
  subscriptions: [],
  invoices: customers.map((customer, i) => ({
    id: `in_${i}`,
    customer_id: customer.id,
    date: '2026-10-01',
    currency: 'usd',
    lines: [{ plan_id: 'pro', amount: 1000, period_start: '2026-10-01', period_end: '2026-11-01' }],
  })),
};

describe.each(STORE_KINDS)('connector imports on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;

  afterEach(() => t.close());

  async function setUp(
    connector: Parameters<typeof scriptedConnector>[0],
    secretsKey: Buffer | null = SECRETS_KEY,
  ) {
    t = await createTestApp(
      kind,
      {},
      { connectors: connectorRegistry([scriptedConnector(connector)]), secretsKey: secretsKey ?? undefined },
    );
    account = await t.newAccount();
    return newSource(t, account, { name: 'Books', type: 'processor-a' });
  }

  /** The stored checkpoint as "kind index/cursor". */
  const position = async (id: string) => {
    const row = await t.services.store.connectorImports.get(account.id, id);
    return `${row?.kind_index}/${row?.cursor}`;
  };

  const post = (url: string, payload?: object, key = account.adminKey) =>
    t.call(key, { method: 'POST', url, ...(payload ? { payload } : {}) });
  const connect = (id: string, key = account.adminKey) =>
    post(`/data/data-sources/${id}/connect`, { api_key: 'rk_test_1' }, key);

  it('imports every page through the /data validation and reports progress and settings', async () => {
    const records = {
      ...RECORDS,
      invoices: [...RECORDS.invoices, { ...RECORDS.invoices[0]!, id: 'in_bad', customer_id: 'cus_missing' }],
    };
    const id = await setUp({ records, pageSize: 2 });
    // Before the first import there is no start nor activity: those keys are left out, not null.
    expect(await t.read(account.adminKey, `/data/data-sources/${id}/progress`)).toEqual({
      phase: 'idle',
      enqueuedCount: 0,
      processedCount: 0,
      failedCount: 0,
      percent: 0,
      finishedAt: null,
      lastError: null,
    });

    const connected = await connect(id);
    expect(connected.statusCode, connected.body).toBe(200);
    expect(connected.json()).toEqual({ success: true, id });
    await t.services.imports.settled(account.id, id);

    expect(await t.read(account.viewerKey, `/data/data-sources/${id}/progress`)).toEqual({
      phase: 'done',
      enqueuedCount: 12,
      processedCount: 11,
      failedCount: 1,
      percent: 100,
      startedAt: expect.stringMatching(/^2026-11-23T12:00:00/),
      lastActivityAt: expect.stringMatching(/^2026-11-23T12:00:00/),
      finishedAt: expect.stringMatching(/^2026-11-23T12:00:00/),
      lastError: `invoices in_bad: Unknown customer_id "cus_missing": no such customer in data source ${id}`,
    });
    expect(await t.read(account.adminKey, '/settings/processor-a')).toEqual({
      connected: true,
      account_id: 'acct_scripted',
      account_name: 'Scripted Inc',
      livemode: false,
      connected_at: expect.stringMatching(/^2026-11-23T12:00:00/),
      last_sync: expect.stringMatching(/^2026-11-23T12:00:00/),
      sync_status: 'complete',
      customers_imported: 5,
      invoices_imported: 5,
    });
    const invoice = await t.read(account.adminKey, `/data/invoices/in_3?data_source=${id}`);
    expect(invoice).toMatchObject({ customer_id: 'cus_3', amount: 1000, data_source: id });
  });

  it('refuses to store a key without SECRETS_KEY, and stores nothing', async () => {
    const id = await setUp({ records: RECORDS, pageSize: 2 }, null);
    const response = await connect(id);
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toMatch(/^SECRETS_KEY is not set/);
    expect((await t.read(account.adminKey, '/settings/processor-a')).connected).toBe(false);
    expect(await t.services.store.connectorImports.secret(account.id, id)).toBeUndefined();
  });

  it('seals the key at rest and never returns it', async () => {
    const id = await setUp({ records: RECORDS, pageSize: 10 });
    await connect(id);
    await t.services.imports.settled(account.id, id);
    const sealed = await t.services.store.connectorImports.secret(account.id, id);
    expect(sealed).toMatch(/^[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    expect(sealed).not.toContain('rk_test_1');
    const everything = JSON.stringify([
      await t.read(account.adminKey, '/settings/processor-a'),
      await t.read(account.adminKey, '/data/data-sources'),
      await t.read(account.adminKey, `/data/data-sources/${id}/progress`),
    ]);
    expect(everything).not.toContain('rk_test_1');
  });

  it('resumes a run left running from its last stored page, with the same result', async () => {
    const held = gate();
    const id = await setUp({
      records: RECORDS,
      pageSize: 2,
      beforePage: (call) => (call.kind === 'invoices' && call.cursor === '2' ? held.opened : undefined),
    });
    await connect(id);
    // Wait until the run is held on the second invoice page, then stop the process's tasks.
    await expect.poll(() => position(id)).toBe('3/2');
    const stopping = t.services.imports.close();
    held.open();
    await stopping;
    const left = await t.services.store.connectorImports.get(account.id, id);
    expect(left).toMatchObject({ state: 'running', kind_index: 3, cursor: '2', stored: 8 });

    const calls: PageCall[] = [];
    const restarted = createServices(t.services.store, t.clock, {
      connectors: connectorRegistry([scriptedConnector({ records: RECORDS, pageSize: 2, calls })]),
      secretsKey: SECRETS_KEY,
    });
    expect(await restarted.imports.resumeRunning()).toBe(1);
    await restarted.imports.settled(account.id, id);
    expect(calls).toEqual([
      { kind: 'invoices', cursor: '2' },
      { kind: 'invoices', cursor: '4' },
    ]);
    expect(await t.read(account.adminKey, `/data/data-sources/${id}/progress`)).toMatchObject({
      phase: 'done',
      enqueuedCount: 11,
      processedCount: 11,
      failedCount: 0,
    });
    expect((await t.read(account.adminKey, `/data/invoices?data_source=${id}`)).result.list).toHaveLength(5);
  });

  it('aborts a running import: the page in flight is not stored', async () => {
    const held = gate();
    const id = await setUp({
      records: RECORDS,
      pageSize: 2,
      beforePage: (call) => (call.kind === 'customers' && call.cursor === '2' ? held.opened : undefined),
    });
    await connect(id);
    await expect.poll(() => position(id)).toBe('0/2');
    expect((await post(`/data/data-sources/${id}/full-import`)).json()).toEqual({
      error: 'An import of this data source is already running',
    });
    const aborted = await post(`/data/data-sources/${id}/abort`);
    expect(aborted.statusCode).toBe(200);
    held.open();
    await t.services.imports.settled(account.id, id);
    expect(await t.read(account.adminKey, `/data/data-sources/${id}/progress`)).toMatchObject({
      phase: 'aborted',
      processedCount: 2,
      percent: 0,
    });
    expect((await t.read(account.adminKey, '/data/customers')).result.list).toHaveLength(2);
    const again = await post(`/data/data-sources/${id}/abort`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'No import of this data source is running' });
  });

  it('reads a kind again from its start when its cursor object was deleted', async () => {
    let lost = false;
    const calls: PageCall[] = [];
    const id = await setUp({
      records: RECORDS,
      pageSize: 2,
      calls,
      beforePage: (call) => {
        if (call.kind === 'customers' && call.cursor === '4' && !lost) {
          lost = true;
          throw new CursorLostError('No such customer: cus_3');
        }
      },
    });
    await connect(id);
    await t.services.imports.settled(account.id, id);
    expect(calls.filter((call) => call.kind === 'customers')).toEqual([
      { kind: 'customers', cursor: null },
      { kind: 'customers', cursor: '2' },
      { kind: 'customers', cursor: '4' },
      { kind: 'customers', cursor: null },
      { kind: 'customers', cursor: '2' },
      { kind: 'customers', cursor: '4' },
    ]);
    expect((await t.read(account.adminKey, `/data/data-sources/${id}/progress`)).phase).toBe('done');
  });

  it('ends in error with the reason when the system fails, and a full import starts over', async () => {
    let failing = true;
    const id = await setUp({
      records: RECORDS,
      pageSize: 2,
      beforePage: (call) => {
        if (failing && call.kind === 'plans') throw new Error('Stripe: the API is down');
      },
    });
    await connect(id);
    await t.services.imports.settled(account.id, id);
    expect(await t.read(account.adminKey, `/data/data-sources/${id}/progress`)).toMatchObject({
      phase: 'error',
      percent: 25,
      processedCount: 5,
      lastError: 'Stripe: the API is down',
    });
    expect((await t.read(account.adminKey, '/settings/processor-a')).sync_status).toBe('error');

    failing = false;
    expect((await post(`/data/data-sources/${id}/full-import`)).statusCode).toBe(200);
    await t.services.imports.settled(account.id, id);
    expect(await t.read(account.adminKey, `/data/data-sources/${id}/progress`)).toMatchObject({
      phase: 'done',
      processedCount: 11,
      lastError: null,
    });
  });

  it('resets: records and sync state go, the connection stays', async () => {
    const id = await setUp({ records: RECORDS, pageSize: 10 });
    await connect(id);
    await t.services.imports.settled(account.id, id);
    const reset = await post(`/data/data-sources/${id}/reset`);
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ success: true, id });
    expect((await t.read(account.adminKey, `/data/data-sources/${id}/progress`)).phase).toBe('idle');
    expect((await t.read(account.adminKey, `/data/invoices?data_source=${id}`)).result.list).toEqual([]);
    expect(await t.read(account.adminKey, '/settings/processor-a')).toMatchObject({
      connected: true,
      account_id: 'acct_scripted',
      sync_status: null,
      last_sync: null,
      customers_imported: 0,
      invoices_imported: 0,
    });
  });

  it('answers each error path of the control routes', async () => {
    const id = await setUp({ records: RECORDS, pageSize: 10 });
    const api = await newSource(t, account, { name: 'Own', type: 'api' });
    const expectError = async (response: Awaited<ReturnType<typeof post>>, status: number, error: string) => {
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json()).toEqual({ error });
    };
    for (const action of ['full-import', 'abort', 'reset', 'connect']) {
      const url = `/data/data-sources/${id}/${action}`;
      const body = action === 'connect' ? { api_key: 'rk_x' } : undefined;
      await expectError(
        await post(url, body, account.viewerKey),
        403,
        'This endpoint needs an admin API key',
      );
      await expectError(await t.call(undefined, { method: 'POST', url }), 401, 'Unauthorized');
      await expectError(
        await post(`/data/data-sources/${UNKNOWN_ID}/${action}`, body),
        404,
        `Data source ${UNKNOWN_ID} not found`,
      );
      await expectError(
        await post(`/data/data-sources/nope/${action}`, body),
        400,
        'Invalid path parameter "id": must be a UUID',
      );
    }
    await expectError(
      await post(`/data/data-sources/${id}/full-import`),
      409,
      `Data source ${id} is not connected`,
    );
    await expectError(
      await post(`/data/data-sources/${id}/abort`),
      409,
      'No import of this data source is running',
    );
    await expectError(
      await post(`/data/data-sources/${api}/full-import`),
      409,
      'Data sources of type api have no connector to import with',
    );
    await expectError(
      await post(`/data/data-sources/${id}/connect`, { api_key: ' ' }),
      400,
      'Invalid body field "api_key": must not be empty',
    );
    await expectError(
      await t.call(account.adminKey, { method: 'GET', url: `/data/data-sources/${UNKNOWN_ID}/progress` }),
      404,
      `Data source ${UNKNOWN_ID} not found`,
    );
    const other = await t.newAccount('Other');
    await expectError(
      await t.call(other.adminKey, { method: 'GET', url: `/data/data-sources/${id}/progress` }),
      404,
      `Data source ${id} not found`,
    );
  });
});
