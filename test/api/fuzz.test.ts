import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import {
  csvBody,
  encodeComponent,
  jsonBody,
  jsonText,
  PROTOTYPE_KEYS,
  text,
} from '../helpers/fuzz-inputs.js';
import { type DocumentedRoute, documentedRoutes } from '../helpers/openapi-routes.js';
import { STORE_KINDS } from '../helpers/stores.js';

// Fixed, so a failure reproduces; fast-check prints the shrunk request. Runs per route keep the
// file to about half a minute per store on two busy cores; FUZZ_SEED and FUZZ_RUNS search further by hand.
const SEED = Number(process.env.FUZZ_SEED ?? 14);
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 12);

/** The lists and settings whose writes move no data version, read alongside it. */
const UNVERSIONED = ['/data/data-sources', '/data/plan-groups', '/data/segments', '/settings/notifications'];

interface FuzzRequest {
  pathValues: string[];
  query: [string, string][];
  body: { text: string; contentType: string } | undefined;
}

function injectOptions(route: DocumentedRoute, request: FuzzRequest): InjectOptions {
  let index = 0;
  const path = route.path.replace(/\{[^}]+\}/g, () => encodeComponent(request.pathValues[index++] ?? ''));
  const query = request.query.map(([name, value]) => `${encodeComponent(name)}=${encodeComponent(value)}`);
  const url = query.length === 0 ? path : `${path}?${query.join('&')}`;
  if (request.body === undefined) return { method: route.method, url };
  return {
    method: route.method,
    url,
    payload: request.body.text,
    headers: { 'content-type': request.body.contentType },
  };
}

describe.each(STORE_KINDS)('HTTP fuzz from /openapi.json on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  let routes: DocumentedRoute[];
  /** Ids of records that exist, so that some requests reach a record rather than a 404. */
  let knownIds: string[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
    const seed = (url: string, payload: unknown) => t.seed(account.adminKey, url, payload);
    const source = (await seed('/data/data-sources', { name: 'Books', type: 'csv' })).json<{ id: string }>();
    await seed('/data/plans', { id: 'basic', name: 'Basic', billing_freq: 'month', currency: 'usd' });
    await seed('/data/customers', {
      id: 'c1',
      name: 'One',
      country: 'US',
      custom_variables: { industry: 'retail' },
    });
    await seed('/data/invoices', {
      id: 'i1',
      customer_id: 'c1',
      date: '2026-01-01',
      currency: 'usd',
      lines: [{ plan_id: 'basic', amount: 1000, period_start: '2026-01-01', period_end: '2026-02-01' }],
      transactions: [{ id: 't1', date: '2026-01-01', type: 'payment', result: 'success', amount: 1000 }],
    });
    await seed('/data/subscriptions', {
      id: 's1',
      customer_id: 'c1',
      plan_id: 'basic',
      started_at: '2026-01-01',
    });
    const group = (await seed('/data/plan-groups', { name: 'All', plans: ['basic'] })).json<{ id: string }>();
    const segment = (await seed('/data/segments', { name: 'US', filters: { region: 'US' } })).json<{
      id: string;
    }>();
    knownIds = ['c1', 'basic', 'i1', 's1', source.id, group.id, segment.id];
    routes = await documentedRoutes(t.app);
  });
  afterAll(() => t.close());

  /** What a rejected request must leave as it was: the data version and every unversioned list. */
  async function fingerprint(): Promise<string> {
    const version = await t.services.store.changes.dataVersion(account.id);
    const lists: unknown[] = await Promise.all(UNVERSIONED.map((url) => t.read(account.adminKey, url)));
    return JSON.stringify([version, lists]);
  }

  function requests(route: DocumentedRoute): fc.Arbitrary<FuzzRequest> {
    const idLike = fc.oneof(text, fc.constantFrom(...knownIds));
    const name = fc.oneof(
      ...(route.queryParameters.length > 0 ? [fc.constantFrom(...route.queryParameters)] : []),
      fc.constantFrom(...PROTOTYPE_KEYS, 'custom_constructor', 'breakdown', 'date', 'interval'),
      text,
    );
    const body =
      route.body === undefined
        ? fc.constant(undefined)
        : fc.oneof(
            {
              weight: 5,
              arbitrary: jsonBody(route.body).map((value) => ({
                text: jsonText(value),
                contentType: 'application/json',
              })),
            },
            {
              weight: 1,
              arbitrary: csvBody(route.body).map((csv) => ({ text: csv, contentType: 'text/csv' })),
            },
          );
    return fc.record({
      pathValues: fc.array(idLike, {
        minLength: route.pathParameters.length,
        maxLength: route.pathParameters.length,
      }),
      query: fc.array(fc.tuple(name, fc.oneof(text, idLike)), { maxLength: 4 }),
      body,
    });
  }

  it('answers every route without a 5xx, refuses in {error} alone, and stores nothing it refused', async () => {
    expect(routes.length).toBeGreaterThan(70);
    // Every route is tried before failing, so one run reports all the routes that break.
    const failures: string[] = [];
    for (const route of routes) {
      const writes = route.method !== 'GET';
      const details = await fc.check(
        fc.asyncProperty(requests(route), async (request) => {
          const options = injectOptions(route, request);
          const before = writes ? await fingerprint() : undefined;
          const response = await t.call(account.adminKey, options);
          const seen = JSON.stringify({ url: options.url, status: response.statusCode, body: response.body });
          expect(response.statusCode, seen).toBeLessThan(500);
          if (response.statusCode < 400) return;
          expect(response.json(), seen).toStrictEqual({ error: expect.any(String) });
          if (before !== undefined) expect(await fingerprint(), seen).toBe(before);
        }),
        { seed: SEED, numRuns: RUNS_PER_ROUTE },
      );
      if (details.failed) failures.push(`${route.method} ${route.path}: ${fc.defaultReportMessage(details)}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
