import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XLSX_CONTENT_TYPE } from '../../src/api/uploads-routes.js';
import { columns, createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

const RATES = 'Date,USD\n2026-09-01,1.20\n';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

const PLANS_CSV = 'Plan ID,Name,Interval,Currency\nbasic,Basic,month,USD\npro,Pro,month,usd\n';

const INVOICES_CSV = [
  'Invoice,Customer,Date,Currency,Amount,Plan,From,To',
  // i1 has two lines: 3000 + 2000 = 5000 for October.
  'i1,c1,2026-10-01,usd,3000,basic,2026-10-01,2026-11-01',
  'i2,c2,2026-10-01,usd,7000,pro,2026-10-01,2026-11-01',
  'i1,c1,2026-10-01,usd,2000,basic,2026-10-01,2026-11-01',
  'i3,c9,2026-10-01,usd,1000,basic,2026-10-01,2026-11-01',
  'i4,c2,2026-10-01,usd,ten,pro,2026-10-01,2026-11-01',
].join('\n');

const INVOICE_MAPPING = {
  Invoice: 'id',
  Customer: 'customer_id',
  Date: 'date',
  Currency: 'currency',
  Amount: 'line_amount',
  Plan: 'line_plan_id',
  From: 'line_period_start',
  To: 'line_period_end',
};

/** Customers as a spreadsheet: a date cell, a bad email (row 3) and a row with neither name nor email (row 4). */
async function customersXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Customers');
  sheet.addRow(['ID', 'Name', 'E-mail', 'Created', 'Country']);
  sheet.addRow(['c1', 'Ann', 'ann@example.com', new Date('2026-08-01T00:00:00Z'), 'us']);
  sheet.addRow(['c3', 'Cid', 'not-an-email', new Date('2026-08-02T00:00:00Z'), 'US']);
  sheet.addRow(['c4', null, null, new Date('2026-08-03T00:00:00Z'), 'DE']);
  sheet.addRow(['c2', 'Bo', 'bo@example.com', new Date('2026-08-15T10:30:00Z'), 'DE']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe.each(STORE_KINDS)('uploads on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  let source: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
    await t.loadRates(RATES);
    source = (await t.seed(account.adminKey, '/data/data-sources', { name: 'Files', type: 'csv' })).json().id;
  });
  afterAll(() => t.close());

  const upload = (uploadKind: string, body: string | Buffer, contentType = 'text/csv', dataSource = source) =>
    t.call(account.adminKey, {
      method: 'POST',
      url: `/data/uploads?kind=${uploadKind}&data_source=${dataSource}`,
      headers: { 'content-type': contentType },
      payload: body,
    });

  const created = async (uploadKind: string, body: string | Buffer, contentType?: string) => {
    const response = await upload(uploadKind, body, contentType);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };

  const setMapping = (id: string, mapping: object) =>
    t.call(account.adminKey, { method: 'PUT', url: `/data/uploads/${id}/mapping`, payload: mapping });

  /** Starts the import, waits for it, and answers the upload as GET shows it then. */
  const imported = async (id: string) => {
    const started = await t.call(account.adminKey, { method: 'POST', url: `/data/uploads/${id}/import` });
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json().state).toBe('running');
    await t.services.uploads.settled(id);
    return t.read(account.adminKey, `/data/uploads/${id}`);
  };

  const list = async (path: string) =>
    (await t.read(account.adminKey, `${path}?data_source=${source}&limit=100`)).result.list;

  it('previews a CSV of plans, suggests columns by name, saves the mapping and imports', async () => {
    const plans = await created('plans', PLANS_CSV);
    expect(plans).toMatchObject({
      kind: 'plans',
      format: 'csv',
      state: 'uploaded',
      columns: ['Plan ID', 'Name', 'Interval', 'Currency'],
      // Only the columns named like a field; "Plan ID" and "Interval" are not field names.
      mapping: { Name: 'name', Currency: 'currency' },
      preview: [
        { row: 2, cells: ['basic', 'Basic', 'month', 'USD'] },
        { row: 3, cells: ['pro', 'Pro', 'month', 'usd'] },
      ],
      rows_total: 2,
      rows_done: 0,
      percent: 0,
      errors: [],
    });
    expect(plans.fields).toContain('billing_freq_count');

    const mapping = { 'Plan ID': 'id', Name: 'name', Interval: 'billing_freq', Currency: 'currency' };
    const mapped = await setMapping(plans.id, mapping);
    expect(mapped.statusCode, mapped.body).toBe(200);
    expect(mapped.json().mapping).toEqual(mapping);

    const done = await imported(plans.id);
    expect(done).toMatchObject({
      state: 'done',
      rows_done: 2,
      rows_imported: 2,
      percent: 100,
      error_count: 0,
    });
    expect(columns(await list('/data/plans'), 'id', 'name', 'billing_freq', 'currency')).toEqual([
      ['basic', 'Basic', 'month', 'usd'],
      ['pro', 'Pro', 'month', 'usd'],
    ]);

    // The next plans file of the source is offered the saved mapping.
    const again = await created('plans', PLANS_CSV);
    expect(again.mapping).toEqual(mapping);
  });

  it('reads the first sheet of an XLSX file and names each refused row by row and column', async () => {
    const customers = await created('customers', await customersXlsx(), XLSX_CONTENT_TYPE);
    expect(customers).toMatchObject({
      format: 'xlsx',
      columns: ['ID', 'Name', 'E-mail', 'Created', 'Country'],
      mapping: { ID: 'id', Name: 'name', Country: 'country' },
      rows_total: 4,
    });
    // A date cell at midnight UTC reads as its day, any other as its instant; an empty cell as ''.
    expect(customers.preview).toEqual([
      { row: 2, cells: ['c1', 'Ann', 'ann@example.com', '2026-08-01', 'us'] },
      { row: 3, cells: ['c3', 'Cid', 'not-an-email', '2026-08-02', 'US'] },
      { row: 4, cells: ['c4', '', '', '2026-08-03', 'DE'] },
      { row: 5, cells: ['c2', 'Bo', 'bo@example.com', '2026-08-15T10:30:00.000Z', 'DE'] },
    ]);
    const mapping = { ...customers.mapping, 'E-mail': 'email', Created: 'created_date' };
    expect((await setMapping(customers.id, mapping)).statusCode).toBe(200);

    const done = await imported(customers.id);
    expect(done).toMatchObject({
      state: 'done',
      rows_total: 4,
      rows_done: 4,
      rows_imported: 2,
      error_count: 2,
    });
    expect(done.errors).toEqual([
      { row: 3, column: 'E-mail', message: 'Invalid field "email": must be an email address' },
      { row: 4, column: 'Name', message: 'Missing required fields: name or email' },
    ]);
    expect(columns(await list('/data/customers'), 'id', 'email', 'created_date', 'country')).toEqual([
      ['c1', 'ann@example.com', '2026-08-01T00:00:00.000Z', 'US'],
      ['c2', 'bo@example.com', '2026-08-15T10:30:00.000Z', 'DE'],
    ]);
  });

  it('groups invoice rows into invoices, reports MRR from them, and creates nothing twice', async () => {
    const invoices = await created('invoices', INVOICES_CSV);
    expect((await setMapping(invoices.id, INVOICE_MAPPING)).statusCode).toBe(200);
    const done = await imported(invoices.id);
    // i1 (rows 2 and 4) and i2 (row 3) stored; i3 names an unknown customer; i4 an amount that is no number.
    expect(done).toMatchObject({ state: 'done', rows_done: 5, rows_imported: 3, error_count: 2 });
    expect(done.errors).toEqual([
      {
        row: 5,
        column: 'Customer',
        message: `Unknown customer_id "c9": no such customer in data source ${source}`,
      },
      {
        row: 6,
        column: 'Amount',
        message: 'Invalid field "lines.0.amount": Invalid input: expected number, received string',
      },
    ]);

    // October: c1 3000 + 2000 = 5000 and c2 7000, so MRR 12000 from two new customers.
    const expectOctober = async () => {
      const mrr = await t.read(account.viewerKey, '/reports/mrr?date=20261001-20261031');
      expect(columns(mrr.result, 'date', 'new', 'total_mrr', 'total_customers')).toEqual([
        ['2026-10-01', 12000, 12000, 2],
      ]);
    };
    await expectOctober();
    const stored = columns(await list('/data/invoices'), 'id', 'customer_id', 'amount');
    expect(stored).toEqual([
      ['i1', 'c1', 5000],
      ['i2', 'c2', 7000],
    ]);

    // The same import again, and the same file uploaded again: upserts by id, nothing new.
    expect((await imported(invoices.id)).rows_imported).toBe(3);
    const second = await created('invoices', INVOICES_CSV);
    expect(second.mapping).toEqual(INVOICE_MAPPING);
    expect((await imported(second.id)).rows_imported).toBe(3);
    expect(columns(await list('/data/invoices'), 'id', 'customer_id', 'amount')).toEqual(stored);
    expect(columns(await list('/data/customers'), 'id')).toEqual([['c1'], ['c2']]);
    await expectOctober();
  });

  it('imports subscriptions, with numbers read from their cells', async () => {
    const csv =
      'id,customer_id,plan_id,quantity,started_at,mrr,currency\ns1,c1,basic,2,2026-10-01,4000,usd\n';
    const subscriptions = await created('subscriptions', csv);
    expect(subscriptions.mapping).toEqual({
      id: 'id',
      customer_id: 'customer_id',
      plan_id: 'plan_id',
      quantity: 'quantity',
      started_at: 'started_at',
      mrr: 'mrr',
      currency: 'currency',
    });
    expect(await imported(subscriptions.id)).toMatchObject({
      state: 'done',
      rows_imported: 1,
      error_count: 0,
    });
    expect(columns(await list('/data/subscriptions'), 'id', 'quantity', 'mrr')).toEqual([['s1', 2, 4000]]);
  });

  it('refuses a row of an invoice whose cells disagree, and the invoice with it', async () => {
    const csv =
      'id,customer_id,date,currency,line_amount\nx,c1,2026-10-01,usd,100\nx,c1,2026-10-02,usd,200\n';
    const done = await imported((await created('invoices', csv)).id);
    expect(done).toMatchObject({ rows_done: 2, rows_imported: 0, error_count: 1 });
    expect(done.errors).toEqual([
      { row: 3, column: 'date', message: 'invoice x has a second value for "date"' },
    ]);
  });

  it('refuses a second import while one runs, and resumes a running import after a restart', async () => {
    // 3,000 plans: six batches of 500, so the first import is still running when the others ask.
    const rows = Array.from({ length: 3000 }, (_, i) => `bulk_${i},Bulk ${i},month,usd`);
    const bulk = await created('plans', `id,name,billing_freq,currency\n${rows.join('\n')}\n`);
    const importUrl = `/data/uploads/${bulk.id}/import`;
    // Two requests at once: which one reaches the upload first is not theirs to say.
    const [started, refused] = (
      await Promise.all([
        t.call(account.adminKey, { method: 'POST', url: importUrl }),
        t.call(account.adminKey, { method: 'POST', url: importUrl }),
      ])
    ).sort((a, b) => a.statusCode - b.statusCode);
    expect([started.statusCode, refused.statusCode, refused.json()]).toEqual([
      202,
      409,
      { error: 'The upload is already being imported' },
    ]);
    const busy = await setMapping(bulk.id, bulk.mapping);
    expect([busy.statusCode, busy.json()]).toEqual([
      409,
      { error: 'The upload is being imported; wait for it to end' },
    ]);
    await t.services.uploads.settled(bulk.id);
    expect(await t.read(account.adminKey, `/data/uploads/${bulk.id}`)).toMatchObject({
      state: 'done',
      rows_done: 3000,
      rows_imported: 3000,
      percent: 100,
    });

    // A process that stopped mid-import left the upload running: the next start goes on with it.
    const stopped = await created('plans', 'id,name,billing_freq,currency\nlate,Late,month,usd\n');
    await t.services.store.uploads.start(account.id, stopped.id);
    expect(await t.services.uploads.resumeRunning()).toBe(1);
    await t.services.uploads.settled(stopped.id);
    expect(await t.read(account.adminKey, `/data/uploads/${stopped.id}`)).toMatchObject({
      state: 'done',
      rows_imported: 1,
    });
  });

  it('answers 400 for a bad query, file or mapping', async () => {
    const bad = async (response: Promise<{ statusCode: number; json(): unknown }>, error: string) => {
      const answer = await response;
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ error });
    };
    await bad(
      upload('refunds', PLANS_CSV),
      'Invalid query parameter "kind": must be one of customers, plans, invoices, subscriptions',
    );
    await bad(
      upload('plans', PLANS_CSV, 'text/csv', 'nope'),
      'Invalid query parameter "data_source": must be a UUID',
    );
    await bad(upload('plans', ''), 'The file is empty: it needs a header row');
    await bad(upload('plans', ',,\n,,\n'), 'The file is empty: it needs a header row');
    await bad(upload('plans', 'id,name,id\n'), 'Column "id" appears twice in the header');
    await bad(
      upload('plans', 'id\na\u0000b\n'),
      'Invalid cell at row 2, column "id": must not contain the character U+0000 (NUL)',
    );
    await bad(upload('plans', 'id,name\n"a,b\n'), expect.stringMatching(/^Malformed CSV/));
    await bad(
      upload('plans', 'not a zip', XLSX_CONTENT_TYPE),
      expect.stringMatching(/^Unreadable XLSX file/),
    );
    const stripe = (
      await t.seed(account.adminKey, '/data/data-sources', { name: 'S', type: 'processor-a' })
    ).json();
    await bad(
      upload('plans', PLANS_CSV, 'text/csv', stripe.id),
      'Files go into a data source of type csv, api, spreadsheet; S is processor-a',
    );

    const plans = await created('plans', PLANS_CSV);
    await bad(setMapping(plans.id, { Nope: 'id' }), 'The file has no column "Nope"');
    await bad(
      setMapping(plans.id, { 'Plan ID': 'plan' }),
      'Column "Plan ID": plans have no field "plan"; fields: id, name, billing_freq, billing_freq_count, pricing_model, product_name, currency',
    );
    await bad(
      setMapping(plans.id, { 'Plan ID': 'id', Name: 'id' }),
      'Columns "Plan ID" and "Name" both fill the field "id"',
    );
    await bad(setMapping(plans.id, { Name: 'name' }), 'The mapping must give a column for the field "id"');
    // No column is saved or named like a field, so nothing fills id: importing is refused the same way.
    const unnamed = await created('plans', 'Code,Label\nx,y\n');
    expect(unnamed.mapping).toEqual({});
    await bad(
      t.call(account.adminKey, { method: 'POST', url: `/data/uploads/${unnamed.id}/import` }),
      'The mapping must give a column for the field "id"',
    );
  });

  it('answers 404 for an unknown upload or data source, 403 to a viewer, 415 for another content type', async () => {
    const missing = await upload('plans', PLANS_CSV, 'text/csv', UNKNOWN_ID);
    expect([missing.statusCode, missing.json()]).toEqual([
      404,
      { error: `Data source ${UNKNOWN_ID} not found` },
    ]);
    for (const [method, url] of [
      ['GET', `/data/uploads/${UNKNOWN_ID}`],
      ['POST', `/data/uploads/${UNKNOWN_ID}/import`],
    ] as const) {
      const response = await t.call(account.adminKey, { method, url });
      expect([response.statusCode, response.json()]).toEqual([
        404,
        { error: `Upload ${UNKNOWN_ID} not found` },
      ]);
    }
    expect((await setMapping(UNKNOWN_ID, { a: 'id' })).statusCode).toBe(404);

    const plans = await created('plans', PLANS_CSV);
    const viewer = await t.call(account.viewerKey, { method: 'GET', url: `/data/uploads/${plans.id}` });
    expect(viewer.statusCode).toBe(403);
    // Another account sees no such upload.
    const other = await t.newAccount('Other');
    expect(
      (await t.call(other.adminKey, { method: 'GET', url: `/data/uploads/${plans.id}` })).statusCode,
    ).toBe(404);

    for (const contentType of ['application/json', 'text/plain']) {
      const response = await upload('plans', '{}', contentType);
      expect(response.statusCode).toBe(415);
    }
  });

  it('answers 413 for a file over the row limit', async () => {
    // 100,001 rows of "a", one over MAX_UPLOAD_ROWS.
    const csv = `id\n${'a\n'.repeat(100_001)}`;
    const response = await upload('plans', csv);
    expect([response.statusCode, response.json()]).toEqual([
      413,
      { error: 'A file may hold at most 100000 rows; this one has 100001' },
    ]);
  });
});

describe('uploads over the body limit', () => {
  it('answers 413 before reading the file', async () => {
    const t = await createTestApp('pglite', { bodyLimitBytes: 1024 });
    try {
      const account = await t.newAccount();
      const response = await t.call(account.adminKey, {
        method: 'POST',
        url: `/data/uploads?kind=plans&data_source=${UNKNOWN_ID}`,
        headers: { 'content-type': 'text/csv' },
        payload: `id\n${'x'.repeat(2048)}\n`,
      });
      expect([response.statusCode, response.json()]).toEqual([413, { error: 'Request body is too large' }]);
    } finally {
      await t.close();
    }
  });
});
