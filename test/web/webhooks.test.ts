import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import {
  browserAvailable,
  ensureWebBuilt,
  launchBrowser,
  screenshots,
  signedInContext,
} from '../helpers/browser.js';
import { STORE_KINDS } from '../helpers/stores.js';
import { inviteMember, setUpOwner, type WebSession } from '../helpers/web-session.js';

describe.runIf(browserAvailable()).each(STORE_KINDS)(
  'the Webhooks settings page in chromium on %s',
  (kind) => {
    let t: TestApp;
    let account: TestAccount;
    let owner: WebSession;
    let base: string;
    let browser: Browser;
    let page: Page;

    async function contextOf(session: WebSession): Promise<BrowserContext> {
      return signedInContext(browser, base, session);
    }

    beforeAll(async () => {
      ensureWebBuilt();
      t = await createTestApp(kind);
      account = await t.newAccount('Webhooks account');
      owner = await setUpOwner(t, account.id);
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
      browser = await launchBrowser();
      page = await (await contextOf(owner)).newPage();
      page.on('dialog', (dialog) => void dialog.accept());
    });
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    it('adds a webhook showing its secret once, lists it with its deliveries, and deletes it', async () => {
      await page.goto(`${base}/#/settings/webhooks`);
      await page.getByText('No webhooks yet.').waitFor();
      await page.getByLabel('URL').fill('https://hooks.example.com/churn');
      await page.getByLabel('Event').selectOption('movement.churn');
      await page.getByRole('button', { name: 'Add webhook' }).click();
      const secret = await page.locator('[data-secret]').textContent();
      const [webhook] = (await t.read(account.adminKey, '/integrations/webhooks')).webhooks;
      expect(webhook).toMatchObject({ url: 'https://hooks.example.com/churn', event_type: 'movement.churn' });
      expect((await t.read(account.adminKey, `/integrations/webhooks/${webhook.id}`)).secret).toBe(secret);
      const row = page.locator(`tr[data-webhook-id="${webhook.id}"]`);
      await row.getByText('movement.churn').waitFor();
      await row.getByRole('button', { name: 'Deliveries' }).click();
      await page.getByText('Nothing delivered yet.').waitFor();
      await screenshots(page, `${kind}-webhooks`);

      // The server's refusal, in its words.
      await page.getByLabel('URL').fill('http://hooks.example.com/plain');
      await page.getByRole('button', { name: 'Add webhook' }).click();
      await page
        .getByText('Invalid body field "url": must be an https URL (http only to localhost)')
        .waitFor();

      const reader = await inviteMember(t, owner, 'reader@example.com', 'readonly');
      const readerContext = await contextOf(reader.session);
      try {
        const readerPage = await readerContext.newPage();
        await readerPage.goto(`${base}/#/settings/webhooks`);
        await readerPage.locator('[data-readonly]').waitFor();
        await readerPage.locator(`tr[data-webhook-id="${webhook.id}"]`).waitFor();
        expect(await readerPage.getByRole('button', { name: 'Add webhook' }).count()).toBe(0);
        expect(await readerPage.getByRole('button', { name: 'Delete' }).count()).toBe(0);
      } finally {
        await readerContext.close();
      }

      await row.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('No webhooks yet.').waitFor();
      expect(await t.read(account.adminKey, '/integrations/webhooks')).toEqual({ webhooks: [] });
    });
  },
);
