import type { ExportFigures } from './exports.js';
import type { StoreKind } from '../src/store/db.js';
import { BASELINE_TITLES, baselineFor, type BaselineName, type SqlBaseline } from './baselines.js';
import { type FirstReport, importToReportMs } from './first-report.js';
import {
  EVERY_REPORT_ROUNDS,
  type FreshnessFigures,
  type FreshnessSettings,
  WRITE_MRR,
  WRITES_PER_SECOND,
} from './freshness.js';
import type { DataCounts, IngestResult } from './ingest.js';
import { type Machine, machineText } from './machine.js';
import { type ReportFigures, type Reflection, targetUrl } from './reports.js';
import { median, type Timing } from './stats.js';

export interface StoreRun {
  kind: StoreKind;
  /** The service's MRR (cents of the base currency) and subscribers today, per /reports/summary. */
  today: { mrr: number; subscribers: number };
  ingest: IngestResult;
  reflection: Reflection;
  reports: ReportFigures[];
  freshness: FreshnessFigures;
  exports: ExportFigures[];
  /** The first report after an import of the other shape, at two sizes, the second twice the first. */
  firstReports: [FirstReport, FirstReport];
  /**
   * Peak resident memory (VmHWM) in bytes: of the first server process, which created the
   * store, and of the measured one at the end of each phase.
   */
  peakRss: {
    created: number;
    ingest: number;
    reflect: number;
    reports: number;
    freshness: number;
    exports: number;
  };
}

export interface RunSummary {
  command: string;
  startedAt: Date;
  seconds: number;
  machine: Machine;
  data: { seed: number; today: string; historyYears: number; counts: DataCounts };
  ingestSettings: { batch: number; concurrency: number };
  reportSettings: { connections: number; seconds: number; requests?: number | undefined; maxSamples: number };
  freshnessSettings: FreshnessSettings;
  stores: StoreRun[];
  sql: SqlBaseline[] | null;
  floor: { timing: Timing; movements: number } | null;
}

const TARGET = { medianMs: 50, sqlRatio: 10, invoicesPerSecond: 20_000, memoryBytes: 2 ** 30 };
const STORE_NAMES: Record<StoreKind, string> = { pglite: 'embedded (PGlite)', postgres: 'PostgreSQL' };

export const count = (value: number) => Math.round(value).toLocaleString('en-US');

export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (value < 1) return value.toFixed(3);
  if (value < 10) return value.toFixed(2);
  if (value < 100) return value.toFixed(1);
  return count(value);
}

const ratio = (value: number) =>
  Number.isFinite(value) ? `${value < 10 ? value.toFixed(1) : count(value)}x` : 'n/a';
export const mib = (bytes: number) => `${count(bytes / 2 ** 20)} MiB`;

export function duration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes} min ${Math.round(seconds % 60)} s` : `${seconds.toFixed(1)} s`;
}

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function sqlMedian(run: RunSummary, name: BaselineName): number {
  return run.sql?.find((baseline) => baseline.name === name)?.timing.p50 ?? Number.NaN;
}

function ingestSection(run: RunSummary): string {
  const rows = run.stores.map((store) => [
    STORE_NAMES[store.kind],
    store.ingest.seconds.toFixed(1),
    count(store.ingest.counts.invoices / store.ingest.seconds),
    count(store.ingest.counts.lines / store.ingest.seconds),
    count(store.ingest.requests),
    ms(store.reflection.firstCalls[0]?.ms ?? Number.NaN),
    ms(store.reflection.totalMs),
  ]);
  return [
    `## Ingest`,
    '',
    `Through the public API: bodies of up to ${count(run.ingestSettings.batch)} items, at most ` +
      `${run.ingestSettings.concurrency} invoice or subscription requests in flight. "First report" is the ` +
      'first report call after the last write, which recomputes the metrics of every customer and builds ' +
      'the snapshot; "all reports" is the time until every report below had answered once.',
    '',
    table(
      ['store', 'seconds', 'invoices/s', 'lines/s', 'requests', 'first report (ms)', 'all reports (ms)'],
      rows,
    ),
  ].join('\n');
}

function firstReportSection(run: RunSummary): string {
  const rows = run.stores.map((store) => {
    const [small, large] = store.firstReports;
    return [
      STORE_NAMES[store.kind],
      ...[small, large].flatMap((figures) => [
        `${count(figures.customers)} / ${count(figures.invoices)}`,
        ms(figures.firstReportMs),
        ms(importToReportMs(figures)),
        `${ms(figures.slowestHealthMs)} / ${ms(figures.slowestWarmReportMs)}`,
      ]),
      ratio(importToReportMs(large) / importToReportMs(small)),
    ];
  });
  return [
    '## First report on fresh tables',
    '',
    'An account shaped unlike the generated one (bench/other-shape.ts: a named data source, weekly to ' +
      'yearly plans, four currencies, a payment method on every payment) imported into a new store, whose ' +
      'tables were never analyzed, at two sizes. The customers are derived in the background while the ' +
      'import goes on, so "first report" (from the last write) holds only what was left; "whole" runs from ' +
      "the first write to the first report's answer and holds all of it. Healthy growth is linear: the " +
      'ratio of the wholes stays near 2. "Slowest answers" are the slowest answers to /health and ' +
      'to /reports/summary of a small second account, warm before the import, each called every 100 ms ' +
      'during the import and that first report.',
    '',
    table(
      [
        'store',
        'customers / invoices',
        'first report (ms)',
        'whole (ms)',
        'slowest answers (ms)',
        'customers / invoices',
        'first report (ms)',
        'whole (ms)',
        'slowest answers (ms)',
        'ratio of wholes',
      ],
      rows,
    ),
  ].join('\n');
}

function reportsSection(run: RunSummary): string {
  const floor = run.floor?.timing.p50 ?? Number.NaN;
  const paths = run.stores[0]?.reports.map((figures) => figures.target) ?? [];
  const rows = paths.flatMap((target) =>
    run.stores.map((store) => {
      const figures = store.reports.find((item) => item.target.path === target.path);
      const first = store.reflection.firstCalls.find((call) => call.target.path === target.path);
      if (!figures) return [];
      const sql = sqlMedian(run, baselineFor(target.path));
      return [
        `\`${targetUrl(target)}\``,
        STORE_NAMES[store.kind],
        ms(first?.ms ?? Number.NaN) + (first?.deadlines ? ` (${first.deadlines} × 503 at the deadline)` : ''),
        ms(figures.single.p50),
        ms(figures.single.p99),
        ms(figures.loaded.p50),
        ms(figures.loaded.p99),
        count(figures.loaded.requestsPerSecond),
        count(figures.loaded.answered),
        count(figures.loaded.failures),
        `${ratio(sql / figures.single.p50)} (${baselineFor(target.path)})`,
        ratio(figures.single.p50 / floor),
      ];
    }),
  );
  return [
    '## Reports',
    '',
    `Milliseconds, measured by the client over HTTP on the same machine. "first" is the report's first ` +
      `answer after the writes (cold). Warm single client: sequential calls (up to ${run.reportSettings.maxSamples}), ` +
      `median and 99th percentile. Under load: autocannon, ${run.reportSettings.connections} connections for ` +
      `${run.reportSettings.requests === undefined ? `${run.reportSettings.seconds} s (a report too slow for two answers per connection in that time: one request per connection)` : `${run.reportSettings.requests} requests`}; ` +
      'after it, the next report waits until the server has finished what the load left behind. ' +
      '"answers": how many the loaded percentiles rest on. "SQL ÷ ours": the SQL baseline\'s median divided by the single-client ' +
      'median (how many times faster the report is); "ours ÷ floor": the single-client median divided by the ' +
      'typed-array floor.',
    '',
    table(
      [
        'report',
        'store',
        'first',
        'p50',
        'p99',
        'loaded p50',
        'loaded p99',
        'req/s',
        'answers',
        'failed',
        'SQL ÷ ours',
        'ours ÷ floor',
      ],
      rows.filter((row) => row.length > 0),
    ),
  ].join('\n');
}

/** The same report's figures from the report phase of the run: the baseline without writes. */
const reportFigures = (store: StoreRun, path: string) =>
  store.reports.find((figures) => figures.target.path === path);

const medianAndMax = (values: readonly number[]) => `${ms(median(values))} / ${ms(Math.max(...values))}`;

function freshnessSection(run: RunSummary): string {
  const settings = run.freshnessSettings;
  const single = run.stores.map((store) => {
    const writes = store.freshness.single;
    const fresh = writes.map((write) => write.freshMs);
    const warm = reportFigures(store, '/reports/summary')?.single.p50 ?? Number.NaN;
    return [
      STORE_NAMES[store.kind],
      medianAndMax(writes.map((write) => write.writeMs)),
      medianAndMax(fresh),
      `${Math.max(...writes.map((write) => write.reads))}`,
      `${writes.filter((write) => write.aged).length} of ${writes.length}`,
      ms(warm),
      ratio(median(fresh) / warm),
    ];
  });
  const everyReport = run.stores.map((store) => {
    const rounds = store.freshness.everyReport;
    const slowestRound = rounds.reduce((slowest, round) =>
      round.freshMs > slowest.freshMs ? round : slowest,
    );
    return [
      STORE_NAMES[store.kind],
      medianAndMax(rounds.map((round) => round.writeMs)),
      medianAndMax(rounds.map((round) => round.freshMs)),
      rounds.map((round) => ms(round.freshMs)).join(', '),
      `\`${targetUrl(slowestRound.slowest)}\``,
    ];
  });
  const stream = run.stores.flatMap((store) => {
    const { writes, seconds, write, reads, marker } = store.freshness.stream;
    return reads.map((figures) => {
      const loaded = reportFigures(store, figures.target.path)?.loaded.p99 ?? Number.NaN;
      return [
        `\`${targetUrl(figures.target)}\``,
        STORE_NAMES[store.kind],
        `${count(writes)} (${count(writes / seconds)}/s)`,
        `${ms(write.p50)} / ${ms(write.p99)}`,
        count(figures.answered),
        ms(figures.p50),
        ms(figures.p99),
        ms(loaded),
        ratio(figures.p99 / loaded),
        `${count((100 * figures.aged) / figures.answered)} %`,
        figures.aged > 0 ? figures.maxAgeSeconds.toFixed(1) : '',
        `${ms(marker.freshMs)}${marker.aged ? ' (aged)' : ''}`,
      ];
    });
  });
  const memory = run.stores.map(
    (store) =>
      `${STORE_NAMES[store.kind]} ${mib(store.freshness.rssBefore)} before, at most ${mib(store.freshness.rssPeak)}`,
  );
  return [
    '## Freshness',
    '',
    `After the load tests. Each write is one paid invoice of one month of a USD plan starting today, for a ` +
      `customer of its own created beforehand, which adds ${count(WRITE_MRR)} cents to today's MRR. ` +
      `Write to fresh: ${settings.writes} writes one after the other, each followed by \`/reports/summary\` calls until ` +
      'its MRR shows the write; "write" is the write\'s answer time, "to fresh" the time from that answer to the ' +
      'answer that showed it, "calls" the most calls one write needed, "aged" the writes for which an answer ' +
      'carried `Mrrlytics-Data-Age` (answered from the previous snapshot); median / max, in ms, beside the warm ' +
      'single-client median of `/reports/summary` from the report phase.',
    '',
    table(
      ['store', 'write (ms)', 'to fresh (ms)', 'calls', 'aged', 'warm summary p50', 'to fresh ÷ warm'],
      single,
    ),
    '',
    `Every report after one write, ${EVERY_REPORT_ROUNDS} rounds, each once the server settled: one more write, ` +
      'then every report called at once, as a dashboard asks, each again until an answer carries no ' +
      '`Mrrlytics-Data-Age` (so holds the write); "to every report fresh" is the time from the write\'s answer ' +
      'to the last such answer (median / max of the rounds, then each round), "slowest" the report that ' +
      'answered last in the slowest round.',
    '',
    table(['store', 'write (ms)', 'to every report fresh (ms)', 'rounds (ms)', 'slowest'], everyReport),
    '',
    `Under a stream of writes: ${WRITES_PER_SECOND} writes a second for ${settings.seconds} s, each sent when its ` +
      `time comes, while ${settings.clients} clients read the two reports in turn until the last write is answered. ` +
      `"writes": how many, and their rate from the first sent to the last answered; "write p50 / p99" their ` +
      'answer times; "loaded p99" is the same report\'s p99 under load without writes from the report phase; "aged" the share ' +
      'of answers with `Mrrlytics-Data-Age`, "max age" its largest value in seconds; "marker to fresh": one more ' +
      'write after the stream, from its answer until the summary showed every write. Server memory during the ' +
      `phase (resident, sampled every 20 ms): ${memory.join('; ')}.`,
    '',
    table(
      [
        'report',
        'store',
        'writes',
        'write p50 / p99',
        'reads',
        'p50',
        'p99',
        'loaded p99',
        'p99 ÷ loaded',
        'aged',
        'max age (s)',
        'marker to fresh (ms)',
      ],
      stream,
    ),
  ].join('\n');
}

function memorySection(run: RunSummary): string {
  const rows = run.stores.map((store) => [
    STORE_NAMES[store.kind],
    mib(store.peakRss.created),
    mib(store.peakRss.ingest),
    mib(store.peakRss.reflect),
    mib(store.peakRss.reports),
    mib(store.peakRss.freshness),
    mib(store.peakRss.exports),
  ]);
  const growth = run.stores.map((store) => {
    let previous = store.reflection.rssBefore;
    const steps = store.reflection.firstCalls.map((call) => {
      const step = { path: call.target.path, bytes: call.rss - previous };
      previous = call.rss;
      return step;
    });
    const largest = steps.sort((a, b) => b.bytes - a.bytes).slice(0, 3);
    return (
      `- ${STORE_NAMES[store.kind]}: resident ${mib(store.reflection.rssBefore)} before the first report call; ` +
      `the first calls that added most: ${largest.map((step) => `\`${step.path}\` +${mib(step.bytes)}`).join(', ')}.`
    );
  });
  return [
    '## Memory',
    '',
    "The server process's peak resident set (VmHWM), PostgreSQL's own processes not included. The store " +
      'is created by a first start (and stop) of the server; the measured server is a restart on it.',
    '',
    ...growth,
    '',
    table(
      [
        'store',
        'first start (creates the store)',
        'after ingest',
        'after the first reports',
        'after the load tests',
        'after the freshness phase',
        'after the exports',
      ],
      rows,
    ),
  ].join('\n');
}

function exportsSection(run: RunSummary): string {
  const rows = run.stores.flatMap((store) =>
    store.exports.map((figures) => [
      `\`${figures.path}\``,
      STORE_NAMES[store.kind],
      count(figures.rows),
      mib(figures.bytes),
      ms(figures.ms),
      mib(figures.rssPeak - figures.rssBefore),
    ]),
  );
  return [
    '## Exports',
    '',
    'Each CSV export downloaded whole after the freshness phase, default parameters (every customer; the ' +
      "movements and growth of the last 365 days). Extra memory: the server's resident set sampled every " +
      '20 ms during the download, its peak minus what it held just before (target: under 200 MiB).',
    '',
    table(['export', 'store', 'rows', 'size', 'time (ms)', 'extra memory'], rows),
  ].join('\n');
}

function baselinesSection(run: RunSummary): string {
  const rows = (run.sql ?? []).map((baseline) => [
    `${BASELINE_TITLES[baseline.name]} (\`${baseline.name}\`)`,
    ms(baseline.timing.p50),
    ms(baseline.timing.p99),
    count(baseline.timing.samples),
    count(baseline.rows),
  ]);
  if (run.floor) {
    rows.push([
      `Floor: typed-array scan of ${count(run.floor.movements)} movements by month and kind`,
      ms(run.floor.timing.p50),
      ms(run.floor.timing.p99),
      count(run.floor.timing.samples),
      '',
    ]);
  }
  const latest = run.sql?.find((baseline) => baseline.name === 'mrr-movements')?.lastRow;
  const check = latest
    ? [
        '',
        `The same data, two definitions: today the MRR SQL counts ${count(Number(latest.total_mrr))} cents over ` +
          `${count(Number(latest.total_customers))} customers (fixed exchange rates, lines only); the service ` +
          run.stores
            .map(
              (store) =>
                `${count(store.today.mrr)} over ${count(store.today.subscribers)} subscribers on ${STORE_NAMES[store.kind]}`,
            )
            .join(', ') +
          ' (/reports/summary).',
      ]
    : [];
  return [
    '## Baselines',
    '',
    'On the PostgreSQL database the run loaded, after `analyze`, warm, one client (bench/baselines.ts).',
    '',
    table(['baseline', 'p50 (ms)', 'p99 (ms)', 'samples', 'rows'], rows),
    ...check,
  ].join('\n');
}

function targetsSection(run: RunSummary): string {
  const lines = run.stores.map((store) => {
    const fast = store.reports.filter((figures) => figures.single.p50 < TARGET.medianMs).length;
    const slowest = [...store.reports].sort((a, b) => b.single.p50 - a.single.p50)[0];
    const tenfold = store.reports.filter(
      (figures) => sqlMedian(run, baselineFor(figures.target.path)) / figures.single.p50 >= TARGET.sqlRatio,
    ).length;
    // Through the whole run, as the target reads: the freshness phase and the exports come after the load tests.
    const peak = store.peakRss.exports;
    const rate = store.ingest.counts.invoices / store.ingest.seconds;
    const mark = (ok: boolean) => (ok ? 'met' : 'missed');
    return [
      `- ${STORE_NAMES[store.kind]}: median under ${TARGET.medianMs} ms for ${fast} of ${store.reports.length} reports` +
        (slowest ? ` (slowest: \`${slowest.target.path}\`, ${ms(slowest.single.p50)} ms)` : '') +
        `; at least ${TARGET.sqlRatio}x faster than the SQL for ${run.sql ? tenfold : 'n/a'} of ${store.reports.length}; ` +
        `ingest ${count(rate)} invoices/s` +
        (store.kind === 'pglite'
          ? ` (target ${count(TARGET.invoicesPerSecond)}: ${mark(rate >= TARGET.invoicesPerSecond)})`
          : '') +
        `; peak RSS ${mib(peak)} (target 1 GiB: ${mark(peak < TARGET.memoryBytes)}).`,
    ].join('');
  });
  return [
    '## Targets',
    '',
    `The targets (docs/performance.md) are set for 100,000 customers and 2,000,000 invoice lines on 2 cores; this run has ` +
      `${count(run.data.counts.customers)} customers and ${count(run.data.counts.lines)} lines.`,
    '',
    ...lines,
  ].join('\n');
}

/** The whole run as a markdown page: what ran, where, and every figure with its ratios. */
export function markdown(run: RunSummary): string {
  const { machine, data } = run;
  const c = data.counts;
  return [
    `# Benchmark: ${count(c.customers)} customers`,
    '',
    `Run ${run.startedAt.toISOString().slice(0, 16)}Z with \`${run.command}\`; it took ${duration(run.seconds)}.`,
    '',
    `${machineText(machine)} The client (generator, HTTP calls, autocannon) runs on the same machine as the server.`,
    '',
    `Data: seed ${data.seed}, today ${data.today}, ${data.historyYears} years of history: ${count(c.customers)} customers, ` +
      `${count(c.plans)} plans, ${count(c.invoices)} invoices with ${count(c.lines)} lines and ` +
      `${count(c.transactions)} transactions, ${count(c.subscriptions)} subscription records.`,
    '',
    ingestSection(run),
    '',
    firstReportSection(run),
    '',
    reportsSection(run),
    '',
    freshnessSection(run),
    '',
    memorySection(run),
    '',
    exportsSection(run),
    '',
    baselinesSection(run),
    '',
    targetsSection(run),
    '',
  ].join('\n');
}
