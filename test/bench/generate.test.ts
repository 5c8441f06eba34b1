import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customersCsv, invoicesCsv, plansCsv } from '../../bench/csv.js';
import {
  generateAccount,
  generateCustomer,
  generatePlans,
  type GeneratorOptions,
} from '../../bench/generate.js';
import { createTestApp, TEST_NOW, type TestApp } from '../helpers/app.js';

const OPTIONS: GeneratorOptions = { customers: 120, seed: 1, today: TEST_NOW.slice(0, 10), historyYears: 3 };
const account = [...generateAccount(OPTIONS)];
const invoices = account.flatMap((records) => records.invoices);

describe('the benchmark generator', () => {
  it('makes the same customer from the same seed, whatever was generated before', () => {
    expect(generateCustomer(41, OPTIONS)).toEqual(account[41]);
    expect(generateCustomer(41, { ...OPTIONS, seed: 8 })).not.toEqual(account[41]);
  });

  it('makes every kind of record the benchmark is meant to exercise', () => {
    const lines = invoices.flatMap((invoice) => invoice.lines);
    const transactions = invoices.flatMap((invoice) => invoice.transactions);
    const subscriptions = account.flatMap((records) => records.subscriptions);
    expect(account.some((records) => records.invoices.length === 0 && !records.customer.trial_started)).toBe(
      true,
    );
    expect(account.some((records) => records.customer.trial_started && records.invoices.length === 0)).toBe(
      true,
    );
    expect(new Set(lines.map((line) => line.plan_id?.split('-').at(-2)))).toEqual(
      new Set(['month', 'quarter', 'year', undefined]),
    );
    expect(lines.some((line) => line.prorated && line.amount < 0)).toBe(true);
    expect(lines.some((line) => line.discount > 0)).toBe(true);
    expect(lines.some((line) => line.tax > 0)).toBe(true);
    expect(transactions.some((t) => t.type === 'payment' && t.result === 'failed')).toBe(true);
    expect(transactions.some((t) => t.type === 'refund')).toBe(true);
    expect(subscriptions.some((s) => s.cancel_at !== undefined && s.cancel_at > OPTIONS.today)).toBe(true);
    expect(new Set(account.map((records) => records.customer.currency)).size).toBeGreaterThan(3);
  });
});

describe('generated bodies through the public API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  const post = (key: string, url: string, payload: unknown) => t.seed(key, url, payload);
  const postCsv = async (key: string, url: string, text: string) => {
    const response = await t.call(key, {
      method: 'POST',
      url,
      payload: text,
      headers: { 'content-type': 'text/csv' },
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response;
  };
  const refused = (body: string) =>
    (JSON.parse(body) as { result: { import_status: string }[] }).result.filter(
      (item) => item.import_status !== 'inserted',
    );
  const storedInvoices = async (key: string) =>
    ((await t.read(key, '/data/invoices?limit=10000')).result.list as { data_source: unknown }[]).map(
      ({ data_source: _source, ...invoice }) => invoice,
    );

  it('stores every item as JSON and as CSV alike, and the reports see revenue', async () => {
    const viaJson = await t.newAccount('json');
    expect(refused((await post(viaJson.adminKey, '/data/plans', generatePlans())).body)).toEqual([]);
    await post(
      viaJson.adminKey,
      '/data/customers',
      account.map((records) => records.customer),
    );
    expect(refused((await post(viaJson.adminKey, '/data/invoices', invoices)).body)).toEqual([]);
    const subscriptions = account.flatMap((records) => records.subscriptions);
    expect(refused((await post(viaJson.adminKey, '/data/subscriptions', subscriptions)).body)).toEqual([]);

    const viaCsv = await t.newAccount('csv');
    expect(refused((await postCsv(viaCsv.adminKey, '/data/plans', plansCsv(generatePlans()))).body)).toEqual(
      [],
    );
    await postCsv(
      viaCsv.adminKey,
      '/data/customers',
      customersCsv(account.map((records) => records.customer)),
    );
    expect(refused((await postCsv(viaCsv.adminKey, '/data/invoices', invoicesCsv(invoices))).body)).toEqual(
      [],
    );

    const stored = await storedInvoices(viaJson.adminKey);
    expect(stored).toHaveLength(invoices.length);
    expect(await storedInvoices(viaCsv.adminKey)).toEqual(stored);
    const summary = await t.read(viaJson.adminKey, '/reports/summary');
    expect(summary.summary.mrr_current).toBeGreaterThan(0);
  });
});
