import autocannon from 'autocannon';
import { dayNumber, dayString } from '../src/engine/days.js';
import { periodStart, shiftMonths } from '../src/engine/periods.js';
import type { ApiClient } from './api-client.js';
import { msSince, type Timing, timeSequential } from './stats.js';

/** A report route and the query the benchmark sends it. */
export interface ReportTarget {
  path: string;
  query: string;
}

const compact = (day: number) => dayString(day).replaceAll('-', '');

/** The range the MRR report and its SQL baseline cover: twelve calendar months up to today. */
export function twelveMonths(today: string): { from: number; to: number } {
  const to = dayNumber(today);
  return { from: shiftMonths(periodStart(to, 'month'), -11), to };
}

/** Queries for the routes whose defaults are not what the benchmark means to measure, or that need one. */
function queries(today: string): Record<string, string> {
  const range = twelveMonths(today);
  return {
    '/reports/mrr': `interval=month&date=${compact(range.from)}-${compact(range.to)}`,
    '/reports/custom-variables': 'key=industry',
    '/reports/mrr-subtypes': 'type=expansion',
  };
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean }[];
}

/**
 * Every report the server offers, read from its own OpenAPI document so that a new report is
 * measured without touching the benchmark: the GET routes under /reports/ and the customers
 * list, without path parameters.
 */
export async function reportTargets(api: ApiClient, today: string): Promise<ReportTarget[]> {
  const document = JSON.parse(await api.read('/openapi.json')) as {
    paths: Record<string, { get?: OpenApiOperation }>;
  };
  const known = queries(today);
  return Object.entries(document.paths)
    .filter(
      ([path, item]) =>
        item.get && !path.includes('{') && (path.startsWith('/reports/') || path === '/customers'),
    )
    .map(([path, item]) => {
      const required = (item.get?.parameters ?? []).filter((p) => p.in === 'query' && p.required);
      const query = known[path];
      if (query === undefined && required.length > 0)
        throw new Error(
          `${path} needs ${required.map((p) => p.name).join(', ')}: add a query for it in bench/reports.ts`,
        );
      return { path, query: query ?? '' };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}

export const targetUrl = (target: ReportTarget) =>
  target.query ? `${target.path}?${target.query}` : target.path;

export interface LoadFigures {
  p50: number;
  p99: number;
  requestsPerSecond: number;
  /** Answers the percentiles rest on. */
  answered: number;
  /** Answers other than 2xx, and connection errors or time-outs. */
  failures: number;
}

export interface ReportFigures {
  target: ReportTarget;
  bytes: number;
  single: Timing;
  loaded: LoadFigures;
}

export interface Reflection {
  /** From the last write's answer until every report had answered once, in order. */
  totalMs: number;
  /** The server's resident memory (bytes) before the first report call. */
  rssBefore: number;
  /** Each report's first answer after the writes, and the server's resident memory after it. */
  /** `deadlines`: the 503 answers at the request deadline before the report answered. */
  firstCalls: { target: ReportTarget; ms: number; rss: number; deadlines: number }[];
}

/** 503 answers at the request deadline taken before a first report call counts as failed. */
const MAX_DEADLINES = 10;

/**
 * Asks every report once, right after the last write: the first call recomputes the metrics
 * of every changed customer and builds the snapshot, so its answer (and every later one)
 * holds the final figures. The total is the time until every report reflects the data.
 */
export async function reflect(
  api: ApiClient,
  targets: readonly ReportTarget[],
  rss: () => number,
): Promise<Reflection> {
  const rssBefore = rss();
  const started = process.hrtime.bigint();
  const firstCalls: Reflection['firstCalls'] = [];
  for (const target of targets) {
    const start = process.hrtime.bigint();
    // A report past the request deadline is answered 503 while its work goes on: it is
    // called again, and its time is until it answers.
    let deadlines = 0;
    for (;;) {
      const { status, text } = await api.get(targetUrl(target));
      if (status === 200) break;
      if (status !== 503 || ++deadlines > MAX_DEADLINES)
        throw new Error(`GET ${targetUrl(target)}: ${status} ${text.slice(0, 300)}`);
    }
    firstCalls.push({ target, ms: msSince(start), rss: rss(), deadlines });
  }
  return { totalMs: msSince(started), rssBefore, firstCalls };
}

export interface ReportSettings {
  single: { minSamples: number; maxSamples: number; budgetMs: number };
  /** Concurrent clients, and seconds per report or, when given, a number of requests. */
  load: { connections: number; seconds: number; requests?: number | undefined };
}

/**
 * A report too slow for each connection to get two answers in the load test's seconds gets
 * one request per connection instead, so that its percentiles rest on finished requests.
 */
function loadFor(singleMs: number, load: ReportSettings['load']): ReportSettings['load'] {
  const slow = singleMs * load.connections * 2 > load.seconds * 1000;
  return load.requests === undefined && slow ? { ...load, requests: load.connections } : load;
}

/** autocannon on one report: `connections` clients for `seconds`, or for a number of requests. */
export async function underLoad(
  api: ApiClient,
  target: ReportTarget,
  load: ReportSettings['load'],
): Promise<LoadFigures> {
  const result = await autocannon({
    url: `${api.url}${targetUrl(target)}`,
    headers: api.headers,
    connections: load.connections,
    duration: load.seconds,
    // A slow report's last answers wait for all the others: a long time-out, so they are not lost.
    timeout: 600,
    // A run ends on a sample tick: short runs sample often so that they do not wait up to a second.
    ...(load.requests === undefined ? {} : { amount: load.requests, sampleInt: 50 }),
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    requestsPerSecond: result.requests.total / result.duration,
    answered: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * Warm latency: one client calling again and again, then concurrent clients; `settle` waits
 * until the server has finished every request the load test left behind.
 */
export async function measureReport(
  api: ApiClient,
  target: ReportTarget,
  settings: ReportSettings,
  settle: () => Promise<void>,
): Promise<ReportFigures> {
  const url = targetUrl(target);
  const body = await api.read(url);
  const single = await timeSequential(() => api.read(url), settings.single);
  const loaded = await underLoad(api, target, loadFor(single.p50, settings.load));
  await settle();
  return { target, bytes: Buffer.byteLength(body), single, loaded };
}
