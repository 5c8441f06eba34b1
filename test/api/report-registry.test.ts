import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTS } from '../../src/api/reports/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { documentedRoutes } from '../helpers/openapi-routes.js';

describe('the report registry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  it('is the one way a report is served: every /reports route of the OpenAPI is an entry, once', async () => {
    const served = (await documentedRoutes(t.app))
      .filter((route) => route.path.startsWith('/reports/'))
      .map((route) => `${route.method} ${route.path}`)
      .sort();
    const registered = REPORTS.map((report) => `GET ${report.path}`).sort();
    expect(new Set(registered).size).toBe(registered.length);
    expect(served).toEqual(registered);
  });

  it('has every entry documented in docs/api.md', () => {
    const apiDoc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const undocumented = REPORTS.map((report) => report.path).filter(
      (path) => !new RegExp(`${path}(?![\\w-])`).test(apiDoc),
    );
    expect(undocumented).toEqual([]);
  });

  it('answers 401 without a key on every entry', async () => {
    for (const report of REPORTS) {
      const anonymous = await t.call(undefined, { method: 'GET', url: report.path });
      expect([report.path, anonymous.statusCode]).toEqual([report.path, 401]);
    }
  });
});
