import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { StoreKind } from '../src/store/db.js';
import { ApiClient } from './api-client.js';
import { everyReportFresh, freshCustomer, STREAM_PATHS, stream, WRITES_PER_SECOND } from './freshness.js';
import { ingest } from './ingest.js';
import { log } from './log.js';
import { type ReportTarget, reflect, reportTargets, targetUrl } from './reports.js';
import { type Server, startServer } from './server.js';
import { percentile } from './stats.js';
import { createBenchStore } from './stores.js';

const USAGE = `npm run bench:reused -- load FILE [--store pglite|postgres] [--customers N] [--cpu-prof DIR]
npm run bench:reused -- rounds FILE [--runs N] [--cpu-prof DIR]
npm run bench:reused -- stream FILE [--runs N] [--cpu-prof DIR]

The freshness phase's parts alone, on a store loaded once: a change to the write path is then
measured in minutes, before and after alternating, rather than by a whole benchmark each.

  load     generates and imports an account (seed 1, six years) into a new store, reads every
           report once (the time until each reflects the import), and writes where the store
           is and its admin key to FILE
  rounds   starts the built server on FILE's store, reads every report once, then --runs rounds
           (default 9) of one write followed by every report until each holds it, as the
           benchmark's "every report after one write"
  stream   the same start, then --runs times (default 3) ${WRITES_PER_SECOND} writes a second for 5 s while
           16 clients read ${STREAM_PATHS.join(' and ')}
Each run writes customers of its own, so a store can be measured again and again.
`;

interface Saved {
  env: NodeJS.ProcessEnv;
  adminKey: string;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    store: { type: 'string', default: 'postgres' },
    customers: { type: 'string', default: '100000' },
    runs: { type: 'string' },
    'cpu-prof': { type: 'string' },
    'postgres-url': {
      type: 'string',
      default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const [command, file] = positionals;
if (!file || !['load', 'rounds', 'stream'].includes(command ?? '')) {
  process.stderr.write(USAGE);
  process.exit(2);
}
const today = new Date().toISOString().slice(0, 10);
/** Customer ids no earlier run used. */
const tag = `reused_${Date.now()}`;

async function load(): Promise<void> {
  const kind = values.store as StoreKind;
  if (kind !== 'pglite' && kind !== 'postgres') throw new Error(`--store: unknown store "${values.store}"`);
  const store = await createBenchStore(kind, values['postgres-url']);
  const server = await startServer({ env: store.env, cpuProfileDir: values['cpu-prof'] });
  if (server.adminKey === null) throw new Error('the first start on an empty store printed no admin key');
  try {
    const api = new ApiClient(server.url, server.adminKey);
    const customers = Number(values.customers);
    const loaded = await ingest(
      api,
      { customers, seed: 1, today, historyYears: 6 },
      { batch: 5_000, concurrency: 4, onProgress: (done) => log(`${done} customers stored`) },
    );
    log(`${loaded.counts.invoices} invoices in ${loaded.seconds.toFixed(1)} s`);
    const reflection = await reflect(api, await reportTargets(api, today), () => server.rss());
    log(`every report reflects the import ${(reflection.totalMs / 1000).toFixed(1)} s after its last write`);
    const saved: Saved = { env: store.env, adminKey: server.adminKey };
    writeFileSync(file!, JSON.stringify(saved));
  } finally {
    await server.stop();
  }
}

/** The server started on the saved store, with every report read once and the server settled. */
async function warm(saved: Saved): Promise<{ server: Server; api: ApiClient; targets: ReportTarget[] }> {
  const server = await startServer({ env: saved.env, cpuProfileDir: values['cpu-prof'] });
  const api = new ApiClient(server.url, saved.adminKey);
  const targets = await reportTargets(api, today);
  await Promise.all(targets.map((target) => api.answer(targetUrl(target))));
  await server.settle();
  return { server, api, targets };
}

/** Leads of their own for `count` writes, stored and derived before anything is timed. */
async function leads(api: ApiClient, server: Server, prefix: string, count: number): Promise<string[]> {
  const customers = Array.from({ length: count }, (_, index) => ({
    ...freshCustomer(index + 1, today),
    id: `${tag}_${prefix}_${index}`,
  }));
  await api.write('/data/customers', customers);
  await server.settle();
  return customers.map((customer) => customer.id);
}

async function rounds(saved: Saved, runs: number): Promise<void> {
  const { server, api, targets } = await warm(saved);
  try {
    const ids = await leads(api, server, 'round', runs);
    const times: number[] = [];
    for (const id of ids) {
      await server.settle();
      const round = await everyReportFresh(api, id, today, targets);
      times.push(round.freshMs);
      log(`round: ${round.freshMs.toFixed(0)} ms (slowest ${round.slowest.path})`);
    }
    log(
      `median ${percentile(times, 0.5).toFixed(0)} ms; peak resident ${(server.peakRss() / 2 ** 20).toFixed(0)} MiB`,
    );
  } finally {
    await server.stop();
  }
}

async function streams(saved: Saved, runs: number): Promise<void> {
  const { server, api, targets } = await warm(saved);
  const read = STREAM_PATHS.map((path) => targets.find((target) => target.path === path)!);
  try {
    for (let run = 0; run < runs; run++) {
      const ids = await leads(api, server, `stream${run}`, 5 * WRITES_PER_SECOND);
      const result = await stream(api, ids, today, read, 16);
      const reads = result.reads.map(
        (figures) =>
          `${figures.target.path} p50 ${figures.p50.toFixed(0)} p99 ${figures.p99.toFixed(0)} ms (${figures.answered})`,
      );
      log(
        `stream: ${reads.join('; ')}; writes p50 ${result.write.p50.toFixed(0)} p99 ${result.write.p99.toFixed(0)} ms`,
      );
    }
  } finally {
    await server.stop();
  }
}

const runs = (fallback: number) => Number(values.runs ?? fallback);
if (command === 'load') await load();
else {
  const saved = JSON.parse(readFileSync(file, 'utf8')) as Saved;
  if (command === 'rounds') await rounds(saved, runs(9));
  else await streams(saved, runs(3));
}
