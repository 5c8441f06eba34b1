import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FreshnessApi,
  freshInvoice,
  measureFreshness,
  untilMrr,
  WRITE_MRR,
} from '../../bench/freshness.js';
import { generatePlans } from '../../bench/generate.js';
import { DATA_AGE_HEADER } from '../../src/api/read-freshness-header.js';
import { createTestApp, TEST_NOW, type TestApp } from '../helpers/app.js';

/** A server whose summary answers these MRRs in turn (the last one from then on), aged or not. */
function summaries(answers: readonly { mrr: number; age?: number }[]): FreshnessApi & { calls: number } {
  const api = {
    calls: 0,
    answer: (path: string) => {
      if (path !== '/reports/summary') throw new Error(`unexpected GET ${path}`);
      const { mrr, age } = answers[Math.min(api.calls, answers.length - 1)]!;
      api.calls += 1;
      const headers = new Headers(age === undefined ? {} : { [DATA_AGE_HEADER]: String(age) });
      return Promise.resolve({ text: JSON.stringify({ summary: { mrr_current: mrr } }), headers });
    },
    write: () => Promise.reject(new Error('unexpected write')),
  };
  return api;
}

describe('the freshness phase', () => {
  it('calls the summary until it shows the expected MRR, noting answers from the previous snapshot', async () => {
    const api = summaries([{ mrr: 100, age: 3 }, { mrr: 100 }, { mrr: 100 + WRITE_MRR }]);
    const fresh = await untilMrr(api, 100 + WRITE_MRR);
    expect(fresh).toMatchObject({ reads: 3, aged: true });
    expect(api.calls).toBe(3);
  });

  it('fails when the summary does not show the write in time', async () => {
    const api = summaries([{ mrr: 100, age: 1 }]);
    await expect(untilMrr(api, 100 + WRITE_MRR, 0)).rejects.toThrow(
      `/reports/summary showed MRR 100, not ${100 + WRITE_MRR}, 0 ms after the write`,
    );
  });

  it('fails before any write when the server offers no report to read during the stream', async () => {
    const api = summaries([{ mrr: 100 }]);
    const server = { rss: () => 0, settle: () => Promise.resolve() };
    await expect(
      measureFreshness(
        api,
        { writes: 1, seconds: 1, clients: 1 },
        '2026-11-23',
        [{ path: '/reports/summary', query: '' }],
        server,
      ),
    ).rejects.toThrow('the server offers no /reports/mrr to read during the write stream');
    expect(api.calls).toBe(0);
  });
});

describe('a freshness write through the public API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  it("adds exactly its amount to today's MRR", async () => {
    const account = await t.newAccount('fresh');
    await t.seed(account.adminKey, '/data/plans', generatePlans());
    await t.seed(account.adminKey, '/data/customers', [
      { id: 'cus_fresh_1', name: 'Fresh 1', country: 'US', currency: 'usd' },
    ]);
    const before = (await t.read(account.adminKey, '/reports/summary')).summary.mrr_current as number;
    await t.seed(account.adminKey, '/data/invoices', [freshInvoice('cus_fresh_1', TEST_NOW.slice(0, 10))]);
    const after = (await t.read(account.adminKey, '/reports/summary')).summary.mrr_current as number;
    expect(before).toBe(0);
    expect(after).toBe(WRITE_MRR);
  });
});
