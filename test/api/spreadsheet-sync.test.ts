import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columns, createTestApp, LOCAL_RECEIVERS, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

const RATES = 'Date,USD\n2026-09-01,1.20\n';

/** What the local "published sheets" server answers, by path; edited by the tests. */
const sheets = new Map<string, string>();
/** Paths the server answers with a redirect to the given address, as published sheets do. */
const redirects = new Map<string, string>();

function serveSheets(): Promise<Server> {
  const server = createServer((request, response) => {
    const target = redirects.get(request.url ?? '');
    if (target !== undefined) {
      response.writeHead(307, { location: target }).end();
      return;
    }
    const body = sheets.get(request.url ?? '');
    if (body === undefined) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/csv' }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe.each(STORE_KINDS)('spreadsheet sources on %s', (kind) => {
  let server: Server;
  let base: string;
  let t: TestApp;
  let account: TestAccount;
  let source: string;

  beforeAll(async () => {
    server = await serveSheets();
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sheets/`;
    t = await createTestApp(kind, {}, { ...LOCAL_RECEIVERS, spreadsheets: { baseUrl: base } });
    account = await t.newAccount();
    await t.loadRates(RATES);
    source = (
      await t.seed(account.adminKey, '/data/data-sources', { name: 'Sheet', type: 'spreadsheet' })
    ).json().id;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    t.call(account.adminKey, { method, url, ...(payload ? { payload } : {}) });

  /** Starts a sync, waits for it, and answers the sheets as GET shows them then. */
  const synced = async () => {
    const started = await call('POST', `/data/data-sources/${source}/sync`);
    expect(started.statusCode, started.body).toBe(202);
    await t.services.spreadsheets.settled(account.id, source);
    return (await t.read(account.adminKey, `/data/data-sources/${source}/sheets`)).result;
  };
  const list = async (path: string) =>
    (await t.read(account.adminKey, `${path}?data_source=${source}&limit=100`)).result.list;

  it('reads each sheet into its records, again on each sync, with no duplicate and nothing removed', async () => {
    sheets.set('/sheets/customers.csv', 'id,name\nc1,Ann\nc2,Bo\n');
    sheets.set('/sheets/plans.csv', 'id,name,billing_freq,currency\nbasic,Basic,month,usd\n');
    sheets.set(
      '/sheets/invoices.csv',
      'id,customer_id,date,currency,line_amount,line_plan_id,line_period_start,line_period_end\n' +
        'i1,c1,2026-10-01,usd,3000,basic,2026-10-01,2026-11-01\n' +
        'i2,c2,2026-10-01,usd,4000,basic,2026-10-01,2026-11-01\n',
    );
    const set = await call('PUT', `/data/data-sources/${source}/sheets`, {
      customers: `${base}customers.csv`,
      plans: `${base}plans.csv`,
      invoices: `${base}invoices.csv`,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(columns(set.json().result, 'kind', 'last_synced_at')).toEqual([
      ['customers', null],
      ['invoices', null],
      ['plans', null],
    ]);

    const first = await synced();
    expect(columns(first, 'kind', 'last_error')).toEqual([
      ['customers', null],
      ['invoices', null],
      ['plans', null],
    ]);
    const invoiceUpload = await t.read(account.adminKey, `/data/uploads/${first[1].last_upload}`);
    expect(invoiceUpload).toMatchObject({
      kind: 'invoices',
      state: 'done',
      rows_imported: 2,
      error_count: 0,
    });
    // October: 3000 + 4000 = 7000 from two customers.
    const october = async () =>
      columns(
        (await t.read(account.viewerKey, '/reports/mrr?date=20261001-20261031')).result,
        'total_mrr',
        'total_customers',
      );
    expect(await october()).toEqual([[7000, 2]]);

    // The sheet changes: Ann renamed, Bo's row gone, a new customer. Bo stays as he was.
    sheets.set('/sheets/customers.csv', 'id,name\nc1,Ann Lee\nc3,Cy\n');
    const second = await synced();
    expect(second.map((sheet: { last_error: string | null }) => sheet.last_error)).toEqual([
      null,
      null,
      null,
    ]);
    expect(second[0].last_upload).not.toBe(first[0].last_upload);
    // Each sync keeps only its own copy of the rows.
    expect((await call('GET', `/data/uploads/${first[0].last_upload}`)).statusCode).toBe(404);
    expect((await call('GET', `/data/uploads/${second[0].last_upload}`)).statusCode).toBe(200);
    expect(columns(await list('/data/customers'), 'id', 'name')).toEqual([
      ['c1', 'Ann Lee'],
      ['c2', 'Bo'],
      ['c3', 'Cy'],
    ]);
    expect(columns(await list('/data/invoices'), 'id', 'amount')).toEqual([
      ['i1', 3000],
      ['i2', 4000],
    ]);
    expect(await october()).toEqual([[7000, 2]]);
  });

  it('keeps a failed sheet apart: its error is shown, the other sheets still sync', async () => {
    // The plans sheet now names its id column unlike any field, so its mapping lacks one.
    sheets.set('/sheets/plans.csv', 'Plan,name,billing_freq,currency\npro,Pro,month,usd\n');
    sheets.delete('/sheets/invoices.csv');
    const result = await synced();
    const plans = result.find((sheet: { kind: string }) => sheet.kind === 'plans');
    expect(plans.last_error).toBe(
      `The mapping must give a column for the field "id": set it with PUT /data/uploads/${plans.last_upload}/mapping`,
    );
    expect(result.find((sheet: { kind: string }) => sheet.kind === 'invoices').last_error).toBe(
      `The sheet at ${base}invoices.csv answered HTTP 404`,
    );
    expect(result.find((sheet: { kind: string }) => sheet.kind === 'customers').last_error).toBeNull();

    // Mapped once, the next sync uses the saved mapping.
    const mapped = await call('PUT', `/data/uploads/${plans.last_upload}/mapping`, {
      Plan: 'id',
      name: 'name',
      billing_freq: 'billing_freq',
      currency: 'currency',
    });
    expect(mapped.statusCode, mapped.body).toBe(200);
    const again = await synced();
    expect(again.find((sheet: { kind: string }) => sheet.kind === 'plans').last_error).toBeNull();
    expect(columns(await list('/data/plans'), 'id')).toEqual([['basic'], ['pro']]);
  });

  it('removes a sheet with null, and syncs every source on the schedule', async () => {
    const removed = await call('PUT', `/data/data-sources/${source}/sheets`, { invoices: null, plans: null });
    expect(columns(removed.json().result, 'kind')).toEqual([['customers']]);
    sheets.set('/sheets/customers.csv', 'id,name\nc4,Di\n');
    await t.services.spreadsheets.syncAll();
    expect(columns(await list('/data/customers'), 'id')).toEqual([['c1'], ['c2'], ['c3'], ['c4']]);
  });

  it('follows a redirect on its own server, and none to plain http elsewhere', async () => {
    sheets.set('/sheets/moved.csv', 'id,name\nc9,Moved\n');
    redirects.set('/sheets/customers.csv', `${base}moved.csv`);
    redirects.set('/sheets/plans.csv', 'http://localhost:9/latest/meta-data');
    await call('PUT', `/data/data-sources/${source}/sheets`, { plans: `${base}plans.csv` });
    try {
      const result = await synced();
      expect(result.find((sheet: { kind: string }) => sheet.kind === 'customers').last_error).toBeNull();
      expect(columns(await list('/data/customers'), 'id')).toContainEqual(['c9']);
      expect(result.find((sheet: { kind: string }) => sheet.kind === 'plans').last_error).toBe(
        `The sheet at ${base}plans.csv redirects to http://localhost:9, which is neither https nor its own server`,
      );
    } finally {
      redirects.clear();
    }
  });

  it('answers 400 for an address outside the base URL, 404 and 409 for the wrong source', async () => {
    for (const address of [
      'http://169.254.169.254/latest',
      `${base}../admin`,
      `${base.slice(0, -1)}-other/x.csv`,
    ]) {
      const outside = await call('PUT', `/data/data-sources/${source}/sheets`, { customers: address });
      expect([outside.statusCode, outside.json()], address).toEqual([
        400,
        { error: `The customers sheet must be an address starting with ${base}` },
      ]);
    }
    const unknownKind = await call('PUT', `/data/data-sources/${source}/sheets`, { refunds: `${base}x.csv` });
    expect([unknownKind.statusCode, unknownKind.json()]).toEqual([
      400,
      { error: 'Unknown body field: refunds' },
    ]);
    const notUrl = await call('PUT', `/data/data-sources/${source}/sheets`, { plans: 'plans.csv' });
    expect([notUrl.statusCode, notUrl.json()]).toEqual([
      400,
      { error: 'Invalid body field "plans": must be an absolute URL' },
    ]);

    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['GET', 'sheets'],
      ['POST', 'sync'],
    ] as const) {
      const response = await call(method, `/data/data-sources/${unknown}/${path}`);
      expect([response.statusCode, response.json()]).toEqual([
        404,
        { error: `Data source ${unknown} not found` },
      ]);
    }
    const csv = (await t.seed(account.adminKey, '/data/data-sources', { name: 'Files', type: 'csv' })).json()
      .id;
    const wrong = await call('GET', `/data/data-sources/${csv}/sheets`);
    expect([wrong.statusCode, wrong.json()]).toEqual([
      409,
      { error: 'Files is a csv source; sheets belong to spreadsheet sources' },
    ]);
    const viewer = await t.call(account.viewerKey, {
      method: 'POST',
      url: `/data/data-sources/${source}/sync`,
    });
    expect(viewer.statusCode).toBe(403);
  });
});
