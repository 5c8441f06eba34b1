import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorRegistry } from '../../src/connectors/connector.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import {
  browserAvailable,
  DESKTOP,
  ensureWebBuilt,
  launchBrowser,
  signedInContext,
  PHONE,
  screenshots,
  SCREENSHOTS_DIR,
} from '../helpers/browser.js';
import { gate, scriptedConnector } from '../helpers/scripted-connector.js';
import { STORE_KINDS } from '../helpers/stores.js';
import { seedWebFixture } from '../helpers/web-fixture.js';
import { inviteMember, setUpOwner, type WebSession } from '../helpers/web-session.js';

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
const API_KEY = 'rk_test_never_shown_again';
const WEBHOOK_SECRET = 'whsec_never_shown_either';

describe.runIf(browserAvailable()).each(STORE_KINDS)('the settings pages in chromium on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  let owner: WebSession;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let sourceId: string;
  // The import holds at its last kind, invoices (3 of 4 kinds done: 75 %), until the test opens it.
  let held = gate();
  const shot = (name: string, on?: Page) => screenshots(on ?? page, `${kind}-${name}`);

  async function contextOf(session: WebSession): Promise<BrowserContext> {
    return signedInContext(browser, base, session);
  }

  const progress = () => t.read(account.adminKey, `/data/data-sources/${sourceId}/progress`);
  const row = (on: Page = page) => on.locator(`tr[data-source="${sourceId}"]`);
  const phase = (on: Page = page) => on.locator(`[data-import="${sourceId}"]`).getAttribute('data-phase');

  beforeAll(async () => {
    ensureWebBuilt();
    t = await createTestApp(
      kind,
      {},
      {
        connectors: connectorRegistry([
          scriptedConnector({
            records: RECORDS,
            pageSize: 2,
            beforePage: (call) => (call.kind === 'invoices' ? held.opened : undefined),
          }),
        ]),
        secretsKey: randomBytes(32),
      },
    );
    account = await t.newAccount('Settings account');
    await seedWebFixture(t, account);
    owner = await setUpOwner(t, account.id);
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchBrowser();
    context = await contextOf(owner);
    page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
  });
  afterAll(async () => {
    held.open();
    if (sourceId) await t?.services.imports.settled(account.id, sourceId);
    await browser?.close();
    await t?.close();
  });

  it('groups the navigation into Reports and Settings menus, folded behind one button on a phone', async () => {
    await page.goto(`${base}/#/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await expect.poll(() => page.locator('.top nav > a').count()).toBe(1);
    await page.getByRole('button', { name: /^Settings/ }).click();
    await page.getByRole('link', { name: 'Data sources' }).waitFor();
    await page.screenshot({ path: `${SCREENSHOTS_DIR}/${kind}-navigation-desktop.png` });
    await page.getByRole('link', { name: 'Data sources' }).click();
    await page.getByRole('heading', { name: 'Data sources' }).waitFor();
    // The menu closes on navigation; the page may show before that effect runs.
    await expect.poll(() => page.locator('#menu-settings').isVisible()).toBe(false);

    await page.setViewportSize(PHONE);
    await expect.poll(() => page.locator('#main-nav').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Cohorts' }).waitFor();
    await page.screenshot({ path: `${SCREENSHOTS_DIR}/${kind}-navigation-phone.png` });
    await page.getByRole('link', { name: 'Cohorts' }).click();
    await page.getByRole('heading', { name: 'Cohorts' }).waitFor();
    // The page may show before the navigation's effect folds it.
    await expect.poll(() => page.locator('#main-nav').isVisible()).toBe(false);
    await page.setViewportSize(DESKTOP);
  });

  it('creates and deletes data sources; a connector source shows its import, idle', async () => {
    await page.goto(`${base}/#/settings/data-sources`);
    await page.getByLabel('Name').fill('Books');
    await page.getByLabel('Type').selectOption('processor-a');
    await page.getByRole('button', { name: 'Create data source' }).click();
    await page.locator('tr[data-source]', { hasText: 'Books' }).waitFor();
    const sources = await t.read(account.adminKey, '/data/data-sources');
    sourceId = sources.result.find((source: { name: string }) => source.name === 'Books').id;
    expect(sources.result.find((source: { id: string }) => source.id === sourceId).type).toBe('processor-a');
    await expect.poll(() => phase()).toBe('idle');

    await page.getByLabel('Name').fill('Sheets');
    await page.getByLabel('Type').selectOption('csv');
    await page.getByRole('button', { name: 'Create data source' }).click();
    const sheets = page.locator('tr[data-source]', { hasText: 'Sheets' });
    await sheets.waitFor();
    expect(await sheets.locator('progress').count()).toBe(0);
    await sheets.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => sheets.count()).toBe(0);
    const names = (await t.read(account.adminKey, '/data/data-sources')).result.map(
      (source: { name: string }) => source.name,
    );
    expect(names).toContain('Books');
    expect(names).not.toContain('Sheets');
  });

  it('connects with a key that is posted once and never shown back; the webhook URL is shown', async () => {
    await page.goto(`${base}/#/settings/connections`);
    const panel = page.locator(`[data-connection="${sourceId}"]`);
    await panel.waitFor();
    await expect
      .poll(() => page.locator('[data-processor-status]').getAttribute('data-processor-status'))
      .toBe('not-connected');
    // No OAuth route answers on this server: the key form is the way.
    await panel.getByText('This server has no Stripe OAuth configured').waitFor();
    expect(await panel.locator('[data-webhook]').textContent()).toBe(
      `${base}/webhooks/processor-a/${account.id}/${sourceId}`,
    );
    await panel.getByLabel('Restricted API key').fill(API_KEY);
    await panel.getByLabel(/^Webhook signing secret/).fill(WEBHOOK_SECRET);
    await panel.getByRole('button', { name: 'Connect with this key' }).click();
    await panel.getByText('Connected: the key was checked and stored sealed').waitFor();
    expect(await panel.getByLabel('Restricted API key').inputValue()).toBe('');
    expect(await panel.getByLabel(/^Webhook signing secret/).inputValue()).toBe('');
    const html = await page.content();
    expect(html).not.toContain(API_KEY);
    expect(html).not.toContain(WEBHOOK_SECRET);
    // The API got it: the import runs, and the sealed key is stored.
    await expect.poll(async () => (await progress()).phase).toBe('processing');
    expect(await t.services.store.connectorImports.secret(account.id, sourceId)).toBeDefined();
    await expect
      .poll(() => page.locator('[data-processor-status]').getAttribute('data-processor-status'))
      .toBe('connected');
    await page.getByText('Connected to Scripted Inc').waitFor();
    await shot('connections');

    await page.goto(`${base}/#/settings/connections?connected=${sourceId}`);
    await page.getByText('Connected "Books" to Stripe').waitFor();
    await page.goto(`${base}/#/settings/connections?error=${encodeURIComponent('The owner said no')}`);
    await expect
      .poll(() => page.locator('[data-callback="error"]').textContent())
      .toBe('Stripe was not connected: The owner said no');
  });

  it('shows the import progress, polled while it runs, and the buttons call the API', async () => {
    await page.goto(`${base}/#/settings/data-sources`);
    await expect.poll(() => phase()).toBe('processing');
    await expect.poll(() => row().locator('progress').getAttribute('value')).toBe('75');
    await shot('data-sources');

    await row().getByRole('button', { name: 'Abort' }).click();
    await expect.poll(() => phase()).toBe('aborted');
    expect((await progress()).phase).toBe('aborted');

    // A new run holds at the invoices again, so the bar is seen moving while it is polled.
    held.open();
    await t.services.imports.settled(account.id, sourceId);
    held = gate();
    await row().getByRole('button', { name: 'Full import' }).click();
    await expect.poll(() => phase()).toBe('processing');
    expect((await progress()).phase).toBe('processing');
    held.open();
    await expect.poll(() => phase(), { timeout: 10_000 }).toBe('done');
    await expect.poll(() => row().locator('progress').getAttribute('value')).toBe('100');
    expect((await t.read(account.adminKey, `/data/customers?source=${sourceId}`)).result.list).toHaveLength(
      5,
    );

    await row().getByRole('button', { name: 'Reset' }).click();
    await expect
      .poll(async () => (await t.read(account.adminKey, `/data/customers?source=${sourceId}`)).result.list)
      .toHaveLength(0);
  });

  it('saves the notification settings', async () => {
    await page.goto(`${base}/#/settings/notifications`);
    await page.getByLabel('Send the figures by email').check();
    await page.getByLabel(/^Recipients/).fill('ceo@example.com, cfo@example.com');
    await page.getByLabel('How often').selectOption('monthly');
    await page.getByLabel('Churn', { exact: true }).check();
    await page.getByLabel('Failed payment').check();
    await page
      .getByLabel('Slack incoming webhook URL')
      .fill('https://hooks.slack.com/services/T1/B2/abcd1234');
    await page.getByLabel(/^Churned MRR in one day above/).fill('250');
    await page.getByLabel(/^MRR falling/).fill('5');
    await page.getByRole('button', { name: 'Save notification settings' }).click();
    await page.getByText('Saved.').waitFor();
    const saved = {
      email: { enabled: true, recipients: ['ceo@example.com', 'cfo@example.com'], frequency: 'monthly' },
      chat: {
        enabled: false,
        channel: '',
        events: ['churn', 'failed_payment'],
        slack_webhook_url: 'https://hooks.slack.com/…1234',
        teams_webhook_url: '',
      },
      alerts: { churn_threshold: 25000, mrr_drop_threshold: 5 },
      // The same settings as the hosted service's flat fields.
      daily_report: false,
      weekly_report: false,
      monthly_report: true,
      expansion_alert_threshold: null,
      contraction_alert_threshold: null,
      notify_scheduled_churn: false,
      notify_failed_payment: true,
    };
    expect(await t.read(account.adminKey, '/settings/notifications')).toEqual(saved);
    // The page now shows the URL masked; saving it again keeps the whole URL.
    await expect
      .poll(() => page.getByLabel('Slack incoming webhook URL').inputValue())
      .toBe('https://hooks.slack.com/…1234');
    await page.getByLabel(/^MRR falling/).fill('6');
    await page.getByRole('button', { name: 'Save notification settings' }).click();
    await expect
      .poll(async () => (await t.read(account.adminKey, '/settings/notifications')).alerts.mrr_drop_threshold)
      .toBe(6);
    expect((await t.services.settings.notifications(account.id)).chat.slack_webhook_url).toBe(
      'https://hooks.slack.com/services/T1/B2/abcd1234',
    );
    await shot('notifications');
  });

  it('changes the base currency on the account page, and refuses one without exchange rates', async () => {
    const shown = () => page.locator('[data-base-currency]').getAttribute('data-base-currency');
    await page.goto(`${base}/#/settings/account`);
    await expect.poll(shown).toBe('usd');
    const field = page.getByLabel(/^Base currency/);
    const submit = page.getByRole('button', { name: 'Change base currency' });
    await field.fill('XTS');
    await submit.click();
    await page
      .getByText('Invalid field "base_currency": unknown currency "xts": no exchange rates for it')
      .waitFor();
    await field.fill('EUR');
    await submit.click();
    await expect.poll(shown).toBe('eur');
    expect((await t.read(account.viewerKey, '/reports/summary')).currency).toBe('eur');
    await shot('account-settings');
    await page.getByLabel(/^Base currency/).fill('USD');
    await page.getByRole('button', { name: 'Change base currency' }).click();
    await expect.poll(shown).toBe('usd');
  });

  it('shows a readonly member the settings with every write control disabled, and the API refuses', async () => {
    const { session } = await inviteMember(t, owner, 'reader@example.com', 'readonly');
    const readerContext = await contextOf(session);
    try {
      const reader = await readerContext.newPage();
      await reader.goto(`${base}/#/settings/data-sources`);
      await reader.locator('[data-readonly]').waitFor();
      await expect.poll(() => phase(reader)).not.toBe('');
      expect(await reader.getByRole('button', { name: 'Create data source' }).isDisabled()).toBe(true);
      expect(await reader.getByLabel('Name').isDisabled()).toBe(true);
      for (const name of ['Full import', 'Abort', 'Reset', 'Delete']) {
        expect(await row(reader).getByRole('button', { name }).isDisabled(), name).toBe(true);
      }
      await shot('readonly-data-sources', reader);

      await reader.goto(`${base}/#/settings/connections`);
      const panel = reader.locator(`[data-connection="${sourceId}"]`);
      await panel.waitFor();
      expect(await panel.getByLabel('Restricted API key').isDisabled()).toBe(true);
      expect(await panel.getByRole('button', { name: 'Connect with this key' }).isDisabled()).toBe(true);
      expect(await panel.getByRole('button', { name: 'Disconnect' }).isDisabled()).toBe(true);
      await reader.getByText("Only the owner and admins see the Stripe account's status.").waitFor();
      await shot('readonly-connections', reader);

      await reader.goto(`${base}/#/settings/notifications`);
      await reader.getByText('Only the owner and admins see and change the notification settings').waitFor();
      expect(await reader.locator('form[data-notifications]').count()).toBe(0);
      await reader.goto(`${base}/#/settings/account`);
      await reader.getByText('Only the owner and admins change the base currency.').waitFor();
      expect(await reader.getByRole('button', { name: 'Change base currency' }).count()).toBe(0);

      // What the pages do not offer, the API refuses too, with the session's CSRF token.
      const statuses = await reader.evaluate(async (id) => {
        const me = (await (await fetch('/web/session')).json()) as { csrf_token: string };
        const headers = { 'content-type': 'application/json', 'x-csrf-token': me.csrf_token };
        const send = async (method: string, url: string, body: unknown) =>
          (await fetch(url, { method, headers, body: JSON.stringify(body) })).status;
        return [
          await send('POST', `/data/data-sources/${id}/full-import`, {}),
          await send('POST', `/data/data-sources/${id}/reset`, {}),
          await send('POST', `/data/data-sources/${id}/connect`, { api_key: 'rk_x' }),
          await send('PUT', '/settings/notifications', { email: { enabled: false } }),
          (await fetch(`/data/data-sources/${id}`, { method: 'DELETE', headers })).status,
          await send('PATCH', '/web/account', { base_currency: 'eur' }),
        ];
      }, sourceId);
      expect(statuses).toEqual([403, 403, 403, 403, 403, 403]);
      expect((await t.read(account.adminKey, '/settings/notifications')).email.enabled).toBe(true);
    } finally {
      await readerContext.close();
    }
  });
});
