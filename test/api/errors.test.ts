import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreTimeoutError } from '../../src/services/errors.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

// Error mapping does not depend on the store; PGlite alone keeps this file fast.
describe('error responses', () => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp('pglite', { bodyLimitBytes: 1024 });
    account = await t.newAccount();
  });
  afterAll(() => t.close());

  const post = (payload: string, contentType = 'application/json') =>
    t.call(account.adminKey, {
      method: 'POST',
      url: '/data/data-sources',
      headers: { 'content-type': contentType },
      payload,
    });

  it('answers 404 with {error} to an unknown route', async () => {
    const response = await t.call(account.adminKey, { method: 'GET', url: '/reports/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Route GET /reports/nothing-here not found' });
  });

  it('answers 400 to malformed JSON and stores nothing', async () => {
    const response = await post('{"name": "Books", "type": "csv"');
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/^Malformed JSON body/);
    expect((await t.call(account.adminKey, { method: 'GET', url: '/data/data-sources' })).json()).toEqual({
      result: [],
    });
  });

  it('answers 413 to a body over the limit', async () => {
    const response = await post(JSON.stringify({ name: 'x'.repeat(2000), type: 'csv' }));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'Request body is too large' });
  });

  it('answers 415 to a body that is not JSON', async () => {
    const response = await post('name=x', 'application/x-www-form-urlencoded');
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      error: 'Unsupported content type: send application/json (or text/csv where documented)',
    });
  });

  it('answers 415 to a CSV body on a route that takes only JSON', async () => {
    const response = await post('name,type\nBooks,csv\n', 'text/csv');
    expect(response.statusCode).toBe(415);
    expect((await t.call(account.adminKey, { method: 'GET', url: '/data/data-sources' })).json()).toEqual({
      result: [],
    });
  });

  it('answers 400 naming the field when the body has the wrong shape', async () => {
    const missing = await post(JSON.stringify({ type: 'csv' }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      error: 'Invalid body field "name": Invalid input: expected string, received undefined',
    });
    const array = await post('[1, 2]');
    expect(array.statusCode).toBe(400);
    expect(array.json().error).toMatch(/^Invalid body: /);
  });

  it('treats a JSON content type with an empty body as no body', async () => {
    const response = await post('');
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/^Invalid body: /);
  });

  it('answers 500 "Internal error" without a stack trace when the store fails', async () => {
    const broken = await createTestApp('pglite');
    const other = await broken.newAccount();
    await broken.services.store.close();
    const response = await broken.call(other.adminKey, { method: 'GET', url: '/data/data-sources' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Internal error' });
    const health = await broken.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({
      status: 'unavailable',
      store: { kind: 'pglite', reachable: false },
      error: 'Store unreachable',
    });
    await broken.app.close();
  });

  it('answers 503 with {error} and closes the connection while the server shuts down', async () => {
    const closing = await createTestApp('pglite');
    const key = (await closing.newAccount()).adminKey;
    const closed = closing.app.close();
    const answers = await Promise.all(
      ['/health', '/reports/summary'].map((url) => closing.call(key, { method: 'GET', url })),
    );
    for (const response of answers) {
      expect(response.statusCode).toBe(503);
      expect(response.headers.connection).toBe('close');
      expect(response.json()).toEqual({ error: 'The server is shutting down; try again shortly' });
    }
    await closed;
    await closing.services.store.close();
  });

  it('answers 503 with {error} when a store statement passes its time limit', async () => {
    const timed = await createTestApp('pglite');
    timed.app.get('/test/store-timeout', { config: { public: true } }, async () => {
      throw new StoreTimeoutError('The store took too long to answer; try again, or ask for less');
    });
    const response = await timed.app.inject({ method: 'GET', url: '/test/store-timeout' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: 'The store took too long to answer; try again, or ask for less',
    });
    await timed.close();
  });
});
