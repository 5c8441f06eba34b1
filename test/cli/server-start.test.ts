import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestLocation, STORE_KINDS, type TestLocation } from '../helpers/stores.js';

interface Started {
  child: ChildProcess;
  output: string;
  url: string;
}

/** Starts the real entry point as the README does, and waits until it says where it listens. */
function startServer(env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // The banner, with the first-start key when there is one, is written in one piece.
      const url = /running at (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolve({ child, output, url });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

function stop(started: Started): Promise<void> {
  return new Promise((resolve) => {
    started.child.removeAllListeners('exit');
    started.child.on('exit', () => resolve());
    started.child.kill('SIGTERM');
  });
}

describe.each(STORE_KINDS)('the server process on %s', (kind) => {
  let location: TestLocation;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    location = await createTestLocation(kind);
    env =
      'databaseUrl' in location.location
        ? { DATABASE_URL: location.location.databaseUrl }
        : { DATA_DIR: location.location.dataDir, DATABASE_URL: '' };
  });
  afterAll(() => location.drop());

  it('prints an admin key on the first start only, and keeps data across a restart', async () => {
    const first = await startServer(env);
    const key = /\n {2}(mrr_\S+)\n/.exec(first.output)?.[1];
    expect(key, first.output).toBeDefined();
    const headers = { authorization: `Bearer ${key}` };
    const created = await fetch(`${first.url}/data/data-sources`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Books', type: 'csv' }),
    });
    expect(created.status).toBe(201);
    await stop(first);

    const second = await startServer(env);
    try {
      expect(second.output).not.toContain('mrr_');
      const listed = await fetch(`${second.url}/v1/data/data-sources`, { headers });
      expect(
        ((await listed.json()) as { result: { name: string }[] }).result.map((source) => source.name),
      ).toEqual(['Books']);
      expect((await fetch(`${second.url}/health`)).status).toBe(200);
    } finally {
      await stop(second);
    }
  });
});
