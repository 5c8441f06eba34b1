import { DATA_AGE_HEADER } from '../src/api/read-freshness-header.js';
import { dayNumber, dayString } from '../src/engine/days.js';
import { shiftMonths } from '../src/engine/periods.js';
import type { ApiClient } from './api-client.js';
import { TIERS } from './catalog.js';
import type { CustomerPayload, InvoicePayload } from './payloads.js';
import { type ReportTarget, targetUrl } from './reports.js';
import { msSince, percentile } from './stats.js';

/** What each write adds to today's MRR: one Starter seat, monthly, in US cents (the base currency). */
export const WRITE_MRR = TIERS[0]!.monthlyUsCents;
const PLAN = `${TIERS[0]!.id}-month-usd`;

/** The reports the stream's clients read, one after the other. */
export const STREAM_PATHS = ['/reports/summary', '/reports/mrr'];
export const WRITES_PER_SECOND = 50;
/**
 * Rounds of one write and every report after it, each after the server settled: one round moved
 * by more than the changes it was meant to show on a 2-core machine.
 */
export const EVERY_REPORT_ROUNDS = 3;
/** A write the summary does not show after this long is a failure of the run, not a figure. */
const FRESH_TIMEOUT_MS = 60_000;
const CUSTOMERS_PER_BODY = 5_000;
const SAMPLE_MS = 20;
/** The pause before a report that answered aged data is called again. */
const RETRY_MS = 10;

export interface FreshnessSettings {
  /** Single writes, each followed by summary calls until it shows. */
  writes: number;
  /** Seconds of the write stream, and of the reads meanwhile. */
  seconds: number;
  /** Clients reading during the stream. */
  clients: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One write and the summary calls after its answer until one showed it. */
export interface FreshWrite {
  writeMs: number;
  /** From the write's answer to the answer of the first summary that showed it. */
  freshMs: number;
  /** Summary calls until then (1 when the first showed it). */
  reads: number;
  /** Whether any of those answers came from the previous snapshot (carried the data-age header). */
  aged: boolean;
}

/** The answers to one report during the stream. */
export interface StreamReads {
  target: ReportTarget;
  p50: number;
  p99: number;
  answered: number;
  /** Answers that carried the data-age header, and the largest age they gave, in seconds. */
  aged: number;
  maxAgeSeconds: number;
}

/** One write, then every report called at once, each until it answered without the data-age header. */
export interface EveryReportFresh {
  writeMs: number;
  /** From the write's answer to the last report's fresh answer. */
  freshMs: number;
  /** The report that answered last. */
  slowest: ReportTarget;
}

export interface FreshnessFigures {
  single: FreshWrite[];
  /** EVERY_REPORT_ROUNDS rounds, in the order run. */
  everyReport: EveryReportFresh[];
  stream: {
    writes: number;
    /** From the first write sent to the last write answered. */
    seconds: number;
    /** Each write's answer time, from its sending. */
    write: { p50: number; p99: number };
    reads: StreamReads[];
    /** A write sent once the stream's writes were answered, until the summary showed them all. */
    marker: FreshWrite;
  };
  /** The server's resident memory (bytes) before the phase, and the most seen during it. */
  rssBefore: number;
  rssPeak: number;
}

/** The part of ApiClient the phase uses: a test may stand in for the server. */
export type FreshnessApi = Pick<ApiClient, 'answer' | 'write'>;

/** A lead of `today` without invoices, `cus_fresh_<index>`: it leaves the MRR as it is. */
export const freshCustomer = (index: number, today: string): CustomerPayload => ({
  id: `cus_fresh_${index}`,
  name: `Fresh ${index}`,
  email: `billing@fresh-${index}.example.com`,
  created_date: `${today}T00:00:00Z`,
  country: 'US',
  currency: 'usd',
  custom_variables: {},
});

/** A paid invoice of one month of Starter that starts `today`: it adds WRITE_MRR to today's MRR. */
export function freshInvoice(customerId: string, today: string): InvoicePayload {
  const end = dayString(shiftMonths(dayNumber(today), 1));
  return {
    id: `in_${customerId}`,
    customer_id: customerId,
    date: today,
    due_date: today,
    currency: 'usd',
    status: 'paid',
    number: `INV-${customerId}`,
    payment_date: today,
    amount: WRITE_MRR,
    lines: [
      {
        type: 'subscription',
        subscription_id: `sub_${customerId}`,
        plan_id: PLAN,
        description: 'Starter x 1',
        amount: WRITE_MRR,
        quantity: 1,
        period_start: today,
        period_end: end,
        discount: 0,
        tax: 0,
        prorated: false,
      },
    ],
    transactions: [],
  };
}

/** Today's MRR as /reports/summary answers it, and whether it answered from the previous snapshot. */
export async function summaryMrr(api: FreshnessApi): Promise<{ mrr: number; aged: boolean }> {
  const { text, headers } = await api.answer('/reports/summary');
  const { summary } = JSON.parse(text) as { summary: { mrr_current: number } };
  return { mrr: summary.mrr_current, aged: headers.has(DATA_AGE_HEADER) };
}

/** Calls the summary until today's MRR is `expected`; timed from the call. */
export async function untilMrr(
  api: FreshnessApi,
  expected: number,
  timeoutMs = FRESH_TIMEOUT_MS,
): Promise<Omit<FreshWrite, 'writeMs'>> {
  const started = process.hrtime.bigint();
  let reads = 0;
  let aged = false;
  for (;;) {
    const answer = await summaryMrr(api);
    reads += 1;
    aged ||= answer.aged;
    if (answer.mrr === expected) return { freshMs: msSince(started), reads, aged };
    if (msSince(started) > timeoutMs)
      throw new Error(
        `/reports/summary showed MRR ${answer.mrr}, not ${expected}, ${timeoutMs} ms after the write`,
      );
  }
}

/** Writes one invoice adding WRITE_MRR, then calls the summary until today's MRR is `expected`. */
export async function writeToFresh(
  api: FreshnessApi,
  customerId: string,
  today: string,
  expected: number,
): Promise<FreshWrite> {
  const started = process.hrtime.bigint();
  await api.write('/data/invoices', [freshInvoice(customerId, today)]);
  const writeMs = msSince(started);
  return { writeMs, ...(await untilMrr(api, expected)) };
}

/**
 * One write, then every report at once, as a dashboard asks: each is called again until an
 * answer carries no data-age header, so holds every write committed before it.
 */
export async function everyReportFresh(
  api: FreshnessApi,
  customerId: string,
  today: string,
  targets: readonly ReportTarget[],
): Promise<EveryReportFresh> {
  const started = process.hrtime.bigint();
  await api.write('/data/invoices', [freshInvoice(customerId, today)]);
  const writeMs = msSince(started);
  const answered = process.hrtime.bigint();
  let failed = false;
  const times = await Promise.all(
    targets.map(async (target) => {
      while (!failed) {
        const { headers } = await api.answer(targetUrl(target));
        if (!headers.has(DATA_AGE_HEADER)) return msSince(answered);
        if (msSince(answered) > FRESH_TIMEOUT_MS) {
          failed = true;
          throw new Error(`${target.path} still answered aged data ${FRESH_TIMEOUT_MS} ms after the write`);
        }
        // An aged answer can come at once: calling again at once would only load the build.
        await sleep(RETRY_MS);
      }
      return Number.NaN;
    }),
  );
  const last = times.indexOf(Math.max(...times));
  return { writeMs, freshMs: times[last]!, slowest: targets[last]! };
}

/**
 * Sends one invoice every 1/WRITES_PER_SECOND s, each when its time comes whether the previous
 * one was answered or not (a steady stream, as many writers would make), while `clients` read
 * the targets in turn until the last write is answered.
 */
export async function stream(
  api: FreshnessApi,
  customerIds: readonly string[],
  today: string,
  targets: readonly ReportTarget[],
  clients: number,
): Promise<{ seconds: number; write: { p50: number; p99: number }; reads: StreamReads[] }> {
  const answers = targets.map(() => ({ ms: [] as number[], ages: [] as number[] }));
  let writing = true;
  const read = async (client: number) => {
    for (let call = client; writing; call++) {
      const index = call % targets.length;
      const started = process.hrtime.bigint();
      const { headers } = await api.answer(targetUrl(targets[index]!));
      answers[index]!.ms.push(msSince(started));
      const age = headers.get(DATA_AGE_HEADER);
      if (age !== null) answers[index]!.ages.push(Number(age));
    }
  };
  const readers = Promise.all(Array.from({ length: clients }, (_, client) => read(client)));
  const writes: Promise<void>[] = [];
  const writeMs: number[] = [];
  const failures: Error[] = [];
  const started = process.hrtime.bigint();
  try {
    for (const id of customerIds) {
      await sleep(Math.max(0, (writes.length * 1000) / WRITES_PER_SECOND - msSince(started)));
      const sent = process.hrtime.bigint();
      // Caught at once: a write failing while later ones are sent is no unhandled rejection.
      const write = api.write('/data/invoices', [freshInvoice(id, today)]).then(
        () => {
          writeMs.push(msSince(sent));
        },
        (error: unknown) => {
          failures.push(error instanceof Error ? error : new Error(String(error)));
        },
      );
      writes.push(write);
    }
    await Promise.all(writes);
    if (failures[0]) throw failures[0];
  } finally {
    writing = false;
    await readers;
  }
  const seconds = msSince(started) / 1000;
  const reads = targets.map((target, index): StreamReads => {
    const { ms, ages } = answers[index]!;
    return {
      target,
      p50: percentile(ms, 0.5),
      p99: percentile(ms, 0.99),
      answered: ms.length,
      aged: ages.length,
      maxAgeSeconds: Math.max(0, ...ages),
    };
  });
  return { seconds, write: { p50: percentile(writeMs, 0.5), p99: percentile(writeMs, 0.99) }, reads };
}

/**
 * Write-to-fresh on the warm server: its own customers first (leads, which leave the MRR as it
 * is), then single invoices, each followed by summary calls until the MRR shows it, then one
 * followed by every report at once, then a stream of invoices while clients read, and a marker
 * invoice after it.
 */
export async function measureFreshness(
  api: FreshnessApi,
  settings: FreshnessSettings,
  today: string,
  targets: readonly ReportTarget[],
  server: { rss: () => number; settle: () => Promise<void> },
): Promise<FreshnessFigures> {
  const streamWrites = Math.round(settings.seconds * WRITES_PER_SECOND);
  const customers = Array.from(
    { length: settings.writes + EVERY_REPORT_ROUNDS + streamWrites + 1 },
    (_, index) => freshCustomer(index + 1, today),
  );
  const ids = customers.map((item) => item.id);
  const read = STREAM_PATHS.map((path) => {
    const target = targets.find((item) => item.path === path);
    if (!target) throw new Error(`the server offers no ${path} to read during the write stream`);
    return target;
  });
  const rssBefore = server.rss();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, server.rss())), SAMPLE_MS);
  try {
    for (let start = 0; start < customers.length; start += CUSTOMERS_PER_BODY)
      await api.write('/data/customers', customers.slice(start, start + CUSTOMERS_PER_BODY));
    await server.settle();
    // Leads without invoices: even an answer from the snapshot before them has today's MRR.
    let expected = (await summaryMrr(api)).mrr;
    const single: FreshWrite[] = [];
    for (const id of ids.slice(0, settings.writes)) {
      expected += WRITE_MRR;
      single.push(await writeToFresh(api, id, today, expected));
    }
    const everyReport: EveryReportFresh[] = [];
    for (const id of ids.slice(settings.writes, settings.writes + EVERY_REPORT_ROUNDS)) {
      await server.settle();
      everyReport.push(await everyReportFresh(api, id, today, targets));
    }
    const streamIds = ids.slice(settings.writes + EVERY_REPORT_ROUNDS, -1);
    const streamed = await stream(api, streamIds, today, read, settings.clients);
    expected += WRITE_MRR * (EVERY_REPORT_ROUNDS + streamIds.length + 1);
    const marker = await writeToFresh(api, ids.at(-1)!, today, expected);
    return {
      single,
      everyReport,
      stream: { writes: streamIds.length, ...streamed, marker },
      rssBefore,
      rssPeak,
    };
  } finally {
    clearInterval(sampler);
  }
}
