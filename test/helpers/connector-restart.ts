import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { StoreKind } from '../../src/store/db.js';
import { MRR_URL } from './connector-tests.js';
import { type ServerProcess, startServer, stopServer, storeEnv } from './server-process.js';
import { createTestLocation, type TestLocation } from './stores.js';
import { type Customer, dataRecords, generateAccount } from './stripe-account.js';

// The restart tests of the connectors: the server as deployed (src/main.ts, the system's API
// address from the environment) importing from a fake, killed with SIGKILL in the middle of the
// invoices, and a second process that resumes from the stored page.

/**
 * The account the restart tests import, billed up to the server's today since it runs on the
 * real clock. After its pages an import re-reads every customer whose last billed period ended
 * before the server's today (docs/connectors.md, "Removed items"); an account billed up to a
 * fixed day would have more of them each day the suite runs, until the re-reads outlast the test.
 */
export function restartAccount(): Customer[] {
  return generateAccount(250, new Date().toISOString().slice(0, 10), 99);
}

export async function request(
  server: ServerProcess,
  key: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on the parsed body
  return { status: response.status, body: (await response.json()) as any };
}

/** The server's environment: the test location, a secrets key, and `<PREFIX>_API_*` naming the fake. */
function restartEnv(location: TestLocation, prefix: string, fake: { url: URL }): NodeJS.ProcessEnv {
  return {
    ...storeEnv(location),
    SECRETS_KEY: randomBytes(32).toString('hex'),
    [`${prefix}_API_HOST`]: '127.0.0.1',
    [`${prefix}_API_PORT`]: fake.url.port,
    [`${prefix}_API_PROTOCOL`]: 'http',
  };
}

export interface RestartSystem {
  env: NodeJS.ProcessEnv;
  fake: { requests: string[] };
}

/**
 * For the describe block on a store kind: before its tests, a fresh test location and the fake
 * (`startFake`), and the environment that points a server at both (`<PREFIX>_API_*` for the
 * fake); after them, both are closed. The returned object is filled in by beforeAll.
 */
export function restartSystem<F extends { url: URL; requests: string[]; close(): Promise<void> }>(
  kind: StoreKind,
  prefix: string,
  startFake: () => Promise<F>,
): RestartSystem & { fake: F } {
  let location: TestLocation;
  const system = {} as RestartSystem & { fake: F };
  beforeAll(async () => {
    location = await createTestLocation(kind);
    system.fake = await startFake();
    system.env = restartEnv(location, prefix, system.fake);
  });
  afterAll(async () => {
    await system.fake.close();
    await location.drop();
  });
  return system;
}

export interface RestartCase {
  system: RestartSystem;
  customers: readonly Customer[];
  source: { name: string; type: string };
  apiKey: string;
  /** What connecting takes besides the key (Chargebee's `site`). */
  connectWith?: Record<string, string>;
  /**
   * Once the import is at the invoices (75 %): the processed count to wait past before the kill,
   * so that some invoice pages are stored. `processed` reads the count now.
   */
  killPast(processed: () => Promise<number>): Promise<number>;
  /** Checks the requests the second process made to the fake. */
  expectResumed(resumed: string[]): void;
}

/**
 * The requests of the import's pages: those before the first customer read (`customerRead`).
 * After its last page an import re-reads the customers whose records outlived their last billed
 * period (docs/connectors.md, "Removed items"), which the server's real clock makes depend on
 * the day the test runs.
 */
export function pageReads(resumed: readonly string[], customerRead: RegExp): string[] {
  const at = resumed.findIndex((line) => customerRead.test(line));
  return at < 0 ? [...resumed] : resumed.slice(0, at);
}

/**
 * Connects a source in a first server process and kills it in the middle of the invoices; a
 * second process ends the import, and its figures are those of the same customers posted
 * through /data.
 */
export async function expectResumesAfterKill(c: RestartCase) {
  const { env, fake } = c.system;
  const first = await startServer(env);
  const key = first.adminKey!;
  const source = await request(first, key, 'POST', '/data/data-sources', c.source);
  const id = source.body.id as string;
  const progressUrl = `/data/data-sources/${id}/progress`;
  const connected = await request(first, key, 'POST', `/data/data-sources/${id}/connect`, {
    api_key: c.apiKey,
    ...c.connectWith,
  });
  expect(connected.status, JSON.stringify(connected.body)).toBe(200);

  // Kill once an invoice page is stored.
  await expect
    .poll(async () => (await request(first, key, 'GET', progressUrl)).body.percent, {
      timeout: 60_000,
      interval: 50,
    })
    .toBe(75);
  const processed = async () => (await request(first, key, 'GET', progressUrl)).body.processedCount as number;
  const past = await c.killPast(processed);
  await expect.poll(processed, { timeout: 60_000, interval: 50 }).toBeGreaterThan(past);
  first.child.kill('SIGKILL');
  await first.exited;
  const before = fake.requests.length;

  const second = await startServer(env);
  try {
    await expect
      .poll(async () => (await request(second, key, 'GET', progressUrl)).body.phase, {
        timeout: 120_000,
        interval: 200,
      })
      .toBe('done');
    c.expectResumed(fake.requests.slice(before));

    const posted = dataRecords(c.customers);
    const other = await request(second, key, 'POST', '/data/data-sources', { name: 'Posted', type: 'api' });
    for (const [path, items] of Object.entries(posted)) {
      const body = (items as object[]).map((item) => ({ ...item, data_source: other.body.id }));
      expect((await request(second, key, 'POST', `/data/${path}`, body)).status).toBeLessThan(300);
    }
    const imported = await request(second, key, 'GET', `${MRR_URL}&data_source=${id}`);
    const direct = await request(second, key, 'GET', `${MRR_URL}&data_source=${other.body.id}`);
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual(direct.body);
    expect(imported.body.result.at(-1).total_mrr).toBeGreaterThan(100_000);
  } finally {
    await stopServer(second);
  }
}
