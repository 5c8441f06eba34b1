import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer, stopServer, storeEnv } from '../helpers/server-process.js';
import { createTestLocation, STORE_KINDS, type TestLocation } from '../helpers/stores.js';

async function until(check: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The workers the primary reported listening, in order, replacements included. */
const listening = (output: string) =>
  [...output.matchAll(/^Worker (\d+) is listening$/gm)].map((match) => Number(match[1]));

interface Answer {
  status: number;
  body: unknown;
  /** The client's port of the connection: the request log of the worker that took it names it. */
  port: number;
}

/**
 * One request on a connection of its own (no keep-alive agent): the primary hands each new
 * connection to the next worker, so calls one after the other reach the workers in turn.
 */
function call(url: string, key: string, method: string, path: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(`${url}${path}`, {
      method,
      agent: false,
      headers: {
        authorization: `Bearer ${key}`,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
    });
    let port = 0;
    req.on('socket', (socket) => socket.on('connect', () => (port = socket.localPort ?? 0)));
    req.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text), port }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The pid of the worker whose request log names the client port `port` (pino writes its pid on every line). */
function answeredBy(output: string, port: number): number | undefined {
  const lines = output.split('\n').filter((line) => line.startsWith('{'));
  const entries = lines.map((line) => JSON.parse(line) as { pid: number; req?: { remotePort?: number } });
  return entries.findLast((entry) => entry.req?.remotePort === port)?.pid;
}

// This calendar month, by the server's clock: an invoice for it counts in today's MRR.
const now = new Date();
const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
  .toISOString()
  .slice(0, 10);

describe.skipIf(!STORE_KINDS.includes('postgres'))('WORKERS=2 on PostgreSQL', () => {
  let location: TestLocation;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server && server.child.exitCode === null) await stopServer(server);
    await location.drop();
  });

  it('serves from two workers, shows a write in the next read of each, replaces a dead worker and stops on SIGTERM', async () => {
    location = await createTestLocation('postgres');
    // A new database: both workers migrate and set up the job queue at once.
    server = await startServer({ ...storeEnv(location), WORKERS: '2', LOG_LEVEL: 'info' });
    const started = server;
    await until(() => listening(started.output).length === 2);
    const workers = listening(started.output);
    // One worker creates the account and prints the setup link; a second link would replace it.
    expect(started.output.match(/First start: created the account/g), started.output).toHaveLength(1);
    expect(started.output.match(/\/#\/setup\//g)).toHaveLength(1);

    const key = started.adminKey!;
    const send = (method: string, path: string, body?: unknown) => call(started.url, key, method, path, body);
    const summaries = async (count: number) => {
      const answers: Answer[] = [];
      for (let n = 0; n < count; n++) answers.push(await send('GET', '/reports/summary'));
      // The request logs are written as the answers leave.
      await until(() => answers.every((answer) => answeredBy(started.output, answer.port) !== undefined));
      return answers.map((answer) => ({
        status: answer.status,
        mrr: (answer.body as { summary: { mrr_current: number } }).summary.mrr_current,
        pid: answeredBy(started.output, answer.port),
      }));
    };

    expect(
      (
        await send('POST', '/data/plans', [
          { id: 'pro', name: 'Pro', billing_freq: 'month', currency: 'usd' },
        ])
      ).status,
    ).toBe(200);
    const customer = { id: 'c1', name: 'One', created_date: monthStart };
    expect((await send('POST', '/data/customers', [customer])).status).toBe(201);
    // Each worker builds its own snapshot of the account, without the invoice.
    const before = await summaries(4);
    expect(new Set(before.map((answer) => answer.pid))).toEqual(new Set(workers));
    expect(before.map((answer) => answer.mrr)).toEqual([0, 0, 0, 0]);

    const invoice = {
      id: 'i1',
      customer_id: 'c1',
      date: monthStart,
      currency: 'usd',
      lines: [{ plan_id: 'pro', amount: 4900, period_start: monthStart, period_end: nextMonth }],
    };
    expect((await send('POST', '/data/invoices', [invoice])).status).toBe(200);
    const after = await summaries(4);
    expect(new Set(after.map((answer) => answer.pid))).toEqual(new Set(workers));
    expect(after.map((answer) => [answer.status, answer.mrr])).toEqual(Array(4).fill([200, 4900]));

    process.kill(workers[1]!, 'SIGKILL');
    await until(() => listening(started.output).length === 3);
    expect(started.output).toContain(`Worker ${workers[1]} exited unexpectedly with signal SIGKILL`);
    const replaced = [workers[0], listening(started.output)[2]];
    const again = await summaries(4);
    expect(new Set(again.map((answer) => answer.pid))).toEqual(new Set(replaced));
    expect(again.map((answer) => answer.mrr)).toEqual([4900, 4900, 4900, 4900]);

    expect(await stopServer(started)).toEqual({ code: 0, signal: null });
    for (const pid of replaced) expect(existsSync(`/proc/${pid}`)).toBe(false);
  }, 60_000);
});

describe('WORKERS=2 on the embedded store', () => {
  it('is refused at start with one line naming the setting', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mrrlytics-test-'));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: '0', WORKERS: '2' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(output).toBe(
        'WORKERS=2 needs PostgreSQL (DATABASE_URL): the embedded store can be opened by one process only\n',
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
