import { runCli } from '../src/cli/run-cli.js';
import type { StoreKind } from '../src/store/db.js';
import { ApiClient } from './api-client.js';
import { type ShapedAccount, shapedAccount } from './other-shape.js';
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
  /** The slowest answer, meanwhile, to a report of another account whose snapshot was warm. */
  slowestWarmReportMs: number;
}

const BODY = 2_000;

/**
 * From the first write to the first report's answer: the import and the whole of the derivation,
 * which runs in the background during the import and is only partly left for the first report.
 */
export const importToReportMs = (figures: FirstReport) =>
  figures.ingestSeconds * 1000 + figures.firstReportMs;

/** Calls `path` every 100 ms until stopped; resolves to the slowest answer's time. */
function watch(url: string, headers: Record<string, string> = {}): { stop: () => Promise<number> } {
  let running = true;
  let slowest = 0;
  let failure: Error | undefined;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(url, { headers });
      await response.text();
      if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })().catch((error: unknown) => {
    failure = error instanceof Error ? error : new Error(String(error));
  });
  return {
    /** May be called again; fails when a call failed. */
    stop: async () => {
      running = false;
      await loop;
      if (failure !== undefined) throw failure;
      return slowest;
    },
  };
}

/** A second account on the stopped server's store, with its admin key, made by the CLI. */
async function secondAccount(env: NodeJS.ProcessEnv): Promise<string> {
  const out: string[] = [];
  const code = await runCli(['account', 'create', '--name', 'Bystander'], {
    out: (line) => out.push(line),
    err: (line) => out.push(line),
    env,
  });
  const key = /(mrr_\S+)/.exec(out.join('\n'))?.[1];
  if (code !== 0 || !key) throw new Error(`account create failed: ${out.join('\n')}`);
  return key;
}

/**
 * Imports an account of the other shape (bench/other-shape.ts) into a fresh store through the
 * public API, on tables nobody analyzed, and times the first report after it and the whole from
 * the first write to that report: the figure that grows with the square of the account when a
 * statement's plan degrades. Meanwhile `/health` and a report of a small second account, warm
 * before the import began, are called every 100 ms: how long the work kept other requests
 * waiting.
 */
export async function measureFirstReport(
  kind: StoreKind,
  adminUrl: string,
  customers: number,
  today: string,
): Promise<FirstReport> {
  const store = await createBenchStore(kind, adminUrl);
  try {
    const creator = await startServer({ env: store.env });
    await creator.stop();
    if (creator.adminKey === null) throw new Error('the first start printed no admin key');
    const bystanderKey = await secondAccount(store.env);
    const server = await startServer({ env: store.env });
    try {
      const api = new ApiClient(server.url, creator.adminKey);
      const bystander = new ApiClient(server.url, bystanderKey);
      const small = shapedAccount(50, (await dataSource(bystander)).id, today);
      await writeAccount(bystander, small);
      await bystander.read('/reports/summary');
      const health = watch(`${server.url}/health`);
      const warm = watch(`${server.url}/reports/summary`, bystander.headers);
      try {
        const account = shapedAccount(customers, (await dataSource(api)).id, today);
        const started = performance.now();
        await writeAccount(api, account);
        const written = performance.now();
        await api.read('/reports/summary');
        const firstReportMs = performance.now() - written;
        return {
          customers,
          invoices: account.invoices.length,
          ingestSeconds: (written - started) / 1000,
          firstReportMs,
          slowestHealthMs: await health.stop(),
          slowestWarmReportMs: await warm.stop(),
        };
      } finally {
        // An import that failed says why, not that a watcher's server went away.
        await Promise.allSettled([health.stop(), warm.stop()]);
      }
    } finally {
      await server.stop();
    }
  } finally {
    await store.drop();
  }
}

async function dataSource(api: ApiClient): Promise<{ id: string }> {
  return JSON.parse(await api.post('/data/data-sources', { name: 'Billing', type: 'api' })) as { id: string };
}

async function writeAccount(api: ApiClient, account: ShapedAccount): Promise<void> {
  await api.write('/data/plans', account.plans);
  for (const [path, items] of [
    ['/data/customers', account.customers],
    ['/data/invoices', account.invoices],
  ] as const) {
    for (let at = 0; at < items.length; at += BODY) await api.write(path, items.slice(at, at + BODY));
  }
}
