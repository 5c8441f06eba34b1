import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer, stopServer, storeEnv } from '../helpers/server-process.js';
import { createTestLocation, type TestLocation } from '../helpers/stores.js';

const SHUTDOWN_TIMEOUT_MS = 1_500;

/** Opens a raw connection to the server and collects what it answers until it closes. */
function rawConnection(url: string): { socket: Socket; closed: Promise<string> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString();
  });
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  socket.on('error', () => {});
  return { socket, closed };
}

// These limits and timeouts do not depend on the store; PGlite is the one a lock concerns.
describe('a server process with small limits and timeouts', () => {
  let location: TestLocation;
  let server: ServerProcess;

  beforeAll(async () => {
    location = await createTestLocation('pglite');
    server = await startServer({
      ...storeEnv(location),
      HEADERS_TIMEOUT_MS: '500',
      RATE_LIMIT_PER_MINUTE: '60',
      RATE_LIMIT_BURST: '5',
      AUTH_FAILURES_PER_MINUTE: '3',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    });
  });
  afterAll(async () => {
    if (server.child.exitCode === null) await stopServer(server);
    await location.drop();
  });

  it('limits a key and failed authentications as the environment says', async () => {
    const get = (key: string) =>
      fetch(`${server.url}/account/profile`, { headers: { authorization: `Bearer ${key}` } });
    const keyStatuses = [];
    for (let i = 0; i < 6; i++) keyStatuses.push((await get(server.adminKey!)).status);
    expect(keyStatuses).toEqual([200, 200, 200, 200, 200, 429]);
    const failureStatuses = [];
    for (let i = 0; i < 4; i++) failureStatuses.push((await get('mrr_wrong')).status);
    expect(failureStatuses).toEqual([401, 401, 401, 429]);
    const limited = await get('mrr_wrong');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toEqual({ error: 'Too many failed authentications from this address' });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('cuts off a client that sends its headers too slowly', async () => {
    const { socket, closed } = rawConnection(server.url);
    socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n');
    const started = performance.now();
    const drip = setInterval(() => socket.write('X-Slow: 1\r\n'), 100);
    const answer = await closed;
    clearInterval(drip);
    // Headers timeout (0.5 s) plus at most one check interval (0.5 s), with room for a busy machine.
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(answer).toMatch(/^HTTP\/1.1 408 /);
    expect(answer).toContain(
      '{"error":"Request timeout: the request headers or body did not arrive in time"}',
    );
  });

  it('exits within SHUTDOWN_TIMEOUT_MS of SIGTERM while a request is stuck', async () => {
    // The first test emptied the key's bucket; at 60 a minute it regains a request each second.
    await sleep(1_100);
    const { socket } = rawConnection(server.url);
    // Headers complete, body never: the request stays in flight, and close() would wait on it.
    socket.write(
      `POST /data/customers HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${server.adminKey}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n[',
    );
    await sleep(300);
    const started = performance.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    const elapsed = performance.now() - started;
    socket.destroy();
    expect(exit.code).toBe(1);
    expect(server.output).toContain(
      `Not stopped within ${SHUTDOWN_TIMEOUT_MS} ms (SHUTDOWN_TIMEOUT_MS): exiting anyway`,
    );
    expect(elapsed).toBeGreaterThanOrEqual(SHUTDOWN_TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 2_000);
  });
});

describe('the PGlite data directory lock of a server process', () => {
  let location: TestLocation;
  let env: NodeJS.ProcessEnv;
  const lockFile = () => join((location.location as { dataDir: string }).dataDir, 'mrrlytics.lock');

  beforeAll(async () => {
    location = await createTestLocation('pglite');
    env = storeEnv(location);
  });
  afterAll(() => location.drop());

  it('is taken over by a start right after kill -9 of its owner', async () => {
    const killed = await startServer(env);
    killed.child.kill('SIGKILL');
    const restarted = await startServer(env);
    try {
      expect((await fetch(`${restarted.url}/health`)).status).toBe(200);
    } finally {
      expect((await stopServer(restarted)).code).toBe(0);
    }
    expect((await killed.exited).signal).toBe('SIGKILL');
  }, 120_000);

  it('is taken over when its pid now belongs to an unrelated live process', async () => {
    const unrelated = spawn('sleep', ['60']);
    try {
      // What a killed server leaves when the system has since given its pid to another process:
      // the pid is alive, the start time recorded beside it is not that process's.
      writeFileSync(lockFile(), `${unrelated.pid} 1`);
      const server = await startServer(env);
      expect(readFileSync(lockFile(), 'utf8')).toMatch(new RegExp(`^${server.child.pid} \\d+$`));
      expect((await stopServer(server)).code).toBe(0);
    } finally {
      unrelated.kill();
    }
  }, 60_000);
});
