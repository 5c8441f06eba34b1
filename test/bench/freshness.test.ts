import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EVERY_REPORT_ROUNDS,
  everyReportFresh,
  type FreshnessApi,
  freshInvoice,
  measureFreshness,
  untilMrr,
  WRITE_MRR,
} from '../../bench/freshness.js';
import { generatePlans } from '../../bench/generate.js';
import { DATA_AGE_HEADER } from '../../src/api/read-freshness-header.js';
import { createTestApp, TEST_NOW, type TestApp } from '../helpers/app.js';

/**
 * A server whose every report answers these summary MRRs in turn (the last one from then on),
 * aged or not, and whose writes answer as `write` says.
 */
function summaries(
  answers: readonly { mrr: number; age?: number }[],
  write: (path: string) => Promise<void> = (path) => Promise.reject(new Error(`unexpected POST ${path}`)),
): FreshnessApi & { calls: number; writes: string[] } {
  const api = {
    calls: 0,
    writes: [] as string[],
    answer: () => {
      const { mrr, age } = answers[Math.min(api.calls, answers.length - 1)]!;
      api.calls += 1;
      const headers = new Headers(age === undefined ? {} : { [DATA_AGE_HEADER]: String(age) });
      const text = JSON.stringify({ summary: { mrr_current: mrr } });
      // On a timer, as a real answer comes: readers answered in microtasks would starve the writer.
      return new Promise<{ text: string; headers: Headers }>((resolve) =>
        setTimeout(() => resolve({ text, headers }), 1),
      );
    },
    write: (path: string) => {
      api.writes.push(path);
      return write(path);
    },
  };
  return api;
}

const REPORTS = [
  { path: '/reports/mrr', query: 'interval=month' },
  { path: '/reports/summary', query: '' },
];
const SERVER = { rss: () => 0, settle: () => Promise.resolve() };

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

  it('calls every report after a write until each answers without the age header', async () => {
    const asked: string[] = [];
    // /reports/mrr answers from the previous snapshot twice, the summary is fresh at once.
    let agedLeft = 2;
    const api: FreshnessApi = {
      write: () => Promise.resolve(),
      answer: (url: string) => {
        asked.push(url);
        const aged = url.startsWith('/reports/mrr') && agedLeft-- > 0;
        const headers = new Headers(aged ? { [DATA_AGE_HEADER]: '0.5' } : {});
        return new Promise((resolve) => setTimeout(() => resolve({ text: '{}', headers }), 1));
      },
    };
    const figures = await everyReportFresh(api, 'cus_fresh_1', '2026-11-23', REPORTS);
    expect(figures.slowest.path).toBe('/reports/mrr');
    expect(asked.filter((url) => url.startsWith('/reports/mrr'))).toHaveLength(3);
    expect(asked.filter((url) => url.startsWith('/reports/summary'))).toHaveLength(1);
  });

  it('fails before any write when the server offers no report to read during the stream', async () => {
    const api = summaries([{ mrr: 100 }]);
    await expect(
      measureFreshness(api, { writes: 1, seconds: 1, clients: 1 }, '2026-11-23', REPORTS.slice(1), SERVER),
    ).rejects.toThrow('the server offers no /reports/mrr to read during the write stream');
    expect(api.calls).toBe(0);
    expect(api.writes).toEqual([]);
  });

  it('fails when a write of the stream fails, once the readers have stopped', async () => {
    let invoices = 0;
    // The first invoices are those before every report is read; the stream's are refused.
    const api = summaries([{ mrr: 100 }], (path) =>
      path === '/data/invoices' && ++invoices > EVERY_REPORT_ROUNDS
        ? Promise.reject(new Error('POST /data/invoices: 503'))
        : Promise.resolve(),
    );
    // No single writes, and 0.04 s of the stream: two invoices, both refused.
    await expect(
      measureFreshness(api, { writes: 0, seconds: 0.04, clients: 2 }, '2026-11-23', REPORTS, SERVER),
    ).rejects.toThrow('POST /data/invoices: 503');
    const invoiceWrites = Array.from({ length: EVERY_REPORT_ROUNDS + 2 }, () => '/data/invoices');
    expect(api.writes).toEqual(['/data/customers', ...invoiceWrites]);
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
