import { measureExports } from './exports.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { StoreKind } from '../src/store/db.js';
import { ApiClient } from './api-client.js';
import { measureFloor, measureSqlBaselines } from './baselines.js';
import { type FirstReport, importToReportMs, measureFirstReport } from './first-report.js';
import { type FreshnessSettings, measureFreshness, WRITES_PER_SECOND } from './freshness.js';
import type { GeneratorOptions } from './generate.js';
import { ingest } from './ingest.js';
import { log } from './log.js';
import { thisMachine } from './machine.js';
import { markdown, type RunSummary, type StoreRun } from './markdown.js';
import { measureReport, reflect, reportTargets, twelveMonths } from './reports.js';
import { startServer } from './server.js';
import { createBenchStore, postgresVersion } from './stores.js';

/**
 * A smoke run's first report after its main import, or an other-shape import from its first write to
 * its first report, slower than this means a plan that grows too fast.
 */
const FIRST_REPORT_LIMIT_S = 30;

const USAGE = `npm run bench -- [options]

  --customers N        customers to generate (default 10000; 1000 to 100000 are the sizes of interest)
  --seed N             generator seed (default 1)
  --today YYYY-MM-DD   last day of the data (default: today, UTC, as the server's clock reads it)
  --history-years N    how far back sign-ups go (default 6)
  --stores LIST        pglite,postgres (default both; the SQL baselines need postgres)
  --batch N            items per write request, at most 10000 (default 5000)
  --concurrency N      write requests in flight (default 4)
  --connections N      concurrent clients in the load test (default 10)
  --load-seconds N     seconds of load per report (default 5)
  --samples N          most sequential calls per report (default 50)
  --stream-clients N   clients reading while writes stream in, ${WRITES_PER_SECOND} a second for --load-seconds
                       (default 16)
  --quick              a smoke run: few samples, 10 requests of load per report, 2 single writes and
                       2 s of writes read by 2 clients; fails when the first report after the main
                       import, or an other-shape import from its first write to its first report,
                       takes longer than ${FIRST_REPORT_LIMIT_S} s
  --shape-customers N  customers of the smaller other-shape import whose first report is timed,
                       the larger has twice as many (default: half of --customers, at most 5000)
  --postgres-url URL   server to create the database on (default $BENCH_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/postgres)
  --cpu-prof DIR       write V8 CPU profiles of each server process into DIR, one per thread
  --out DIR            where the markdown goes (default bench/results)
`;

const { values } = parseArgs({
  options: {
    customers: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    today: { type: 'string', default: new Date().toISOString().slice(0, 10) },
    'history-years': { type: 'string', default: '6' },
    stores: { type: 'string', default: 'pglite,postgres' },
    batch: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '4' },
    connections: { type: 'string' },
    'load-seconds': { type: 'string' },
    'stream-clients': { type: 'string' },
    samples: { type: 'string', default: '50' },
    quick: { type: 'boolean', default: false },
    'postgres-url': {
      type: 'string',
      default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
    'cpu-prof': { type: 'string' },
    'shape-customers': { type: 'string' },
    out: { type: 'string', default: 'bench/results' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

function positive(name: string, text: string | undefined, fallback: number): number {
  const value = text === undefined ? fallback : Number(text);
  if (!(value > 0)) throw new Error(`--${name} must be a positive number, got "${text}"`);
  return value;
}

const quick = values.quick;
const generator: GeneratorOptions = {
  customers: positive('customers', values.customers, 0),
  seed: positive('seed', values.seed, 0),
  today: values.today,
  historyYears: positive('history-years', values['history-years'], 0),
};
const stores = values.stores.split(',').map((kind): StoreKind => {
  if (kind !== 'pglite' && kind !== 'postgres') throw new Error(`--stores: unknown store "${kind}"`);
  return kind;
});
const ingestSettings = {
  batch: Math.min(10_000, positive('batch', values.batch, 0)),
  concurrency: positive('concurrency', values.concurrency, 0),
};
const reportSettings = {
  single: quick
    ? { minSamples: 2, maxSamples: 5, budgetMs: 100 }
    : { minSamples: 5, maxSamples: positive('samples', values.samples, 0), budgetMs: 5_000 },
  load: {
    connections: positive('connections', values.connections, quick ? 2 : 10),
    seconds: positive('load-seconds', values['load-seconds'], 5),
    // A smoke run only checks that the load test works: a few requests, not seconds of them.
    requests: quick ? 10 : undefined,
  },
};
const freshnessSettings: FreshnessSettings = {
  writes: quick ? 2 : 5,
  seconds: quick ? Math.min(2, reportSettings.load.seconds) : reportSettings.load.seconds,
  clients: positive('stream-clients', values['stream-clients'], quick ? 2 : 16),
};
const sqlLimits = quick
  ? { minSamples: 1, maxSamples: 3, budgetMs: 1_000 }
  : { minSamples: 3, maxSamples: 10, budgetMs: 20_000 };
const floorLimits = quick
  ? { minSamples: 5, maxSamples: 50, budgetMs: 200 }
  : { minSamples: 20, maxSamples: 1_000, budgetMs: 1_000 };
const adminUrl = values['postgres-url'];
const shapeCustomers = positive(
  'shape-customers',
  values['shape-customers'],
  Math.min(5_000, Math.ceil(generator.customers / 2)),
);
const range = twelveMonths(generator.today);

async function firstReports(kind: StoreKind): Promise<[FirstReport, FirstReport]> {
  const measured: FirstReport[] = [];
  for (const customers of [shapeCustomers, 2 * shapeCustomers]) {
    log(`[${kind}] other shape: importing ${customers} customers into a fresh store`);
    measured.push(await measureFirstReport(kind, adminUrl, customers, generator.today));
    const figures = measured.at(-1)!;
    log(
      `[${kind}] other shape: first report ${(figures.firstReportMs / 1000).toFixed(1)} s after the last write, ` +
        `${(importToReportMs(figures) / 1000).toFixed(1)} s after the first`,
    );
  }
  return [measured[0]!, measured[1]!];
}

/** Every first report of the run slower than the limit, in words. */
function tooSlowFirstReports(runs: readonly StoreRun[]): string[] {
  return runs.flatMap((run) => [
    ...[run.reflection.firstCalls[0]?.ms ?? 0]
      .filter((value) => value > FIRST_REPORT_LIMIT_S * 1000)
      .map(
        (value) => `${run.kind}: the first report after the main import took ${(value / 1000).toFixed(1)} s`,
      ),
    ...run.firstReports
      .filter((figures) => importToReportMs(figures) > FIRST_REPORT_LIMIT_S * 1000)
      .map(
        (figures) =>
          `${run.kind}: importing ${figures.customers} other-shape customers took ` +
          `${(importToReportMs(figures) / 1000).toFixed(1)} s from the first write to the first report`,
      ),
  ]);
}

async function runStore(
  kind: StoreKind,
): Promise<{ run: StoreRun; databaseUrl: string | null; drop: () => Promise<void> }> {
  const shaped = await firstReports(kind);
  const store = await createBenchStore(kind, adminUrl);
  try {
    // The first start creates the store (PGlite's initdb alone peaks near 900 MiB) and the
    // admin key; the figures are those of a restarted server, as one runs in service.
    const creator = await startServer({ env: store.env });
    const { adminKey } = creator;
    const created = creator.peakRss();
    await creator.stop();
    if (adminKey === null) throw new Error('the first start on an empty store printed no admin key');
    const server = await startServer({ env: store.env, cpuProfileDir: values['cpu-prof'] });
    try {
      const api = new ApiClient(server.url, adminKey);
      const targets = await reportTargets(api, generator.today);
      log(`[${kind}] server ${server.pid} at ${server.url}; loading ${generator.customers} customers`);
      const loaded = await ingest(api, generator, {
        ...ingestSettings,
        onProgress: (done) => log(`[${kind}] ${done} customers stored`),
      });
      const afterIngest = server.peakRss();
      log(
        `[${kind}] ${loaded.counts.invoices} invoices in ${loaded.seconds.toFixed(1)} s; asking every report once`,
      );
      const reflection = await reflect(api, targets, () => server.rss());
      const afterReflect = server.peakRss();
      log(`[${kind}] every report reflects the data after ${(reflection.totalMs / 1000).toFixed(1)} s`);
      const reports = [];
      for (const target of targets) {
        reports.push(await measureReport(api, target, reportSettings, () => server.settle()));
        log(`[${kind}] ${target.path}: p50 ${reports.at(-1)?.single.p50.toFixed(2)} ms`);
      }
      const afterReports = server.peakRss();
      // The server's day, not the generator's: the write must change the MRR the summary shows.
      const serverToday = new Date().toISOString().slice(0, 10);
      const freshness = await measureFreshness(api, freshnessSettings, serverToday, targets, server);
      const afterFreshness = server.peakRss();
      log(
        `[${kind}] write to fresh summary: ${freshness.single.map((write) => write.freshMs.toFixed(0)).join(', ')} ms; ` +
          `every report: ${freshness.everyReport.map((round) => `${round.freshMs.toFixed(0)} ms (${round.slowest.path})`).join(', ')}; ` +
          `${freshness.stream.writes} writes in ${freshness.stream.seconds.toFixed(1)} s`,
      );
      const exports = await measureExports(api, () => server.rss());
      for (const figures of exports)
        log(
          `[${kind}] ${figures.path}: ${(figures.bytes / 2 ** 20).toFixed(1)} MiB in ${figures.ms.toFixed(0)} ms`,
        );
      const { summary } = JSON.parse(await api.read('/reports/summary')) as {
        summary: { mrr_current: number; subscribers_current: number };
      };
      const run: StoreRun = {
        kind,
        today: { mrr: summary.mrr_current, subscribers: summary.subscribers_current },
        ingest: loaded,
        reflection,
        reports,
        freshness,
        exports,
        firstReports: shaped,
        peakRss: {
          created,
          ingest: afterIngest,
          reflect: afterReflect,
          reports: afterReports,
          freshness: afterFreshness,
          exports: server.peakRss(),
        },
      };
      return { run, databaseUrl: store.databaseUrl, drop: () => store.drop() };
    } finally {
      await server.stop();
    }
  } catch (error) {
    await store.drop();
    throw error;
  }
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const loadAtStart = os.loadavg();
  const runs: StoreRun[] = [];
  let sql: RunSummary['sql'] = null;
  let floor: RunSummary['floor'] = null;
  for (const kind of stores) {
    const { run, databaseUrl, drop } = await runStore(kind);
    runs.push(run);
    try {
      if (databaseUrl) {
        log('[postgres] plain SQL baselines and the typed-array floor');
        sql = await measureSqlBaselines(databaseUrl, range, sqlLimits);
        floor = await measureFloor(databaseUrl, range, floorLimits);
      }
    } finally {
      await drop();
    }
  }
  const first = runs[0];
  if (!first) throw new Error('no store ran');
  const summary: RunSummary = {
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    startedAt,
    seconds: (Date.now() - startedAt.getTime()) / 1000,
    machine: thisMachine(loadAtStart, stores.includes('postgres') ? await postgresVersion(adminUrl) : null),
    data: {
      seed: generator.seed,
      today: generator.today,
      historyYears: generator.historyYears,
      counts: first.ingest.counts,
    },
    ingestSettings,
    reportSettings: { ...reportSettings.load, maxSamples: reportSettings.single.maxSamples },
    freshnessSettings,
    stores: runs,
    sql,
    floor,
  };
  const page = markdown(summary);
  mkdirSync(values.out, { recursive: true });
  const file = join(
    values.out,
    `${startedAt.toISOString().slice(0, 10)}-${generator.customers}${quick ? '-quick' : ''}.md`,
  );
  writeFileSync(file, page);
  process.stdout.write(`${page}\nWritten to ${file}\n`);
  const slow = tooSlowFirstReports(runs);
  if (quick && slow.length > 0) {
    process.stderr.write(`First reports over the ${FIRST_REPORT_LIMIT_S} s limit:\n${slow.join('\n')}\n`);
    process.exitCode = 1;
  }
}

await main();
