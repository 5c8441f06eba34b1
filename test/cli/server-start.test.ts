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
});
