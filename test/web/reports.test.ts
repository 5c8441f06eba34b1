import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
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
import { seedWebFixture } from '../helpers/web-fixture.js';
import { setUpOwner } from '../helpers/web-session.js';

const RANGE = 'period=custom&from=2026-01-01&to=2026-06-30&interval=month';
const DATE = '20260101-20260630';

describe.runIf(browserAvailable()).each(STORE_KINDS)('the report pages in chromium on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  let base: string;
  let browser: Browser;
  let page: Page;
  const shot = (name: string) => screenshots(page, `${kind}-${name}`);

  /** The figure a report table shows in `column` of the row whose first cell is `row`. */
  const cell = (panel: string, row: string, column: string) =>
    page
      .locator(`[data-panel="${panel}"] tr`, { has: page.locator(`td:first-child`, { hasText: row }) })
      .locator(`td[data-column="${column}"]`)
      .getAttribute('data-value');

  beforeAll(async () => {
    ensureWebBuilt();
    t = await createTestApp(kind);
    account = await t.newAccount('Report pages account');
    await seedWebFixture(t, account);
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

  it('shows each cohort’s retention as the API gives it, for MRR and for customers', async () => {
    await page.goto(`${base}/#/cohorts?${RANGE}`);
    const api = await t.read(account.adminKey, `/reports/cohort?date=${DATE}&interval=month`);
    const february = api.result.list.find((cohort: { label: string }) => cohort.label === '2026-02');
    // Beta, the February cohort, pays 50 in February, March and April and nothing from May.
    expect(february.initial_mrr).toBe(5000);
    expect(february.periods.map((period: { mrr_retention: number }) => period.mrr_retention)).toEqual([
      100, 100, 100, 0, 0,
    ]);
    await expect.poll(() => cell('cohorts-mrr', '2026-02', 'initial_mrr')).toBe('5000');
    await expect.poll(() => cell('cohorts-mrr', '2026-02', 'period_2')).toBe('100');
    await expect.poll(() => cell('cohorts-mrr', '2026-02', 'period_3')).toBe('0');
    // Nobody started paying in March: its row is blank, not 0 %.
    const march = api.result.list.find((cohort: { label: string }) => cohort.label === '2026-03');
    expect(march.initial_customers).toBe(0);
    await expect.poll(() => cell('cohorts-mrr', '2026-03', 'period_0')).toBe('');
    await page.locator('.chart canvas').first().waitFor();
    await shot('cohorts');

    await page.locator('select[name="metric"]').selectOption('customers');
    await expect.poll(() => page.url()).toContain('metric=customers');
    const average = api.result.list.at(-1).periods[1].customer_retention as number;
    await expect.poll(() => cell('cohorts-customers', 'Average', 'period_1')).toBe(String(average));
    // Keeping the metric when the period changes.
    await page.locator('select[name="interval"]').selectOption('quarter');
    await expect
      .poll(() => page.url())
      .toMatch(/interval=quarter.*metric=customers|metric=customers.*interval=quarter/);
  });

  it('says so when no cohort started in the range, rather than showing 0 %', async () => {
    await page.goto(`${base}/#/cohorts?${RANGE}&region=oceania`);
    const api = await t.read(account.adminKey, `/reports/cohort?date=${DATE}&interval=month&region=oceania`);
    expect(api.result.list.every((cohort: { initial_customers?: number }) => !cohort.initial_customers)).toBe(
      true,
    );
    await expect
      .poll(() => page.locator('[data-panel="cohorts-mrr"] .empty').textContent())
      .toBe('No customer started paying in this period, so there is no cohort to follow yet.');
    expect(await page.locator('[data-panel="cohorts-mrr"] table').count()).toBe(0);
  });

  it('shows NRR, GRR and churn rates by period as the API gives them', async () => {
    await page.goto(`${base}/#/retention?${RANGE}`);
    const api = await t.read(account.adminKey, `/reports/retention?date=${DATE}&interval=month`);
    const may = api.result.find((row: { date: string }) => row.date === '2026-05-31');
    // April ends with Alpha and Beta at 50 each; in May Beta churns: half the MRR is kept.
    expect(may).toMatchObject({ nrr: 50, grr: 50 });
    await expect.poll(() => cell('retention', '2026-05-31', 'nrr')).toBe('50');
    await expect
      .poll(() => cell('retention', '2026-05-31', 'customer_churn_rate'))
      .toBe(String(may.customer_churn_rate));
    await expect.poll(() => page.locator('.chart').count()).toBe(2);
    await page.locator('.chart canvas').first().waitFor();
    await shot('retention');

    // The table's CSV holds the API's figures as it answers them.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-panel="retention"] button', { hasText: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('retention.csv');
    const csv = readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(csv[0]).toBe('date,nrr,grr,customer_churn_rate,mrr_churn_rate,net_mrr_churn_rate,arpa,ltv');
    const fields = [
      'nrr',
      'grr',
      'customer_churn_rate',
      'mrr_churn_rate',
      'net_mrr_churn_rate',
      'arpa',
      'ltv',
    ];
    expect(csv).toContain(['2026-05-31', ...fields.map((field) => may[field] ?? '')].join(','));
  });

  it('shows leads, trials and conversions as the API gives them', async () => {
    await page.goto(`${base}/#/leads?${RANGE}`);
    const api = await t.read(account.adminKey, `/reports/leads?date=${DATE}&interval=month`);
    const summary = await t.read(account.adminKey, `/reports/leads-summary?date=${DATE}&interval=month`);
    const february = api.result.find((row: { date: string }) => row.date === '2026-02-01');
    // Beta became a lead on February 1 and paid the same day.
    expect(february).toMatchObject({ leads: 1, leads_converted: 1 });
    await expect.poll(() => cell('leads', '2026-02-01', 'leads')).toBe('1');
    await expect
      .poll(() => cell('leads', '2026-02-01', 'lead_to_paid_rate'))
      .toBe(String(february.lead_to_paid_rate));
    // Alpha, Beta and Gamma became leads in the 365 days to June 30.
    expect(summary.summary.leads_365).toBe(3);
    await expect
      .poll(() => page.locator('.card[data-metric="leads-365"]').getAttribute('data-value'))
      .toBe('3');
    await page.locator('.chart canvas').first().waitFor();
    await shot('leads');
  });

  it('shows net cash, failed payments, refunds and failure rate as the API gives them', async () => {
    await page.goto(`${base}/#/cashflow?${RANGE}`);
    const api = await t.read(account.adminKey, `/reports/transactions?date=${DATE}&interval=month`);
    const june = api.result.find((row: { date: string }) => row.date === '2026-06-01');
    // Alpha pays 50 and Gamma 100 in June; Gamma gets 20 back.
    expect(june).toMatchObject({ payments: 15000, refund: 2000, net_amount: 13000 });
    await expect.poll(() => cell('net-cash', '2026-06-01', 'net_amount')).toBe('13000');
    const rates = await t.read(
      account.adminKey,
      `/reports/cashflow-failure-rate?date=${DATE}&interval=month`,
    );
    // Alpha's March card failed once, then paid: one failed invoice of the two charged.
    expect(rates.result.find((row: { date: string }) => row.date === '2026-03-01')).toMatchObject({
      attempted_invoices: 2,
      failed_invoices: 1,
    });
    await expect
      .poll(() => page.locator('[data-panel="outstanding"] .empty').textContent())
      .toBe('No invoice is past its due date.');
    await expect.poll(() => page.locator('.chart').count()).toBe(4);
    await page.locator('.chart canvas').first().waitFor();
    await shot('cashflow');
  });

  it('shows the figures by country on a world map and in a table, as the API gives them', async () => {
    // The world's geometry is a chunk of its own, which only the Countries page loads.
    const chunks: string[] = [];
    const listen = (request: { url(): string }) => {
      if (/\/assets\/world-map-[\w-]+\.js$/.test(request.url())) chunks.push(request.url());
    };
    page.on('request', listen);
    await page.goto(`${base}/#/dashboard?${RANGE}`);
    await page.locator('.chart canvas').first().waitFor();
    expect(chunks).toEqual([]);
    await page.goto(`${base}/#/countries?${RANGE}`);
    const api = await t.read(account.adminKey, `/reports/map?date=${DATE}&interval=month`);
    // On June 30 Alpha (US) pays 50 and Gamma (FR) 100; Beta (DE) has churned.
    expect(api.result.list.us.current_mrr).toBe(5000);
    expect(api.result.list.fr.current_mrr).toBe(10000);
    await expect.poll(() => cell('countries', 'United States', 'current_mrr')).toBe('5000');
    await expect
      .poll(() => cell('countries', 'France', 'mrr_percent'))
      .toBe(String(api.result.list.fr.mrr_percent));
    // Largest MRR first.
    await expect
      .poll(() =>
        page.locator('[data-panel="countries"] td[data-column="country"]').first().getAttribute('data-value'),
      )
      .toBe('fr');
    await page.locator('[data-panel="world-map"] .chart canvas').waitFor();
    expect(chunks).toHaveLength(1);
    page.off('request', listen);
    await shot('countries');

    await page.locator('select[name="map"]').selectOption('subscribers');
    await expect.poll(() => page.url()).toContain('map=subscribers');
    await page.locator('[data-panel="world-map"][data-coloured-by="subscribers"] .chart canvas').waitFor();
    expect(await page.locator('[data-panel="world-map"] .chart').getAttribute('data-series')).toBe(
      'Subscribers',
    );
    await expect
      .poll(() => cell('countries', 'France', 'subscribers'))
      .toBe(String(api.result.list.fr.subscribers));
    await shot('countries-subscribers');
  });

  it('says in words why a report could not be loaded: a refused filter, a server error, no network', async () => {
    const alert = page.locator('main [role="alert"]');
    const refused = async (path: string, what: string, query: string) => {
      await page.goto(`${base}/#${path}?${RANGE}&currency=xts`);
      const answer = await t.call(account.viewerKey, { method: 'GET', url: `${query}&baseCurrency=xts` });
      expect(answer.statusCode).toBe(400);
      await expect
        .poll(() => alert.textContent())
        .toBe(`The ${what} could not be loaded: ${answer.json().error}`);
      expect(await page.locator('main .status').count()).toBe(0);
      expect(await page.locator('main .chart').count()).toBe(0);
    };
    // A bookmarked URL with a currency that has no exchange rates.
    await refused('/dashboard', 'figures', `/reports/mrr?date=${DATE}&interval=month`);
    await shot('error-refused-dashboard');
    await refused('/movements', 'movements', `/reports/movement-table?date=${DATE}`);

    const failing = async (how: 'server' | 'network', expected: string) => {
      await page.route('**/reports/**', (route) =>
        how === 'server'
          ? route.fulfill({ status: 500, contentType: 'text/html', body: '<h1>Bad gateway</h1>' })
          : route.abort('internetdisconnected'),
      );
      try {
        for (const [path, what] of [
          ['/dashboard', 'figures'],
          ['/movements', 'movements'],
        ] as const) {
          await page.goto(`${base}/#${path}?${RANGE}`);
          await expect.poll(() => alert.textContent()).toBe(`The ${what} could not be loaded: ${expected}`);
          expect(await page.locator('main .status').count()).toBe(0);
        }
      } finally {
        await page.unrouteAll();
      }
    };
    await failing('server', 'The server failed to answer (HTTP 500). Try again in a moment.');
    await shot('error-server-movements');
    await failing('network', 'The server cannot be reached. Check your connection and try again.');
  });

  it("shows today's concentration of MRR as the API gives it, with no period to pick", async () => {
    await page.goto(`${base}/#/concentration`);
    const api = await t.read(account.adminKey, '/reports/customer-concentration');
    // Today Gamma pays 100 and Alpha 50: the largest customer brings two thirds.
    expect(api.result.list.map((item: { id: string }) => item.id)).toEqual(['gamma', 'alpha']);
    await expect
      .poll(() => cell('concentration', 'Largest customer', 'share_pct'))
      .toBe(String(api.result.concentration.top_1_pct));
    await expect.poll(() => cell('concentration-customers', 'gamma', 'mrr')).toBe('10000');
    expect(await page.locator('select[name="period"]').count()).toBe(0);
    await shot('concentration');
  });

  it('shows committed MRR and the churn scheduled after today as the API gives them', async () => {
    await page.goto(`${base}/#/scheduled`);
    const cmrr = await t.read(account.adminKey, '/reports/cmrr-summary');
    // Nothing is scheduled: committed MRR is today's, Alpha 50 and Gamma 100.
    expect(cmrr.summary.cmrr_current).toBe(15000);
    await expect.poll(() => cell('cmrr', 'Today', 'cmrr')).toBe('15000');
    await expect
      .poll(() => page.locator('[data-panel="scheduled-churn"] .empty').textContent())
      .toBe('No cancellation or downgrade is scheduled after today.');
    await shot('scheduled');
  });
});
