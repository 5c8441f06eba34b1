import type { StoreKind } from '../src/store/db.js';
import { ApiClient } from './api-client.js';
import { shapedAccount } from './other-shape.js';
import { startServer } from './server.js';
import { createBenchStore } from './stores.js';

export interface FirstReport {
  customers: number;
  invoices: number;
  ingestSeconds: number;
  /** From the last write's answer to the first report's answer. */
  firstReportMs: number;
  /** The slowest `/health` answer while the import and the first report ran. */
  slowestHealthMs: number;
}

const BODY = 2_000;

/** Calls `/health` every 100 ms until stopped; resolves to the slowest answer's time. */
function watchHealth(url: string): { stop: () => Promise<number> } {
  let running = true;
  let slowest = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${url}/health`).then((response) => response.text());
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return slowest;
    },
  };
}

/**
 * Imports an account of the other shape (bench/other-shape.ts) into a fresh store through the
 * public API, on tables nobody analyzed, and times the first report after it: the figure that
 * grows with the square of the account when a statement's plan degrades.
 */
export async function measureFirstReport(
  kind: StoreKind,
  adminUrl: string,
  customers: number,
  today: string,
): Promise<FirstReport> {
  const store = await createBenchStore(kind, adminUrl);
  try {
    const server = await startServer({ env: store.env });
    try {
      if (server.adminKey === null) throw new Error('the first start printed no admin key');
      const api = new ApiClient(server.url, server.adminKey);
      const health = watchHealth(server.url);
      const source = JSON.parse(await api.post('/data/data-sources', { name: 'Billing', type: 'api' })) as {
        id: string;
      };
      const account = shapedAccount(customers, source.id, today);
      const started = performance.now();
      await api.write('/data/plans', account.plans);
      for (let at = 0; at < account.customers.length; at += BODY)
        await api.write('/data/customers', account.customers.slice(at, at + BODY));
      for (let at = 0; at < account.invoices.length; at += BODY)
        await api.write('/data/invoices', account.invoices.slice(at, at + BODY));
      const written = performance.now();
      await api.read('/reports/summary');
      const firstReportMs = performance.now() - written;
      return {
        customers,
        invoices: account.invoices.length,
        ingestSeconds: (written - started) / 1000,
        firstReportMs,
        slowestHealthMs: await health.stop(),
      };
    } finally {
      await server.stop();
    }
  } finally {
    await store.drop();
  }
}
