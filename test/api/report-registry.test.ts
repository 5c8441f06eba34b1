import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPORTS } from '../../src/api/reports/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { documentedRoutes } from '../helpers/openapi-routes.js';

describe('the report registry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  it('is the one way a report is served: every /reports route of the OpenAPI is an entry, once', async () => {
    const served = (await documentedRoutes(t.app))
      .filter((route) => route.path.startsWith('/reports/'))
      .map((route) => `${route.method} ${route.path}`)
      .sort();
    const registered = REPORTS.map((report) => `GET ${report.path}`).sort();
    expect(new Set(registered).size).toBe(registered.length);
    expect(served).toEqual(registered);
  });

  it('has every entry documented in docs/api.md', () => {
    const apiDoc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const undocumented = REPORTS.map((report) => report.path).filter(
      (path) => !new RegExp(`${path}(?![\\w-])`).test(apiDoc),
    );
    expect(undocumented).toEqual([]);
  });

  it("makes each table from its series' answer: a row per measure, a column per period", async () => {
    const account = await t.newAccount();
    await t.seed(account.adminKey, '/data/plans', [
      { id: 'basic', name: 'Basic', currency: 'usd', billing_freq: 'month', billing_freq_count: 1 },
    ]);
    await t.seed(account.adminKey, '/data/invoices', [
      {
        id: 'i1',
        customer_id: 'c1',
        date: '2026-10-01',
        currency: 'usd',
        lines: [{ plan_id: 'basic', amount: 5000, period_start: '2026-10-01', period_end: '2026-11-01' }],
        transactions: [
          { id: 't1', date: '2026-10-01T10:00:00Z', type: 'payment', result: 'successful', amount: 5000 },
        ],
      },
    ]);
    const range = 'date=20260901-20261122';
    const transactions = vi.spyOn(t.services.cashflow, 'transactions');
    const failedPayments = vi.spyOn(t.services.cashflow, 'failedPayments');
    for (const [index, series] of [
      'mrr',
      'mrr-growth',
      'transactions',
      'cashflow-failed-payments',
      'cashflow-refunds',
    ].entries()) {
      // The table first, then the series, or the other way round: whichever comes first makes
      // the series' answer, which the other is given.
      const tableFirst = index % 2 === 0;
      const tableUrl = `/reports/${series}-table?${range}`;
      const early = tableFirst ? await t.read(account.adminKey, tableUrl) : undefined;
      const { currency, result } = await t.read(account.adminKey, `/reports/${series}?${range}`);
      const table = early ?? (await t.read(account.adminKey, tableUrl));
      // The measures: every number (or null) of a period, the period's dates and the currency aside.
      const metrics = Object.keys(result[0]).filter(
        (field) =>
          field !== 'date' &&
          field !== 'end_date' &&
          (typeof result[0][field] === 'number' || result[0][field] === null),
      );
      expect(table).toEqual({
        currency,
        result: metrics.map((metric) => ({
          metric,
          ...Object.fromEntries(result.map((row: Record<string, unknown>) => [row.date, row[metric]])),
        })),
      });
    }
    // Asked by the table and by itself, computed once: the second call is cut short by the kept answer.
    for (const made of [transactions, failedPayments])
      expect(made.mock.settledResults.map((result) => result.type)).toEqual(['fulfilled', 'rejected']);
  });

  it('answers 401 without a key on every entry', async () => {
    for (const report of REPORTS) {
      const anonymous = await t.call(undefined, { method: 'GET', url: report.path });
      expect([report.path, anonymous.statusCode]).toEqual([report.path, 401]);
    }
  });
});
