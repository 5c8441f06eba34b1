import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ApiClient } from './api-client.js';
import { type FreshWrite, freshCustomer, summaryMrr, WRITE_MRR, writeToFresh } from './freshness.js';
import type { GeneratorOptions } from './generate.js';
import { type IngestResult, ingest } from './ingest.js';
import { log } from './log.js';
import { type Machine, machineText, thisMachine } from './machine.js';
import { count, duration, mib, ms, table } from './markdown.js';
import { type LoadFigures, reportTargets, type ReportTarget, targetUrl, underLoad } from './reports.js';
import { type Server, startServer } from './server.js';
import { median } from './stats.js';
import { createBenchStore, postgresVersion } from './stores.js';

const USAGE = `npm run bench:processes -- [options]

Loads a generated account into a new PostgreSQL database through the API once, then starts the
server on it with each number of WORKERS in turn and measures, per number: /reports/summary and
/reports/mrr under load, write-to-fresh across processes, and the workers' peak memory.

  --customers N        customers to generate (default 20000)
  --seed N             generator seed (default 1)
  --today YYYY-MM-DD   last day of the data (default: today, UTC)
  --history-years N    how far back sign-ups go (default 6)
  --workers LIST       numbers of server processes (default 1,2,4)
  --connections N      concurrent clients in the load test (default 16)
  --load-seconds N     seconds of load per report (default 5)
  --writes N           single writes, each read until it shows (default 5)
  --postgres-url URL   server to create the database on (default $BENCH_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/postgres)
  --out DIR            where the markdown goes (default bench/results)
`;

const { values } = parseArgs({
  options: {
    customers: { type: 'string', default: '20000' },
    seed: { type: 'string', default: '1' },
    today: { type: 'string', default: new Date().toISOString().slice(0, 10) },
    'history-years': { type: 'string', default: '6' },
    workers: { type: 'string', default: '1,2,4' },
    connections: { type: 'string', default: '16' },
    'load-seconds': { type: 'string', default: '5' },
    writes: { type: 'string', default: '5' },
    'postgres-url': {
      type: 'string',
      default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
    out: { type: 'string', default: 'bench/results' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

function positive(name: string, text: string): number {
  const value = Number(text);
  if (!(value > 0)) throw new Error(`--${name} must be a positive number, got "${text}"`);
  return value;
}

const generator: GeneratorOptions = {
  customers: positive('customers', values.customers),
  seed: positive('seed', values.seed),
  today: values.today,
  historyYears: positive('history-years', values['history-years']),
};
const workerCounts = values.workers.split(',').map((text) => positive('workers', text));
const load = {
  connections: positive('connections', values.connections),
  seconds: positive('load-seconds', values['load-seconds']),
};
const writes = positive('writes', values.writes);
const adminUrl = values['postgres-url'];
// As bench/run.ts: bodies of 5,000 items, 4 requests in flight.
const INGEST = { batch: 5_000, concurrency: 4 };
const MEASURED = ['/reports/summary', '/reports/mrr'];

interface ProcessesRun {
  workers: number;
  loaded: { target: ReportTarget; figures: LoadFigures }[];
  fresh: FreshWrite[];
  /** The workers' peak resident memory (VmHWM), summed, in bytes. */
  peakRss: number;
  /** The primary's lines about workers that exited unexpectedly: a replacement's peak is its own. */
  exits: string[];
}

/** Loads the account through a single server, and leaves every customer derived. */
async function loadAccount(env: NodeJS.ProcessEnv): Promise<{ adminKey: string; ingested: IngestResult }> {
  const server = await startServer({ env });
  try {
    if (server.adminKey === null)
      throw new Error('the first start on an empty database printed no admin key');
    // A connection per request: on a busy machine a reused keep-alive connection can meet the
    // server's idle close while a body of megabytes is on its way ("other side closed", EPIPE).
    const api = new ApiClient(server.url, server.adminKey, { connectionPerCall: true });
    log(`loading ${generator.customers} customers`);
    const ingested = await ingest(api, generator, {
      ...INGEST,
      onProgress: (done) => log(`${done} customers stored`),
    });
    // Derives what the writes left for the background refresh, so every run starts alike.
    await api.read('/reports/summary');
    await server.settle();
    return { adminKey: server.adminKey, ingested };
  } finally {
    await server.stop();
  }
}

/**
 * Calls `path` once per worker, each call on a connection of its own: the primary hands new
 * connections to the workers in turn, so each builds its snapshot before the measurement.
 */
async function onEveryWorker(api: ApiClient, server: Server, path: string): Promise<string[]> {
  const answers = [];
  for (const _ of server.pids()) answers.push(await api.read(path));
  return answers;
}

/** Single writes through one worker, each read by the next workers until the summary shows it. */
async function freshAcrossProcesses(api: ApiClient, server: Server, first: number): Promise<FreshWrite[]> {
  // The server's day: the write must change the MRR the summary shows today.
  const today = new Date().toISOString().slice(0, 10);
  const customers = Array.from({ length: writes }, (_, index) => freshCustomer(first + index, today));
  await api.write('/data/customers', customers);
  await onEveryWorker(api, server, '/reports/summary');
  await server.settle();
  let expected = (await summaryMrr(api)).mrr;
  const fresh: FreshWrite[] = [];
  for (const customer of customers) {
    expected += WRITE_MRR;
    fresh.push(await writeToFresh(api, customer.id, today, expected));
  }
  return fresh;
}

async function measure(
  env: NodeJS.ProcessEnv,
  adminKey: string,
  workers: number,
  firstCustomer: number,
): Promise<ProcessesRun> {
  const server = await startServer({ env, workers });
  try {
    log(`${workers} worker(s): ${server.pids().join(', ')} at ${server.url}`);
    const api = new ApiClient(server.url, adminKey, { connectionPerCall: true });
    const targets = (await reportTargets(api, generator.today)).filter((target) =>
      MEASURED.includes(target.path),
    );
    for (const target of targets) await onEveryWorker(api, server, targetUrl(target));
    await server.settle();
    const loaded = [];
    for (const target of targets) {
      const figures = await underLoad(api, target, load);
      await server.settle();
      loaded.push({ target, figures });
      log(
        `${workers} worker(s) ${target.path}: ${count(figures.requestsPerSecond)} requests/s, ` +
          `p50 ${ms(figures.p50)} ms, p99 ${ms(figures.p99)} ms`,
      );
    }
    const fresh = await freshAcrossProcesses(api, server, firstCustomer);
    log(
      `${workers} worker(s) write to fresh: ` +
        fresh.map((write) => `${ms(write.freshMs)} ms (${write.reads} calls)`).join(', '),
    );
    const exits = server.output().match(/^Worker \d+ exited unexpectedly.*$/gm) ?? [];
    for (const line of exits) log(`${workers} worker(s): ${line}`);
    return { workers, loaded, fresh, peakRss: server.peakRss(), exits };
  } finally {
    await server.stop();
  }
}

function page(
  runs: readonly ProcessesRun[],
  details: { startedAt: Date; machine: Machine; ingested: IngestResult; seconds: number },
): string {
  const { ingested } = details;
  const header = [
    'processes',
    ...MEASURED.flatMap((path) => [`${path} req/s`, 'p50 (ms)', 'p99 (ms)']),
    'write to fresh, median / max (ms)',
    'summary calls until fresh, most',
    'peak RSS, workers summed',
  ];
  const rows = runs.map((run) => {
    const freshMs = run.fresh.map((write) => write.freshMs);
    return [
      run.workers === 1 ? '1 (no primary)' : String(run.workers),
      ...MEASURED.flatMap((path) => {
        const figures = run.loaded.find((entry) => entry.target.path === path)?.figures;
        return figures
          ? [count(figures.requestsPerSecond), ms(figures.p50), ms(figures.p99)]
          : ['n/a', 'n/a', 'n/a'];
      }),
      `${ms(median(freshMs))} / ${ms(Math.max(...freshMs))}`,
      String(Math.max(...run.fresh.map((write) => write.reads))),
      mib(run.peakRss),
    ];
  });
  const failures = runs.flatMap((run) => [
    ...run.loaded
      .filter((entry) => entry.figures.failures > 0)
      .map(
        (entry) =>
          `${run.workers} worker(s), ${entry.target.path}: ${entry.figures.failures} failed requests`,
      ),
    ...run.exits.map((line) => `${run.workers} worker(s): ${line}`),
  ]);
  const c = ingested.counts;
  return [
    `# Several processes: ${count(generator.customers)} customers`,
    '',
    `Run ${details.startedAt.toISOString().slice(0, 16)}Z with \`npm run bench:processes -- ${process.argv.slice(2).join(' ')}\`; ` +
      `it took ${duration(details.seconds)}.`,
    '',
    `${machineText(details.machine)} The client (autocannon, HTTP calls) and PostgreSQL run on the same machine as the server.`,
    '',
    `Data: seed ${generator.seed}, today ${generator.today}, ${generator.historyYears} years of history: ` +
      `${count(c.customers)} customers, ${count(c.invoices)} invoices with ${count(c.lines)} lines, loaded once ` +
      `through the API in ${ingested.seconds.toFixed(1)} s into a new database; every row below starts a server ` +
      `on it with that many WORKERS (1: the process serves alone, without a primary).`,
    '',
    `Under load: autocannon, ${load.connections} connections for ${load.seconds} s per report (the primary hands ` +
      `the connections to the workers in turn), after one call of each report per worker. Write to fresh: ` +
      `${writes} single invoices, each sent on a new connection and followed by /reports/summary calls, each on ` +
      `a new connection and so on the next worker, until one shows it; from the write's answer to that answer ` +
      '(a worker whose newer snapshot is not built within READ_WAIT_MS answers from its previous one). ' +
      'Peak RSS: VmHWM of each worker at the end, summed (each worker holds its own snapshot of the account).',
    '',
    table(header, rows),
    ...(failures.length > 0 ? ['', `Failures: ${failures.join('; ')}.`] : []),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const loadAtStart = os.loadavg();
  const store = await createBenchStore('postgres', adminUrl);
  try {
    const { adminKey, ingested } = await loadAccount(store.env);
    const runs: ProcessesRun[] = [];
    for (const [round, workers] of workerCounts.entries())
      runs.push(await measure(store.env, adminKey, workers, round * writes + 1));
    const markdown = page(runs, {
      startedAt,
      machine: thisMachine(loadAtStart, await postgresVersion(adminUrl)),
      ingested,
      seconds: (Date.now() - startedAt.getTime()) / 1000,
    });
    mkdirSync(values.out, { recursive: true });
    const file = join(
      values.out,
      `${startedAt.toISOString().slice(0, 10)}-${generator.customers}-processes.md`,
    );
    writeFileSync(file, markdown);
    process.stdout.write(`${markdown}\nWritten to ${file}\n`);
  } finally {
    await store.drop();
  }
}

await main();
