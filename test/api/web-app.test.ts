import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

const INDEX =
  '<!doctype html><title>mrrlytics</title><script type="module" src="/assets/app-abc123.js"></script>';
const SCRIPT = 'console.log("app");';

describe('serving the web app', () => {
  let webRoot: string;
  let t: TestApp;

  beforeAll(async () => {
    webRoot = mkdtempSync(join(tmpdir(), 'mrrlytics-web-'));
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(join(webRoot, 'index.html'), INDEX);
    writeFileSync(join(webRoot, 'assets', 'app-abc123.js'), SCRIPT);
    t = await createTestApp('pglite', { webRoot });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it('serves the page at / without a key, with headers that keep it to its own files', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(INDEX);
    expect(page.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect((await t.app.inject({ method: 'GET', url: '/v1/' })).body).toBe(INDEX);
  });

  it('serves assets gzipped when asked, cached for good, and 404 for an unknown one', async () => {
    const gzipped = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(gzipped.headers).toMatchObject({
      'content-encoding': 'gzip',
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(SCRIPT);
    expect((await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' })).body).toBe(SCRIPT);
    const missing = await t.app.inject({ method: 'GET', url: '/assets/nothing.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'No such file' });
    // Only the files read at start can be answered: a way out of the folder finds nothing.
    for (const url of [
      '/assets/%2e%2e/index.html',
      '/assets/%2E%2E%2Findex.html',
      '/assets/..%2f..%2fpackage.json',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect({ url, status: response.statusCode }).not.toEqual({ url, status: 200 });
    }
  });

  it('leaves every other path to the API: 401 without a key', async () => {
    for (const url of ['/index.html', '/app', '/reports/mrr', '/assetsx']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 401 });
    }
  });

  it('says in words when the app is not built', async () => {
    const bare = await createTestApp('pglite', { webRoot: join(webRoot, 'nothing-here') });
    try {
      const page = await bare.app.inject({ method: 'GET', url: '/' });
      expect(page.statusCode).toBe(503);
      expect(page.body).toBe('The web interface is not built: run `npm run build` (npm start does it).');
    } finally {
      await bare.close();
    }
  });
});
