import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeRecurly, startFakeRecurly } from '../fakes/recurly-server.js';
import { recurlyData } from '../helpers/recurly-account.js';
import { type ServerProcess, startServer, stopServer, storeEnv } from '../helpers/server-process.js';
import { dataRecords, generateAccount } from '../helpers/stripe-account.js';
import { createTestLocation, STORE_KINDS, type TestLocation } from '../helpers/stores.js';

const API_KEY = 'recurly_private_restart';
const MRR_URL = '/reports/mrr?date=20251101-20261122&interval=month';

async function request(server: ServerProcess, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on the parsed body
  return { status: response.status, body: (await response.json()) as any };
}

/**
 * The server as deployed (src/main.ts, RECURLY_API_* from the environment) importing from the
 * fake Recurly, killed in the middle of the invoices: the next process resumes from the stored
 * `next` link.
 */
describe.each(STORE_KINDS)('a Recurly import killed with SIGKILL on %s', (kind) => {
  const customers = generateAccount(250, '2026-11-23', 99);
  let location: TestLocation;
  let fake: FakeRecurly;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    location = await createTestLocation(kind);
    // Slow enough that the kill lands between invoice pages (200 invoices a page).
    fake = await startFakeRecurly(recurlyData(customers), API_KEY, { latencyMs: 250 });
    env = {
      ...storeEnv(location),
      SECRETS_KEY: randomBytes(32).toString('hex'),
      RECURLY_API_HOST: '127.0.0.1',
      RECURLY_API_PORT: fake.url.port,
      RECURLY_API_PROTOCOL: 'http',
    };
  });
  afterAll(async () => {
    await fake.close();
    await location.drop();
  });

  it('resumes after the restart from its last stored page and ends with the uninterrupted figures', async () => {
    const first = await startServer(env);
    const key = first.adminKey!;
    const source = await request(first, key, 'POST', '/data/data-sources', {
      name: 'Recurly',
      type: 'processor-c',
    });
    const id = source.body.id as string;
    const progressUrl = `/data/data-sources/${id}/progress`;
    const connected = await request(first, key, 'POST', `/data/data-sources/${id}/connect`, {
      api_key: API_KEY,
    });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);

    // Kill once an invoice page is stored.
    await expect
      .poll(async () => (await request(first, key, 'GET', progressUrl)).body.percent, {
        timeout: 60_000,
        interval: 50,
      })
      .toBe(75);
    const beforeInvoices = (await request(first, key, 'GET', progressUrl)).body.processedCount as number;
    await expect
      .poll(async () => (await request(first, key, 'GET', progressUrl)).body.processedCount, {
        timeout: 60_000,
        interval: 50,
      })
      .toBeGreaterThan(beforeInvoices);
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
      const resumed = fake.requests.slice(before);
      // Nothing before the invoices was read again, and the invoices went on from a next link.
      expect(resumed.filter((line) => !line.startsWith('GET /invoices'))).toEqual([]);
      expect(resumed[0]).toMatch(/^GET \/invoices\?.*cursor=/);

      const posted = dataRecords(customers);
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
  }, 300_000);
});
