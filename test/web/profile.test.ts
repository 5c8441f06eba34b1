import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { browserAvailable, ensureWebBuilt, launchBrowser, signedInContext } from '../helpers/browser.js';
import { STORE_KINDS } from '../helpers/stores.js';
import { setUpOwner } from '../helpers/web-session.js';

describe.runIf(browserAvailable()).each(STORE_KINDS)('the profile form in chromium on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  let base: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ensureWebBuilt();
    t = await createTestApp(kind);
    account = await t.newAccount('Profile account');
    const owner = await setUpOwner(t, account.id);
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchBrowser();
    const context = await signedInContext(browser, base, owner);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it("saves the owner's time zone, the account's for digests, and shows the server's refusal", async () => {
    await page.goto(`${base}/#/settings/account`);
    const form = page.locator('[data-profile]');
    await form.getByLabel('Time zone (IANA, e.g. Europe/Copenhagen)').fill('Asia/Tokyo');
    await form.getByLabel('First name').fill('Aiko');
    await form.getByRole('button', { name: 'Save profile' }).click();
    await form.getByText('Profile saved.').waitFor();
    expect(await t.read(account.adminKey, '/profile')).toMatchObject({
      first_name: 'Aiko',
      timezone: 'Asia/Tokyo',
    });

    await form.getByLabel('Time zone (IANA, e.g. Europe/Copenhagen)').fill('Mars/Olympus');
    await form.getByRole('button', { name: 'Save profile' }).click();
    await form
      .getByText('timezone must be an IANA time zone such as Europe/Copenhagen', { exact: false })
      .waitFor();
    expect((await t.read(account.adminKey, '/profile')).timezone).toBe('Asia/Tokyo');
  });
});
