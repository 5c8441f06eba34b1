import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, ensureWebBuilt, launchBrowser } from '../test/helpers/browser.js';
import { ApiClient } from './api-client.js';
import { ingest } from './ingest.js';
import { log } from './log.js';
import { startServer } from './server.js';
import { createBenchStore } from './stores.js';

const USAGE = `npm run bench:web -- [options]

Loads a generated account into a server on the embedded store (PGlite), signs its owner in in
chromium and measures, cold (the first load after the server started, in a new browser
profile) and warm (again, assets cached and the server's snapshot built), the time from
navigation to the dashboard's summary cards and MRR chart drawn, and to the customers table.

  --customers N   customers (default 100000)
  --seed N        generator seed (default 1)
  --runs N        warm loads of each page, the median is reported (default 5)
  --data-dir DIR  keep the loaded store there and reuse it on the next run (default: a
                  temporary folder, deleted at the end)
  --out DIR       where the results page goes (default bench/results)
`;

const { values } = parseArgs({
  options: {
    customers: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '1' },
    runs: { type: 'string', default: '5' },
    'data-dir': { type: 'string' },
    out: { type: 'string', default: 'bench/results' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const customers = Number(values.customers);
const runs = Number(values.runs);
const today = new Date().toISOString().slice(0, 10);
const generator = { customers, seed: Number(values.seed), today, historyYears: 6 };
const OWNER = { email: 'bench@example.com', name: 'Bench', password: 'bench password 1' };

/** What a page must show before it counts as drawn: an element for each selector. */
const PAGES = {
  dashboard: { hash: '#/dashboard', shows: ['.cards .card', '.chart[data-series] canvas'] },
  customers: { hash: '#/customers', shows: ['main table tbody tr'] },
} as const;
type PageName = keyof typeof PAGES;

interface Request {
  path: string;
  startMs: number;
  endMs: number;
}

interface Paint {
  /** From navigation start to the frame in which the page showed what it must. */
  drawnMs: number;
  /** What the page said instead of drawing, if it failed. */
  failed?: string | undefined;
  /** The app's own requests, as the browser's resource timing saw them. */
  requests: Request[];
}

/** Navigates a new page of `browser`'s context to `name` and times it in the page's own clock. */
async function paint(page: Page, url: string, name: PageName): Promise<Paint> {
  await page.goto(`${url}/${PAGES[name].hash}`, { waitUntil: 'commit' });
  // Tested in the page on every frame; the page's CSP allows no code given as a string.
  const drawn = await page.waitForFunction(
    (selectors) => {
      type Element = { textContent: string | null };
      const { document } = globalThis as unknown as {
        document: { querySelector(s: string): Element | null };
      };
      // A page that says it failed is done too, with nothing drawn.
      const failed = document.querySelector('main [role="alert"]');
      if (failed) return { ms: performance.now(), failed: failed.textContent ?? '' };
      return (
        selectors.every((selector) => document.querySelector(selector) !== null) && { ms: performance.now() }
      );
    },
    PAGES[name].shows,
    { polling: 'raf', timeout: 600_000 },
  );
  const { ms: drawnMs, failed } = (await drawn.jsonValue()) as { ms: number; failed?: string };
  const requests = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => {
      const timing = entry as unknown as { name: string; startTime: number; responseEnd: number };
      return { path: new URL(timing.name).pathname, startMs: timing.startTime, endMs: timing.responseEnd };
    }),
  );
  return { drawnMs, failed, requests };
}

/** Signs the account's first owner in through the setup link; returns the session cookie's value. */
async function setUpOwner(url: string, token: string): Promise<string> {
  const setup = await fetch(`${url}/web/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, ...OWNER }),
  });
  const cookie = /mrrlytics_session=([\w-]+)/.exec(setup.headers.get('set-cookie') ?? '')?.[1];
  if (!setup.ok || !cookie) throw new Error(`setup failed: ${setup.status} ${await setup.text()}`);
  return cookie;
}

/**
 * Loads the account into a new store (a store already loaded, left without an owner by an
 * interrupted run, is kept), derives its metrics once, and gives its owner a session.
 */
async function prepare(dataDir: string): Promise<string> {
  const server = await startServer({ env: { DATA_DIR: dataDir } });
  try {
    if (server.adminKey !== null) {
      log(`server ${server.pid}: loading ${customers} customers`);
      const loaded = await ingest(new ApiClient(server.url, server.adminKey), generator, {
        batch: 5000,
        concurrency: 4,
        onProgress: (done) => log(`${done} customers stored`),
      });
      log(`${loaded.counts.invoices} invoices in ${loaded.seconds.toFixed(1)} s`);
    }
    if (server.setupToken === null) throw new Error(`${dataDir} has an owner, but no session file beside it`);
    const session = await setUpOwner(server.url, server.setupToken);
    // A server restarted in service finds its metrics derived: so does the cold load here. The
    // first report derives them, past the request deadline (503) at this size: ask until done.
    const started = performance.now();
    for (;;) {
      const response = await fetch(`${server.url}/reports/summary`, {
        headers: { cookie: `mrrlytics_session=${session}` },
      });
      await response.text();
      if (response.ok) break;
      if (response.status !== 503) throw new Error(`GET /reports/summary: ${response.status}`);
    }
    log(`metrics derived in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return session;
  } finally {
    await server.stop();
  }
}

/** One page cold after a server start, then `runs` times warm; the server stops after. */
async function measure(browser: Browser, dataDir: string, session: string, name: PageName) {
  const server = await startServer({ env: { DATA_DIR: dataDir } });
  const context = await browser.newContext({ viewport: DESKTOP });
  try {
    await context.addCookies([{ name: 'mrrlytics_session', value: session, url: server.url }]);
    const open = async () => {
      const page = await context.newPage();
      try {
        return await paint(page, server.url, name);
      } finally {
        await page.close();
      }
    };
    const cold = await open();
    log(`${name}: cold ${shown(cold)} ms`);
    const warm: Paint[] = [];
    for (let run = 0; run < runs; run++) warm.push(await open());
    log(`${name}: warm ${warm.map(shown).join(', ')} ms`);
    return { cold, warm };
  } finally {
    await context.close();
    await server.stop();
  }
}

/** A load's time, or that it failed and what it said. */
const shown = (load: Paint) =>
  load.failed === undefined
    ? load.drawnMs.toFixed(0)
    : `failed after ${load.drawnMs.toFixed(0)}: ${load.failed}`;

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};

/** The requests of one load, slowest first, as Markdown rows: what the time went to. */
function waterfall(paint: Paint): string[] {
  return paint.requests
    .filter((request) => request.endMs <= paint.drawnMs + 1)
    .sort((a, b) => b.endMs - b.startMs - (a.endMs - a.startMs))
    .map(
      (request) =>
        `| \`${request.path.replace(/-[\w-]{8}\.(js|css)$/, '-*.$1')}\` | ${request.startMs.toFixed(0)} | ` +
        `${(request.endMs - request.startMs).toFixed(0)} | ${request.endMs.toFixed(0)} |`,
    );
}

async function main(): Promise<void> {
  ensureWebBuilt();
  const keep = values['data-dir'];
  const store = keep ? undefined : await createBenchStore('pglite', '');
  const dataDir = keep ?? store!.env.DATA_DIR!;
  const sessionFile = `${dataDir}.session`;
  const loadAtStart = os.loadavg();
  try {
    if (!existsSync(sessionFile)) writeFileSync(sessionFile, await prepare(dataDir));
    const session = readFileSync(sessionFile, 'utf8');
    const browser = await launchBrowser();
    const results: Record<PageName, Awaited<ReturnType<typeof measure>>> = {
      dashboard: await measure(browser, dataDir, session, 'dashboard'),
      customers: await measure(browser, dataDir, session, 'customers'),
    };
    await browser.close();
    const lines = [
      `# First meaningful paint, ${customers.toLocaleString('en-US')} customers`,
      '',
      `${new Date().toISOString()}; \`npm run bench:web -- ${process.argv.slice(2).join(' ')}\`; ` +
        `${os.cpus().length} cores, load average ${loadAtStart[0]!.toFixed(1)} at the start and ` +
        `${os.loadavg()[0]!.toFixed(1)} at the end; chromium ${browser.version()}, ${DESKTOP.width}x${DESKTOP.height}.`,
      '',
      'Milliseconds from navigation start to the frame in which the page showed its figures (the',
      "dashboard's summary cards and MRR chart, the customers table). Cold: the first load after",
      `the server started, in a new browser profile. Warm: the median of ${runs} loads after it.`,
      '',
      '| page | cold | warm (median) | warm (each) |',
      '| --- | --- | --- | --- |',
      ...(Object.keys(results) as PageName[]).map((name) => {
        const { cold, warm } = results[name];
        const each = warm.map(shown).join(', ');
        return `| ${name} | ${shown(cold)} | ${median(warm.map((item) => item.drawnMs)).toFixed(0)} | ${each} |`;
      }),
      '',
      ...(Object.keys(results) as PageName[]).flatMap((name) => {
        const { cold, warm } = results[name];
        const last = warm.at(-1)!;
        return [cold, last].flatMap((load, i) => [
          `## ${name}, ${i === 0 ? 'cold' : 'last warm load'}: requests before the page was drawn`,
          '',
          '| request | start | took | end |',
          '| --- | --- | --- | --- |',
          ...waterfall(load),
          '',
        ]);
      }),
    ];
    mkdirSync(values.out, { recursive: true });
    const file = join(values.out, `${today}-${customers}-web.md`);
    writeFileSync(file, lines.join('\n'));
    process.stdout.write(`${lines.join('\n')}\nWritten to ${file}\n`);
  } finally {
    await store?.drop();
    if (!keep) rmSync(sessionFile, { force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
