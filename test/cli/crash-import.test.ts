import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer, stopServer, storeEnv } from '../helpers/server-process.js';
import { createTestLocation, openLocationDb, STORE_KINDS, type TestLocation } from '../helpers/stores.js';

const ROUNDS = 3;
const INVOICES = 10_000;
const PER_REQUEST = 500;
const CUSTOMERS = 1_000;
const LINES_PER_INVOICE = 2;

function invoicesOf(round: number, batch: number) {
  return Array.from({ length: PER_REQUEST }, (_, i) => {
    const n = batch * PER_REQUEST + i;
    return {
      id: `r${round}-in${n}`,
      customer_id: `c${n % CUSTOMERS}`,
      date: '2026-01-15',
      currency: 'usd',
      lines: [
        { plan_id: 'pro', amount: 1000, period_start: '2026-01-15', period_end: '2026-02-15' },
        { type: 'one_time', amount: 500, description: 'Setup' },
      ],
      transactions: [{ id: 't1', date: '2026-01-15', type: 'payment', result: 'successful', amount: 1500 }],
    };
  });
}

async function post(server: ServerProcess, key: string, path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/**
 * Imports 10,000 invoices, one request after the other, and kills the server with SIGKILL at a
 * random moment after `killAfter` requests were answered: most often while the next one is
 * inside its transaction. Returns the invoice ids acknowledged.
 */
async function importUntilKilled(server: ServerProcess, key: string, round: number, killAfter: number) {
  const acknowledged: string[] = [];
  try {
    for (let batch = 0; batch < INVOICES / PER_REQUEST; batch++) {
      const invoices = invoicesOf(round, batch);
      const { status, body } = await post(server, key, '/data/invoices', invoices);
      expect(status, JSON.stringify(body)).toBe(200);
      const results = (body as { result: { id: string; import_status: string }[] }).result;
      expect(results.every((item) => item.import_status === 'inserted')).toBe(true);
      acknowledged.push(...invoices.map((invoice) => invoice.id));
      if (batch + 1 === killAfter) setTimeout(() => server.child.kill('SIGKILL'), Math.random() * 200);
    }
  } catch (error) {
    // fetch fails with a TypeError when the connection dies with the server: what was answered
    // before is what must be there.
    if (!(error instanceof TypeError && server.child.killed)) throw error;
  }
  await server.exited;
  return acknowledged;
}

describe.each(STORE_KINDS)('kill -9 during an import on %s', (kind) => {
  let location: TestLocation;

  beforeAll(async () => {
    location = await createTestLocation(kind);
  });
  afterAll(() => location.drop());

  // About a minute per store on two busy cores, most of it in the four starts.
  it(`keeps every acknowledged invoice whole and no invoice partial, ${ROUNDS} times`, async () => {
    const env = storeEnv(location);
    let server = await startServer(env);
    const key = server.adminKey!;
    // Once, before the first round: the invoices of every round bill these.
    const plan = { id: 'pro', name: 'Pro', billing_freq: 'month', currency: 'usd' };
    expect((await post(server, key, '/data/plans', [plan])).status).toBe(200);
    const customers = Array.from({ length: CUSTOMERS }, (_, n) => ({ id: `c${n}`, name: `Customer ${n}` }));
    expect((await post(server, key, '/data/customers', customers)).status).toBe(201);
    const acknowledged: string[] = [];
    const killedAfter: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const killAfter = 1 + Math.floor(Math.random() * (INVOICES / PER_REQUEST - 2));
      killedAfter.push(killAfter);
      acknowledged.push(...(await importUntilKilled(server, key, round, killAfter)));
      // Right away, on the same store, with no repair.
      server = await startServer(env);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    }
    expect((await stopServer(server)).code).toBe(0);

    const db = await openLocationDb(location);
    try {
      const stored = await db.query<{ invoice_id: string; lines: number; transactions: number }>(
        `select i.invoice_id,
                (select count(*) from invoice_lines l
                  where (l.account_id, l.data_source_id, l.invoice_id) = (i.account_id, i.data_source_id, i.invoice_id))::int as lines,
                (select count(*) from invoice_transactions t
                  where (t.account_id, t.data_source_id, t.invoice_id) = (i.account_id, i.data_source_id, i.invoice_id))::int as transactions
           from invoices i`,
      );
      const context = `killed after ${killedAfter.join(', ')} acknowledged requests`;
      const partial = stored.filter((row) => row.lines !== LINES_PER_INVOICE || row.transactions !== 1);
      expect(partial, context).toEqual([]);
      const storedIds = new Set(stored.map((row) => row.invoice_id));
      expect(
        acknowledged.filter((id) => !storedIds.has(id)),
        context,
      ).toEqual([]);
      expect(acknowledged.length).toBeGreaterThanOrEqual(ROUNDS * PER_REQUEST);
    } finally {
      await db.close();
    }
  }, 240_000);
});
