import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, LOCAL_RECEIVERS, type TestAccount, type TestApp } from '../helpers/app.js';
import {
  browserAvailable,
  ensureWebBuilt,
  launchBrowser,
  screenshots,
  signedInContext,
} from '../helpers/browser.js';
import { STORE_KINDS } from '../helpers/stores.js';
import { setUpOwner } from '../helpers/web-session.js';

// "Mail" is named like no field, so its select starts on "Not imported"; row 3's email is refused.
const CUSTOMERS_CSV = 'ID,Name,Mail,Tier\nc1,Ann,ann@example.com,gold\nc2,Bo,not-an-email,silver\n';

describe.runIf(browserAvailable()).each(STORE_KINDS)('files and sheets in chromium on %s', (kind) => {
  let sheetServer: Server;
  let sheetBase: string;
  let t: TestApp;
  let account: TestAccount;
  let base: string;
  let browser: Browser;
  let page: Page;
  let sourceId: string;

  beforeAll(async () => {
    ensureWebBuilt();
    // A published sheet of two customers, as a spreadsheet service serves its CSV export.
    sheetServer = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/csv' }).end('id,name\ns1,Sheet One\ns2,Sheet Two\n');
    });
    await new Promise<void>((resolve) => sheetServer.listen(0, '127.0.0.1', resolve));
    sheetBase = `http://127.0.0.1:${(sheetServer.address() as AddressInfo).port}/`;
    t = await createTestApp(kind, {}, { ...LOCAL_RECEIVERS, spreadsheets: { baseUrl: sheetBase } });
    account = await t.newAccount('Upload account');
    sourceId = (await t.seed(account.adminKey, '/data/data-sources', { name: 'Files', type: 'csv' })).json()
      .id;
    const owner = await setUpOwner(t, account.id);
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchBrowser();
    const context = await signedInContext(browser, base, owner);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await new Promise((resolve) => sheetServer?.close(resolve));
  });

  it('previews a CSV, maps its columns with selects, imports it and shows the refused row', async () => {
    await page.goto(`${base}/#/settings/data-sources`);
    await page.getByLabel('Into data source').selectOption(sourceId);
    await page.getByLabel('Records').selectOption('customers');
    await page.getByLabel('File', { exact: true }).setInputFiles({
      name: 'customers.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(CUSTOMERS_CSV),
    });
    await page.getByRole('button', { name: 'Preview' }).click();

    const select = (column: string) => page.getByLabel(`Field for column ${column}`);
    await select('ID').waitFor();
    // Suggested by name: ID and Name; Mail and Tier are not field names.
    expect(await select('ID').inputValue()).toBe('id');
    expect(await select('Name').inputValue()).toBe('name');
    expect(await select('Mail').inputValue()).toBe('');
    expect(await page.locator('.upload-preview tbody tr').allInnerTexts()).toEqual([
      '2\tc1\tAnn\tann@example.com\tgold',
      '3\tc2\tBo\tnot-an-email\tsilver',
    ]);
    await select('Mail').selectOption('email');
    await select('Tier').selectOption('custom_tier');
    await page.getByRole('button', { name: 'Import' }).click();

    const progress = page.locator('[data-upload]');
    await expect.poll(() => progress.getAttribute('data-state'), { timeout: 10_000 }).toBe('done');
    expect(await progress.locator('progress').getAttribute('value')).toBe('100');
    expect(await progress.locator('.hint').innerText()).toBe('2 of 2 rows read, 1 imported, 1 refused');
    expect(await progress.locator('.upload-errors tbody tr').allInnerTexts()).toEqual([
      '3\tMail\tInvalid field "email": must be an email address',
    ]);
    await screenshots(page, `${kind}-upload`);

    const customers = (await t.read(account.adminKey, `/data/customers?source=${sourceId}`)).result.list;
    expect(customers.map((customer: { id: string; email: string }) => [customer.id, customer.email])).toEqual(
      [['c1', 'ann@example.com']],
    );
    const stored = await t.read(account.adminKey, `/data/customers/c1?data_source=${sourceId}`);
    expect(stored.custom_variables).toEqual({ tier: 'gold' });
    // The mapping chosen is the source's next suggestion for customers.
    const next = await t.call(account.adminKey, {
      method: 'POST',
      url: `/data/uploads?kind=customers&data_source=${sourceId}`,
      headers: { 'content-type': 'text/csv' },
      payload: CUSTOMERS_CSV,
    });
    expect(next.json().mapping).toEqual({ ID: 'id', Name: 'name', Mail: 'email', Tier: 'custom_tier' });
  });

  it("saves a spreadsheet source's sheet, syncs it now and shows how it went", async () => {
    const sheetSource = (
      await t.seed(account.adminKey, '/data/data-sources', { name: 'Sheet', type: 'spreadsheet' })
    ).json().id;
    // The page is already there: load it again, to list the new source.
    await page.goto(`${base}/#/settings/data-sources`);
    await page.reload();
    const sheets = page.locator(`[data-sheets="${sheetSource}"]`);
    await sheets.getByLabel('Customers sheet').fill(`${sheetBase}customers.csv`);
    await sheets.getByRole('button', { name: 'Save sheets' }).click();
    await expect
      .poll(() => sheets.locator('[data-kind="customers"] small').innerText())
      .toBe('Not synced yet');
    expect((await t.read(account.adminKey, `/data/data-sources/${sheetSource}/sheets`)).result).toMatchObject(
      [{ kind: 'customers', url: `${sheetBase}customers.csv` }],
    );

    await sheets.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => sheets.getAttribute('data-syncing'), { timeout: 10_000 }).toBe('no');
    expect(await sheets.locator('[data-kind="customers"] small').innerText()).toMatch(/^Synced /);
    const customers = (await t.read(account.adminKey, `/data/customers?source=${sheetSource}`)).result.list;
    expect(customers.map((customer: { id: string; name: string }) => [customer.id, customer.name])).toEqual([
      ['s1', 'Sheet One'],
      ['s2', 'Sheet Two'],
    ]);
  });
});
