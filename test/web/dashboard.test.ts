import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { browserAvailable, DESKTOP, ensureWebBuilt, launchBrowser, screenshots } from '../helpers/browser.js';
import { STORE_KINDS } from '../helpers/stores.js';
import { churnShown, seedWebFixture } from '../helpers/web-fixture.js';

const PASSWORD = 'a long owner password';
const METRICS = ['mrr', 'arr', 'subscribers', 'arpa', 'churn-rate'] as const;

describe.runIf(browserAvailable()).each(STORE_KINDS)('the web interface in chromium on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const shot = (name: string, on?: Page) => screenshots(on ?? page, `${kind}-${name}`);

  /** What the API itself answers for the dashboard's reports of this range. */
  async function apiFigures(date: string): Promise<Record<string, number | null>> {
    const mrr = await t.read(account.adminKey, `/reports/mrr?date=${date}&interval=month`);
    const retention = await t.read(account.adminKey, `/reports/retention?date=${date}&interval=month`);
    const last = mrr.result.at(-1);
    return {
      mrr: last.total_mrr,
      arr: last.total_arr,
      subscribers: last.total_customers,
      // The API answers 0 for a ratio over nothing; the cards show "–" (null) instead.
      arpa: last.total_customers > 0 ? last.arpa : null,
      'churn-rate': churnShown(retention.result.at(-1)),
    };
  }

  async function shownFigures(): Promise<Record<string, number | null>> {
    const figures: Record<string, number | null> = {};
    for (const metric of METRICS) {
      const value = await page.locator(`.card[data-metric="${metric}"]`).getAttribute('data-value');
      figures[metric] = value === '' || value === null ? null : Number(value);
    }
    return figures;
  }

  beforeAll(async () => {
    ensureWebBuilt();
    t = await createTestApp(kind);
    account = await t.newAccount('Browser account');
    await seedWebFixture(t, account);
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: DESKTOP });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('creates the owner through the one-time setup link, then signs out and in again', async () => {
    const [link] = (await t.services.webAuth.issueSetupTokens()).filter(
      (item) => item.accountId === account.id,
    );
    await page.goto(`${base}/#/setup/${link!.token}`);
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Your name').fill('Olive Owner');
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await shot('setup');
    await page.getByRole('button', { name: 'Create owner and sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to mrrlytics' }).waitFor();
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong email or password');
    await shot('sign-in');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });

  it("shows the fixture account's figures, equal to the API's", async () => {
    await page.goto(`${base}/#/dashboard?period=custom&from=2026-01-01&to=2026-06-30&interval=month`);
    await page.locator('.card[data-metric="mrr"]').waitFor();
    const expected = await apiFigures('20260101-20260630');
    // Alpha 50 + Gamma 100 at the end of June; Beta churned in May.
    expect(expected).toMatchObject({ mrr: 15000, arr: 180000, subscribers: 2, arpa: 7500 });
    expect(await shownFigures()).toEqual(expected);
    await expect.poll(() => page.locator('.card[data-metric="mrr"] .card-value').textContent()).toBe('$150');
    await page.locator('.chart canvas').waitFor();
    await shot('dashboard');
  });

  it('changes the period: the URL and the figures follow', async () => {
    await page.locator('input[name="to"]').fill('2026-04-15');
    await expect.poll(() => page.url()).toContain('to=2026-04-15');
    const expected = await apiFigures('20260101-20260415');
    // Alpha and Beta, 50 each, in the middle of April.
    expect(expected).toMatchObject({ mrr: 10000, subscribers: 2 });
    await expect.poll(shownFigures).toEqual(expected);

    await page.locator('select[name="interval"]').selectOption('quarter');
    await expect.poll(() => page.url()).toContain('interval=quarter');
    await expect
      .poll(() => page.locator('.card[data-metric="mrr"] .card-change').textContent())
      .toMatch(/vs previous quarter$/);

    await page.locator('select[name="currency"]').selectOption('eur');
    await expect.poll(() => page.url()).toContain('currency=eur');
    const euros = await t.read(
      account.adminKey,
      '/reports/mrr?date=20260101-20260415&interval=quarter&baseCurrency=eur',
    );
    // The shipped exchange rates convert the 100 USD of mid-April.
    expect(euros.currency).toBe('eur');
    const mrr = euros.result.at(-1).total_mrr as number;
    expect(mrr).toBeGreaterThan(8000);
    expect(mrr).toBeLessThan(10000);
    await expect
      .poll(() => page.locator('.card[data-metric="mrr"]').getAttribute('data-value'))
      .toBe(String(mrr));
    await expect
      .poll(() => page.locator('.card[data-metric="mrr"] .card-value').textContent())
      .toMatch(/^€\d+$/);
  });

  it('lists the movements of the period, filtered by kind in the URL', async () => {
    await page.goto(`${base}/#/movements?period=custom&from=2026-01-01&to=2026-10-31&interval=month`);
    const api = await t.read(account.adminKey, '/reports/movement-table?date=20260101-20261031&limit=51');
    // Alpha new in January, Beta new in February, Gamma new and Beta churned in May.
    expect(
      api.result.list.map(
        (item: { customer_id: string; type: string }) => `${item.customer_id} ${item.type}`,
      ),
    ).toEqual(['beta churn', 'gamma new', 'beta new', 'alpha new']);
    await expect.poll(() => page.locator('main tbody tr').count()).toBe(4);
    await shot('movements');

    await page.locator('select[name="type"]').selectOption('churn');
    await expect.poll(() => page.url()).toContain('type=churn');
    await expect
      .poll(() => page.locator('main tbody tr').allTextContents())
      .toEqual(['2026-05-04Betachurn-$50Churn: MRR 50.00 -> 0.00 USD']);
  });

  it('finds a customer by search and shows their MRR and invoices', async () => {
    await page.goto(`${base}/#/customers`);
    await expect.poll(() => page.locator('tr[data-customer]').count()).toBe(2);
    await page.getByLabel('Search').fill('gam');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.url()).toContain('q=gam');
    await expect.poll(() => page.locator('tr[data-customer]').count()).toBe(1);
    await shot('customers');

    await page.getByRole('link', { name: 'Gamma' }).click();
    await page.getByRole('heading', { name: 'Gamma' }).waitFor();
    const detail = await t.read(account.adminKey, '/customers/gamma');
    expect(detail.converted_mrr).toBe(10000);
    await expect
      .poll(() => page.locator('.card[data-metric="customer-mrr"]').getAttribute('data-value'))
      .toBe(String(detail.converted_mrr));
    // One invoice a month from May to November.
    await expect
      .poll(() => page.locator('section', { hasText: 'Invoices' }).locator('tbody tr').count())
      .toBe(7);
    // Her one movement, new on May 1, comes from the line of her May invoice.
    await expect
      .poll(() => page.locator('section', { hasText: 'Movements' }).locator('[data-line]').allTextContents())
      .toEqual([expect.stringMatching(/^gamma-5: \$100\s+2026-05-01–2026-06-01$/)]);
    await shot('customer');
  });

  it('creates an API key whose secret, shown once, works against the API', async () => {
    await page.goto(`${base}/#/settings/api-keys`);
    await page.getByLabel('Name').fill('Spreadsheet export');
    await page.getByLabel('Access').selectOption('viewer');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.locator('[data-secret]').textContent())!;
    expect(secret).toMatch(/^mrr_/);
    const answer = await fetch(`${base}/reports/mrr?date=20260101-20260630`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { result: { total_mrr: number }[] }).result.at(-1)!.total_mrr).toBe(
      15000,
    );
    await page.getByRole('row', { name: /Spreadsheet export/ }).waitFor();
    await shot('api-keys');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.locator('[data-secret]').count()).toBe(0);
  });

  it('invites a readonly member, who can read but not change anything', async () => {
    await page.goto(`${base}/#/settings/team`);
    await page.getByLabel('Email').fill('reader@example.com');
    await page.getByLabel('Role').selectOption('readonly');
    await page.getByRole('button', { name: 'Invite' }).click();
    const invite = (await page.locator('[data-secret]').textContent())!;
    expect(invite).toMatch(/\/#\/invite\/[\w-]+$/);
    await page.locator('tr[data-member="reader@example.com"]').waitFor();
    await shot('team');

    const readerContext = await browser.newContext({ viewport: DESKTOP });
    try {
      const reader = await readerContext.newPage();
      await reader.goto(invite);
      await reader.getByLabel('Your name').fill('Rita Reader');
      await reader.getByLabel(/^Password/).fill('a long reader password');
      await reader.getByRole('button', { name: 'Set password and sign in' }).click();
      await reader.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await expect.poll(() => reader.locator('.who').textContent()).toBe('Rita Reader · readonly');

      await reader.goto(`${base}/#/settings/api-keys`);
      await reader.getByText('Only the owner and admins manage API keys').waitFor();
      // What the page does not offer, the API refuses too, with the session's CSRF token.
      const sourcesBefore = await t.read(account.adminKey, '/data/data-sources');
      const statuses = await reader.evaluate(async () => {
        const session = (await (await fetch('/web/session')).json()) as { csrf_token: string };
        const headers = { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token };
        const send = async (method: string, url: string, body: unknown) =>
          (await fetch(url, { method, headers, body: JSON.stringify(body) })).status;
        return [
          await send('POST', '/data/data-sources', { name: 'x', type: 'csv' }),
          await send('POST', '/web/api-keys', { name: 'x', access_level: 'admin' }),
          await send('POST', '/web/team', { email: 'x@example.com', role: 'admin' }),
          await send('PUT', '/settings/notifications', { email: { enabled: true } }),
        ];
      });
      expect(statuses).toEqual([403, 403, 403, 403]);
      expect(await t.read(account.adminKey, '/data/data-sources')).toEqual(sourcesBefore);
      await shot('readonly-api-keys', reader);
    } finally {
      await readerContext.close();
    }
  });

  it('changes the password and signs out', async () => {
    await page.goto(`${base}/#/settings/account`);
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel(/^New password/).fill('another long password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.').waitFor();
    await shot('account');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to mrrlytics' }).waitFor();
    expect(await page.evaluate(async () => (await fetch('/web/session')).status)).toBe(401);
    await page.goto(`${base}/#/dashboard`);
    await page.getByRole('heading', { name: 'Sign in to mrrlytics' }).waitFor();
  });
});
