import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, stopServer, storeEnv } from '../helpers/server-process.js';
import { createTestLocation, STORE_KINDS, type TestLocation } from '../helpers/stores.js';

describe.each(STORE_KINDS)('the server process on %s', (kind) => {
  let location: TestLocation;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    location = await createTestLocation(kind);
    env = storeEnv(location);
  });
  afterAll(() => location.drop());

  // Two starts, the first creating the store: on PGlite and two busy cores, up to a minute.
  it('prints an admin key on the first start only, and keeps data across a restart', async () => {
    const first = await startServer(env);
    expect(first.adminKey, first.output).toBeDefined();
    const headers = { authorization: `Bearer ${first.adminKey}` };
    const created = await fetch(`${first.url}/data/data-sources`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Books', type: 'csv' }),
    });
    expect(created.status).toBe(201);
    expect(await stopServer(first)).toEqual({ code: 0, signal: null });

    const second = await startServer(env);
    try {
      expect(second.output).not.toContain('mrr_');
      const listed = await fetch(`${second.url}/v1/data/data-sources`, { headers });
      expect(
        ((await listed.json()) as { result: { name: string }[] }).result.map((source) => source.name),
      ).toEqual(['Books']);
      expect((await fetch(`${second.url}/health`)).status).toBe(200);
    } finally {
      await stopServer(second);
    }
  }, 120_000);

  it('logs a fault nothing caught, then exits with status 1', async () => {
    // Loaded before the server: a signal whose handler throws, as a bug in a callback would.
    const dir = mkdtempSync(join(tmpdir(), 'mrrlytics-fault-'));
    const fault = join(dir, 'fault.mjs');
    writeFileSync(fault, "process.on('SIGUSR2', () => { throw new Error('a fault nothing caught'); });\n");
    try {
      const server = await startServer({ ...env, NODE_OPTIONS: `--import ${fault}` });
      server.child.kill('SIGUSR2');
      expect(await server.exited).toEqual({ code: 1, signal: null });
      const logged = server.output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string } });
      expect(logged).toContainEqual(
        expect.objectContaining({
          level: 60,
          msg: 'uncaughtException: the process ends',
          err: expect.objectContaining({ message: 'a fault nothing caught' }),
        }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
