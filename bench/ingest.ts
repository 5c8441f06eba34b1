import type { ApiClient } from './api-client.js';
import { generateAccount, generatePlans, type GeneratorOptions } from './generate.js';
import type { CustomerRecords } from './payloads.js';

export interface IngestSettings {
  /** Items per request body (the API takes at most 10,000). */
  batch: number;
  /** Requests in flight at once. */
  concurrency: number;
  onProgress?: (customers: number) => void;
}

export interface DataCounts {
  plans: number;
  customers: number;
  invoices: number;
  lines: number;
  transactions: number;
  subscriptions: number;
}

export interface IngestResult {
  counts: DataCounts;
  requests: number;
  seconds: number;
}

/** Runs at most `max` tasks at once; a failure stops the next submission. */
class Limiter {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  private readonly running: Promise<void>[] = [];
  private failure: Error | undefined = undefined;

  constructor(private readonly max: number) {}

  async submit(task: () => Promise<void>): Promise<void> {
    while (this.active >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
    if (this.failure !== undefined) throw this.failure;
    this.active += 1;
    this.running.push(
      task()
        .catch((error: unknown) => {
          this.failure ??= error instanceof Error ? error : new Error(String(error));
        })
        .finally(() => {
          this.active -= 1;
          this.queue.shift()?.();
        }),
    );
  }

  async drain(): Promise<void> {
    await Promise.all(this.running);
    if (this.failure !== undefined) throw this.failure;
  }
}

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

/**
 * Loads a generated account through the public API: plans, then customers in bodies of
 * `batch`, each body's invoices and subscriptions once its customers are stored, with at most
 * `concurrency` requests in flight. Timed from the first request to the last answer.
 */
export async function ingest(
  api: ApiClient,
  options: GeneratorOptions,
  settings: IngestSettings,
): Promise<IngestResult> {
  const counts: DataCounts = {
    plans: 0,
    customers: 0,
    invoices: 0,
    lines: 0,
    transactions: 0,
    subscriptions: 0,
  };
  const limiter = new Limiter(settings.concurrency);
  let requests = 0;
  const send = (path: string, items: readonly unknown[]) => {
    requests += 1;
    return api.write(path, items);
  };
  const started = process.hrtime.bigint();

  const plans = generatePlans();
  await send('/data/plans', plans);
  counts.plans = plans.length;

  let pending: CustomerRecords[] = [];
  const flush = async () => {
    const group = pending;
    pending = [];
    // Invoices and subscriptions name their customer, so the customers go first and are awaited.
    await send(
      '/data/customers',
      group.map((records) => records.customer),
    );
    const invoices = group.flatMap((records) => records.invoices);
    const subscriptions = group.flatMap((records) => records.subscriptions);
    for (const body of chunks(invoices, settings.batch))
      await limiter.submit(() => send('/data/invoices', body));
    for (const body of chunks(subscriptions, settings.batch))
      await limiter.submit(() => send('/data/subscriptions', body));
    counts.customers += group.length;
    counts.invoices += invoices.length;
    counts.lines += invoices.reduce((sum, invoice) => sum + invoice.lines.length, 0);
    counts.transactions += invoices.reduce((sum, invoice) => sum + invoice.transactions.length, 0);
    counts.subscriptions += subscriptions.length;
    settings.onProgress?.(counts.customers);
  };
  for (const records of generateAccount(options)) {
    pending.push(records);
    if (pending.length === settings.batch) await flush();
  }
  if (pending.length > 0) await flush();
  await limiter.drain();
  return { counts, requests, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}
