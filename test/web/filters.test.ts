import { readFileSync } from 'node:fs';
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
import { churnShown, seedWebFixture } from '../helpers/web-fixture.js';
import { setUpOwner } from '../helpers/web-session.js';

const RANGE = 'period=custom&from=2026-01-01&to=2026-06-30&interval=month';
const DATE = '20260101-20260630';
const METRICS = ['mrr', 'arr', 'subscribers', 'arpa', 'churn-rate'] as const;

/**
 * Besides the web fixture (Alpha US, Beta DE, Gamma FR, monthly USD, all in the API source):
 * Delta, in the United Kingdom, pays 1,200 EUR a year from March through a second data source,
 * Ledger, on an annual plan in the plan group "Annual plans", and is in the SaaS industry;
 * Alpha is retail. The segment "Europe" is the named region.
 */
async function seedFilters(t: TestApp, account: TestAccount) {
  const post = (url: string, payload: unknown) => t.seed(account.adminKey, url, payload);
  const ledger = (await post('/data/data-sources', { name: 'Ledger', type: 'api' })).json<{ id: string }>()
    .id;
  await post('/data/plans', [
    { id: 'annual', name: 'Annual', billing_freq: 'year', currency: 'eur', data_source: ledger },
  ]);
  await post('/data/customers', [
    {
      id: 'delta',
      name: 'Delta',
      country: 'GB',
      currency: 'eur',
      created_date: '2026-03-01',
      custom_variables: { industry: 'saas' },
      data_source: ledger,
    },
  ]);
  await post('/data/customers', [{ id: 'alpha', name: 'Alpha', custom_variables: { industry: 'retail' } }]);
  await post('/data/invoices', [
    {
      id: 'delta-1',
      customer_id: 'delta',
      currency: 'eur',
      date: '2026-03-01',
      data_source: ledger,
      lines: [{ plan_id: 'annual', amount: 120000, period_start: '2026-03-01', period_end: '2027-03-01' }],
      transactions: [
        {
          id: 'delta-1-paid',
          date: '2026-03-01T10:00:00Z',
          type: 'payment',
          result: 'successful',
          amount: 120000,
        },
      ],
    },
  ]);
  const group = (
    await post('/data/plan-groups', { name: 'Annual plans', plans: [{ id: 'annual', data_source: ledger }] })
  ).json<{ id: string }>().id;
  const segment = (await post('/data/segments', { name: 'Europe', filters: { region: 'europe' } })).json<{
    id: string;
  }>().id;
  return { ledger, group, segment };
}

describe.runIf(browserAvailable()).each(STORE_KINDS)('report filters in chromium on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  let ids: Awaited<ReturnType<typeof seedFilters>>;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const shot = (name: string) => screenshots(page, `${kind}-${name}`);

  /** What the API answers for the dashboard's reports of this query. */
  async function apiFigures(query: string): Promise<Record<string, number | null>> {
    const mrr = await t.read(account.adminKey, `/reports/mrr?date=${DATE}&interval=month${query}`);
    const retention = await t.read(
      account.adminKey,
      `/reports/retention?date=${DATE}&interval=month${query}`,
    );
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

  async function shownFigures(on: Page = page): Promise<Record<string, number | null>> {
    const figures: Record<string, number | null> = {};
    for (const metric of METRICS) {
      const value = await on.locator(`.card[data-metric="${metric}"]`).getAttribute('data-value');
      figures[metric] = value === '' || value === null ? null : Number(value);
    }
    return figures;
  }

  /** Sets a filter through the bar: the URL holds it and the cards equal the API's for it. */
  async function expectFiltered(url: RegExp, query: string, mrr: number) {
    await expect.poll(() => page.url()).toMatch(url);
    const expected = await apiFigures(query);
    expect(expected.mrr).toBe(mrr);
    await expect.poll(() => shownFigures()).toEqual(expected);
  }

  beforeAll(async () => {
    ensureWebBuilt();
    t = await createTestApp(kind);
    account = await t.newAccount('Filters account');
    await seedWebFixture(t, account);
    ids = await seedFilters(t, account);
    const owner = await setUpOwner(t, account.id);
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchBrowser();
    context = await signedInContext(browser, base, owner);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('changes each filter: the URL and the figures follow, equal to the API for the same query', async () => {
    await page.goto(`${base}/#/dashboard?${RANGE}`);
    const all = await apiFigures('');
    await expect.poll(() => shownFigures()).toEqual(all);
    // At the end of June: Alpha 50 USD, Gamma 100 USD and Delta's 100 EUR a month, converted.
    expect(all.subscribers).toBe(3);
    const clear = () => page.getByRole('button', { name: 'Clear filters' }).click();

    await page.locator('input[name="region"]').fill('eu');
    await page.locator('input[name="region"]').press('Enter');
    // Gamma (France); Delta is in the United Kingdom, Beta churned in May.
    await expectFiltered(/region=eu/, '&region=eu', 10000);
    await shot('filters-dashboard');

    await page.locator('select[name="segment"]').selectOption(ids.segment);
    await expectFiltered(new RegExp(`segment=${ids.segment}`), `&region=eu&segment=${ids.segment}`, 10000);
    await clear();
    await expect.poll(() => page.url()).not.toMatch(/region=|segment=/);
    await expect.poll(() => shownFigures()).toEqual(all);

    const delta = await apiFigures(`&data_source=${ids.ledger}`);
    expect(delta.subscribers).toBe(1);
    for (const [name, value, query] of [
      ['plan', ids.group, `&plan=${ids.group}`],
      ['billing_freq', 'year', '&billing_freq=year'],
      ['customer_currency', 'eur', '&currency=eur'],
      ['data_source', ids.ledger, `&data_source=${ids.ledger}`],
    ] as const) {
      await page.locator(`select[name="${name}"]`).selectOption(value);
      await expectFiltered(new RegExp(`${name}=${value}`), query, delta.mrr!);
      await clear();
      await expect.poll(() => shownFigures()).toEqual(all);
    }

    await page.getByLabel('Custom variable').fill('industry');
    // The values offered arrive first: they must not change the value field's name.
    await page.locator('#custom-values option[value="saas"]').waitFor({ state: 'attached' });
    await page.getByLabel('Value', { exact: true }).fill('saas');
    await page.getByRole('button', { name: 'Add' }).click();
    await expectFiltered(/custom_industry=saas/, '&custom_industry=saas', delta.mrr!);
    await page.locator('[data-filter="custom_industry"]').waitFor();
    // Eight filters, each a page change and two reads: longer than one step on a busy machine.
  }, 90_000);

  it('reproduces the view from a bookmarked URL, on the dashboard and the other report pages', async () => {
    const query = `${RANGE}&region=europe&billing_freq=month&custom_industry=retail`;
    const bookmarked = await context.newPage();
    try {
      await bookmarked.goto(`${base}/#/dashboard?${query}`);
      const expected = await apiFigures('&region=europe&billing_freq=month&custom_industry=retail');
      // Alpha is retail but in the United States: nobody.
      expect(expected.mrr).toBe(0);
      await expect.poll(() => shownFigures(bookmarked)).toEqual(expected);
      expect(await bookmarked.locator('input[name="region"]').inputValue()).toBe('europe');
      expect(await bookmarked.locator('select[name="billing_freq"]').inputValue()).toBe('month');
      await bookmarked.locator('[data-filter="custom_industry"]').waitFor();

      // The same filters go to every report page's requests.
      await bookmarked.goto(`${base}/#/retention?${RANGE}&region=eu`);
      const retention = await t.read(
        account.adminKey,
        `/reports/retention?date=${DATE}&interval=month&region=eu`,
      );
      const may = retention.result.find((row: { date: string }) => row.date === '2026-05-31');
      // In the EU, Beta (DE) churns in May and Gamma (FR) starts: nothing of April's EU MRR is kept.
      expect(may.grr).toBe(0);
      await expect
        .poll(() =>
          bookmarked
            .locator('[data-panel="retention"] tr', { hasText: '2026-05-31' })
            .locator('td[data-column="grr"]')
            .getAttribute('data-value'),
        )
        .toBe('0');

      await bookmarked.goto(`${base}/#/movements?${RANGE}&customer_currency=eur`);
      const movements = await t.read(
        account.adminKey,
        `/reports/movement-table?date=${DATE}&currency=eur&limit=51`,
      );
      expect(movements.result.list.map((item: { customer_id: string }) => item.customer_id)).toEqual([
        'delta',
      ]);
      await expect.poll(() => bookmarked.locator('main tbody tr').allTextContents()).toHaveLength(1);
      await expect.poll(() => bookmarked.locator('main tbody tr').textContent()).toContain('Delta');

      await bookmarked.goto(`${base}/#/customers?status=all&region=eu`);
      const customers = await t.read(account.adminKey, '/customers?status=all&region=eu&limit=51');
      // Beta (Germany) and Gamma (France), largest MRR first.
      const eu = customers.result.list.map((item: { id: string }) => item.id);
      expect(eu).toEqual(['gamma', 'beta']);
      await expect
        .poll(() =>
          bookmarked
            .locator('tr[data-customer]')
            .evaluateAll((rows) => rows.map((row) => row.dataset.customer)),
        )
        .toEqual(eu);

      await bookmarked.goto(`${base}/#/concentration?data_source=${ids.ledger}`);
      await expect
        .poll(() =>
          bookmarked.locator('[data-panel="concentration-customers"] td[data-column="id"]').allTextContents(),
        )
        .toEqual(['delta']);
    } finally {
      await bookmarked.close();
    }
  });

  it('compares the dashboard with the previous period: a second, dashed series and the cards against it', async () => {
    await page.goto(`${base}/#/dashboard?period=custom&from=2026-04-01&to=2026-06-30&interval=month`);
    await page.locator('.chart canvas').waitFor();
    expect(await page.locator('.chart').getAttribute('data-series')).not.toContain('Previous period');
    await page.getByLabel('Compare with the previous period').check();
    await expect.poll(() => page.url()).toContain('compare=previous');
    await expect
      .poll(() => page.locator('.chart').getAttribute('data-series'))
      .toContain('MRR|Previous period');
    // 91 days: the 91 days before are 2025-12-31 to 2026-03-31.
    const now = await t.read(account.adminKey, '/reports/mrr?date=20260401-20260630&interval=month');
    const before = await t.read(account.adminKey, '/reports/mrr?date=20251231-20260331&interval=month');
    const compare = await t.read(
      account.adminKey,
      '/reports/mrr?date=20260401-20260630&interval=month&compare=last-period',
    );
    // The range the page asks for is the API's own comparison range.
    expect(compare.compare).toEqual(before.result);
    const totals = before.result.map((row: { total_mrr: number }) => row.total_mrr);
    await expect
      .poll(async () => JSON.parse((await page.locator('[data-panel="mrr"]').getAttribute('data-previous'))!))
      .toEqual(totals);
    const last = now.result.at(-1).total_mrr as number;
    const first = before.result.at(-1).total_mrr as number;
    const change = ((last - first) / Math.abs(first)) * 100;
    const text = `${change > 0 ? '+' : change < 0 ? '−' : '±'}${Math.abs(change).toFixed(1)}% vs previous period`;
    await expect.poll(() => page.locator('.card[data-metric="mrr"] .card-change').textContent()).toBe(text);
    await shot('dashboard-compare');
    // The CSV puts each period beside the previous range's, matched from the end, as the cards are.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-panel="mrr"] button', { hasText: 'Download CSV' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]!.endsWith(',previous_date,previous_total_mrr')).toBe(true);
    expect(csv.at(-1)!.endsWith(`,${before.result.at(-1).date},${first}`)).toBe(true);

    await page.getByLabel('Compare with the previous period').uncheck();
    await expect.poll(() => page.url()).not.toContain('compare=');
    await expect
      .poll(() => page.locator('.chart').getAttribute('data-series'))
      .not.toContain('Previous period');
  });
});
