import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { createServices } from '../../src/services/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';
import {
  ALPHA,
  BRAVO,
  markersOf,
  openInvoice,
  seedTwin,
  type TwinAccount,
} from '../helpers/twin-accounts.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface Request {
  url: string;
  /** JSON, unless `contentType` says otherwise. */
  payload?: object | string;
  contentType?: string;
  status: number;
  /** Part of the JSON answer that must match, where the status alone does not tell. */
  answer?: object;
}

/**
 * What one route of /openapi.json is sent. `own` acts on the caller's own data: the external
 * ids both accounts share and the ids generated for the caller. `foreign` names ids generated
 * for the other account, which must answer as if they did not exist. `path` is the documented
 * path, `{...}` parameters included.
 */
interface RouteCase {
  own(self: TwinAccount, path: string): Request[];
  foreign?(other: TwinAccount, path: string): Request[];
}

/** The documented path with its one path parameter set. */
const fill = (path: string, value: string) => path.replace(/\{[^}]+\}/, encodeURIComponent(value));
const withQuery = (url: string, query: string) =>
  query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url;
const ok = (url: string): Request => ({ url, status: 200 });

/** A route without path parameters read with each query; no query reads the bare path. */
const reads = (...queries: string[]): RouteCase => ({
  own: (_self, path) => (queries.length > 0 ? queries : ['']).map((query) => ok(withQuery(path, query))),
});

/** A /data list: whole, of the caller's source and with `queries`; the other's source lists nothing. */
const sourcedList = (...queries: string[]): RouteCase => ({
  own: (self, path) =>
    ['', `source=${self.apiSource}`, ...queries].map((query) => ok(withQuery(path, query))),
  foreign: (other, path) => [
    { url: `${path}?source=${other.apiSource}`, status: 200, answer: { result: { count: 0, list: [] } } },
  ],
});

/** A route on a record by its shared external id; in the other account's data source it is not found. */
const record = (id: string, status: number, payload?: object): RouteCase => ({
  own: (_self, path) => [{ url: fill(path, id), status, payload }],
  foreign: (other, path) => [
    { url: `${fill(path, id)}?data_source=${other.apiSource}`, status: 404, payload },
  ],
});

/** A route on an id the service generated (plan group, segment): the other account's is not found. */
const generated = (idOf: (account: TwinAccount) => string, status: number, payload?: object): RouteCase => ({
  own: (self, path) => [{ url: fill(path, idOf(self)), status, payload }],
  foreign: (other, path) => [{ url: fill(path, idOf(other)), status: 404, payload }],
});

/** A data source route: the caller's empty "Billing" source; neither of the other's sources is found. */
const dataSource = (status: number, payload?: object): RouteCase => ({
  own: (self, path) => [{ url: fill(path, self.billingSource), status, payload }],
  foreign: (other, path) =>
    [other.billingSource, other.apiSource].map((id) => ({ url: fill(path, id), status: 404, payload })),
});

/** A bulk write of one item with shared ids; the same item aimed at the other's data source is refused. */
const bulk = (item: object, stored: Omit<Request, 'url'>, refused: Omit<Request, 'url'>): RouteCase => ({
  own: (_self, path) => [{ url: path, ...stored, payload: item }],
  foreign: (other, path) => [{ url: path, ...refused, payload: { ...item, data_source: other.apiSource } }],
});
const INSERTED = { status: 200, answer: { result: [{ import_status: 'inserted' }] } };
const UNKNOWN_SOURCE = expect.stringContaining('no data source');
const ITEM_ERROR = {
  status: 200,
  answer: { result: [{ import_status: 'error', import_error: UNKNOWN_SOURCE }] },
};

/**
 * Every route of /openapi.json, keyed `METHOD path`. A new route fails the coverage test until
 * it gets a case here. Routes taking the report filters are also read with the caller's segment
 * and plan group and with the other's (see `ownRequests` and `foreignRequests`).
 */
const ROUTES: Record<string, RouteCase> = {
  'GET /health': reads(),
  'GET /account/api-keys': reads(),
  'GET /account/team': reads(),
  'GET /account/profile': reads(),
  'GET /account': reads(),
  'GET /account/billing': reads(),
  'GET /account/billing/invoices': reads(),
  'GET /account/billing/portal': reads(),
  'GET /account/billing/check-vat': reads(),
  // An API key's profile is its own account's owner.
  'GET /profile': reads(),
  'PUT /profile': { own: (_self, path) => [{ url: path, status: 200, payload: { locale: 'en' } }] },
  'GET /settings/looker-studio': reads(),
  'GET /settings/notifications': reads(),
  'PUT /settings/notifications': {
    own: (_self, path) => [
      { url: path, status: 200, payload: { email: { recipients: ['ops@example.com'] } } },
    ],
  },
  'GET /settings': reads(),
  'POST /settings': { own: (_self, path) => [{ url: path, status: 200, payload: { base_currency: 'usd' } }] },
  'GET /settings/processor-a': reads(),
  'GET /settings/stripe': reads(),
  'GET /settings/crm': reads(),
  'GET /settings/hubspot': reads(),
  'GET /settings/slack': reads(),
  'GET /settings/teams': reads(),
  'POST /settings/slack': { own: (_self, path) => [{ url: path, status: 200, payload: { channel: '#b' } }] },
  'POST /settings/teams': { own: (_self, path) => [{ url: path, status: 200, payload: { enabled: true } }] },

  'GET /data/data-sources': reads('', 'type=csv'),
  'POST /data/data-sources': {
    own: (_self, path) => [{ url: path, status: 201, payload: { name: 'Billing', type: 'csv' } }],
  },
  'GET /data/data-sources/{id}': dataSource(200),
  'PUT /data/data-sources/{id}': dataSource(200, { name: 'Old billing' }),
  'DELETE /data/data-sources/{id}': dataSource(204),
  // The "Billing" source is a csv source: it has no connector to import with.
  'GET /data/data-sources/{id}/progress': dataSource(200),
  'POST /data/data-sources/{id}/full-import': dataSource(409),
  'POST /data/data-sources/{id}/abort': dataSource(409),
  'POST /data/data-sources/{id}/reset': dataSource(200),
  'POST /data/data-sources/{id}/connect': dataSource(409, { api_key: 'rk_test_x' }),
  // Sheets belong to spreadsheet sources; "Billing" is a csv source.
  'GET /data/data-sources/{id}/sheets': dataSource(409),
  'PUT /data/data-sources/{id}/sheets': dataSource(409, { customers: null }),
  'POST /data/data-sources/{id}/sync': dataSource(409),
  // The "Billing" source is no processor-a source; the other's sources are not found.
  'POST /oauth/processor-a/deauthorize': {
    own: (self, path) => [{ url: path, status: 409, payload: { data_source: self.billingSource } }],
    foreign: (other, path) =>
      [other.billingSource, other.apiSource].map((id) => ({
        url: path,
        status: 404,
        payload: { data_source: id },
      })),
  },
  // Authenticated by the billing system's check, not by a key: a delivery without a body is refused.
  'POST /webhooks/{type}/{accountId}/{id}': {
    own: (self, path) => [
      {
        url: path
          .replace('{type}', 'processor-a')
          .replace('{accountId}', self.id)
          .replace('{id}', self.billingSource),
        status: 400,
      },
    ],
  },

  'GET /data/customers': sourcedList(),
  'POST /data/customers': bulk(
    { id: 'c1', name: 'Renamed Corp' },
    { status: 201 },
    {
      status: 400,
      answer: { error: UNKNOWN_SOURCE },
    },
  ),
  'GET /data/customers/{id}': record('c1', 200),
  'PUT /data/customers/{id}': record('c1', 200, { email: 'billing@example.com' }),
  'DELETE /data/customers/{id}': record('c3', 200),

  'GET /data/plans': sourcedList(),
  'POST /data/plans': bulk(
    { id: 'basic', name: 'Renamed basic', billing_freq: 'month', currency: 'usd' },
    INSERTED,
    ITEM_ERROR,
  ),
  'PUT /data/plans': {
    own: (_self, path) => [
      { url: path, status: 200, payload: { id: 'basic', product_name: 'Renamed suite' } },
    ],
    foreign: (other, path) => [
      { url: `${path}?data_source=${other.apiSource}`, status: 404, payload: { id: 'basic', name: 'x' } },
    ],
  },
  // This route also deletes a plan group named by its id: the other's group is not found.
  'DELETE /data/plans': {
    own: (_self, path) => [
      { url: path, status: 200, payload: { id: 'legacy' }, answer: { result: 'ok', deleted: 'legacy' } },
    ],
    foreign: (other, path) => [
      { url: path, status: 404, payload: { id: other.planGroup } },
      { url: `${path}?data_source=${other.apiSource}`, status: 404, payload: { id: 'pro' } },
    ],
  },
  'GET /data/plans/{id}': record('basic', 200),
  'GET /plans': sourcedList(),
  'PUT /data/plans/{id}': record('basic', 200, { name: 'Renamed again' }),
  'DELETE /data/plans/{id}': record('archived', 200),

  'GET /data/plan-groups': reads(),
  'POST /data/plan-groups': {
    own: (_self, path) => [{ url: path, status: 200, payload: { name: 'Core', plans: ['basic'] } }],
    foreign: (other, path) => [
      {
        url: path,
        status: 400,
        payload: { name: 'Core', plans: [{ id: 'basic', data_source: other.apiSource }] },
        answer: { error: 'Unknown plans: basic' },
      },
    ],
  },
  'GET /data/plan-groups/{id}': generated((account) => account.planGroup, 200),
  'PUT /data/plan-groups/{id}': generated((account) => account.planGroup, 200, {
    name: 'Renamed core',
    plans: ['pro'],
  }),
  'DELETE /data/plan-groups/{id}': generated((account) => account.planGroup, 200),

  'GET /data/segments': reads(),
  'POST /data/segments': {
    own: (self, path) => [
      { url: path, status: 200, payload: { name: 'Core', filters: { plan: self.planGroup } } },
    ],
    foreign: (other, path) => [
      {
        url: path,
        status: 400,
        payload: { name: 'Core', filters: { plan: other.planGroup } },
        answer: { error: expect.stringContaining(`unknown plan group "${other.planGroup}"`) },
      },
    ],
  },
  'GET /data/segments/{id}': generated((account) => account.segment, 200),
  'PUT /data/segments/{id}': generated((account) => account.segment, 200, { name: 'Renamed segment' }),
  'DELETE /data/segments/{id}': generated((account) => account.segment, 200),

  'GET /data/invoices': sourcedList('customer=c2'),
  'POST /data/invoices': bulk(openInvoice(999), INSERTED, ITEM_ERROR),
  'GET /data/invoices/{id}': record('inv_5', 200),
  'PUT /data/invoices/{id}': record('inv_6', 200, { due_date: '2026-11-20' }),
  'DELETE /data/invoices/{id}': record('inv_6', 200),

  'GET /data/subscriptions': sourcedList('customer=c1'),
  'POST /data/subscriptions': bulk(
    { id: 'sub_2', customer_id: 'c2', plan_id: 'pro', started_at: '2026-10-01', quantity: 2 },
    INSERTED,
    ITEM_ERROR,
  ),
  'GET /data/subscriptions/{id}': record('sub_1', 200),
  'PUT /data/subscriptions/{id}': record('sub_1', 200, { quantity: 3 }),
  'DELETE /data/subscriptions/{id}': record('sub_2', 200),

  // Each account's "Billing" source takes a file; the other's is not found.
  'POST /data/uploads': {
    own: (self, path) => [
      {
        url: `${path}?kind=customers&data_source=${self.billingSource}`,
        status: 201,
        payload: 'id,name\nc9,Uploaded\n',
        contentType: 'text/csv',
      },
    ],
    foreign: (other, path) => [
      {
        url: `${path}?kind=customers&data_source=${other.billingSource}`,
        status: 404,
        payload: 'id,name\nc9,Uploaded\n',
        contentType: 'text/csv',
      },
    ],
  },
  'GET /data/uploads/{id}': generated((account) => account.uploads.mapped, 200),
  'PUT /data/uploads/{id}/mapping': generated((account) => account.uploads.mapped, 200, {
    id: 'id',
    name: 'name',
  }),
  // A second upload, so that its import runs while the first one's mapping changes.
  'POST /data/uploads/{id}/import': generated((account) => account.uploads.imported, 202),

  'GET /customers': reads('', 'status=all&q=corp'),
  'GET /customers/{customerId}': record('c1', 200),
  'POST /customers/{customerId}/resync': record('c1', 200),

  'GET /reports/customer-concentration': reads(),
  'GET /reports/summary': reads(),
  'GET /reports/mrr': reads('', 'interval=day&date=20261101-20261123&breakdown=plan'),
  'GET /reports/movement-table': reads(),
  'GET /reports/latest-activity': reads('days=90&include_scheduled=1'),
  'GET /reports/mrr-growth': reads(),
  'GET /reports/mrr-subtypes': reads('type=expansion', 'type=churn&interval=day&date=20261101-20261123'),
  'GET /reports/mrr-table-subtypes': reads(),
  'GET /reports/transactions': reads(),
  'GET /reports/transactions-summary': reads(),
  'GET /reports/transactions-detail': reads(),
  'GET /reports/cashflow-failed-payments': reads(),
  'GET /reports/cashflow-failed-payments-summary': reads(),
  'GET /reports/cashflow-failed-payments-detail': reads(),
  'GET /reports/cashflow-refunds': reads(),
  'GET /reports/cashflow-refunds-detail': reads(),
  'GET /reports/cashflow-failure-rate': reads(),
  'GET /reports/cashflow-failure-rate-summary': reads(),
  'GET /reports/cashflow-outstanding-unpaid': reads(),
  'GET /reports/invoices-detail': reads(),
  'GET /reports/churn-scheduled-movements': reads(),
  'GET /reports/churn-scheduled': reads(),
  'GET /reports/churn-scheduled-summary': reads(),
  'GET /reports/cmrr-summary': reads(),
  'GET /reports/leads': reads(),
  'GET /reports/leads-summary': reads(),
  'GET /reports/leads-days': reads(),
  'GET /reports/cohort': reads(),
  'GET /reports/map': reads(),
  'GET /reports/retention': reads(),
  'GET /reports/custom-variables': reads('key=industry', 'key=industry&search=fintech'),
  'GET /reports/mrr-table': reads(),
  'GET /reports/mrr-growth-table': reads(),
  'GET /reports/transactions-table': reads(),
  'GET /reports/cashflow-failed-payments-table': reads(),
  'GET /reports/cashflow-refunds-table': reads(),
  'GET /reports/churn-reasons-summary': reads(),
  'GET /reports/cancellation-timing': reads(),
  'GET /reports/cancellation-timing-detail': reads(),
  'GET /reports/leads-table': reads(),

  'GET /integrations/webhooks': reads(),
  'GET /settings/webhook': reads(),
  'POST /integrations/webhooks': {
    own: (_self, path) => [
      {
        url: path,
        status: 201,
        payload: { url: 'https://hooks.shared.example/a', event_type: 'movement.new' },
      },
    ],
  },
  'POST /settings/webhook': {
    own: (_self, path) => [
      {
        url: path,
        status: 201,
        payload: { url: 'https://hooks.shared.example/b', event_type: 'movement.new' },
      },
    ],
  },
  'GET /integrations/webhooks/{id}': generated((account) => account.webhook, 200),
  'DELETE /integrations/webhooks/{id}': generated((account) => account.webhook, 200),
  'GET /integrations/sample/{event}': { own: (_self, path) => [ok(fill(path, 'movement.churn'))] },
  // A test delivery (to a reserved domain nobody answers for) says how long it took: no read
  // compares equal twice, so the own case is left to the POST, and test/api/webhooks.test.ts.
  'GET /integrations/verify': {
    own: () => [],
    foreign: (other, path) => [{ url: `${path}?id=${other.webhook}`, status: 404 }],
  },
  'POST /integrations/verify': {
    own: (self, path) => [{ url: path, status: 200, payload: { id: self.webhook } }],
    foreign: (other, path) => [{ url: path, status: 404, payload: { id: other.webhook } }],
  },
  'GET /jobs/dead': reads(),

  'GET /exports/customers.csv': reads(),
  'GET /exports/mrr-movements.csv': reads('', 'committed=true'),
  'GET /exports/mrr-growth.csv': reads(),
};

interface DocumentedRoute {
  /** `METHOD path`, as ROUTES keys it. */
  key: string;
  method: Method;
  path: string;
  takesReportFilters: boolean;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
}

async function documentedRoutes(app: FastifyInstance): Promise<DocumentedRoute[]> {
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<OpenApiDocument>();
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase() as Method,
      path,
      takesReportFilters: (operation.parameters ?? []).some((p) => p.in === 'query' && p.name === 'segment'),
    })),
  );
}

/** The route's own requests; one taking the report filters also reads the caller's segment and plan group. */
function ownRequests(route: DocumentedRoute, self: TwinAccount): Request[] {
  const requests = ROUTES[route.key]?.own(self, route.path) ?? [];
  if (!route.takesReportFilters || requests.length === 0) return requests;
  const url = requests[0]!.url;
  return [
    ...requests,
    ok(withQuery(url, `segment=${self.segment}`)),
    ok(withQuery(url, `plan=${self.planGroup}`)),
  ];
}

/**
 * The route's foreign requests. To one taking the report filters, the other account's segment
 * and plan group are unknown, and its data source, a mere filter value, matches nothing.
 */
function foreignRequests(route: DocumentedRoute, self: TwinAccount, other: TwinAccount): Request[] {
  const requests = ROUTES[route.key]?.foreign?.(other, route.path) ?? [];
  const first = ROUTES[route.key]?.own(self, route.path)[0];
  if (!route.takesReportFilters || !first) return requests;
  const unknown = (parameter: string, kind: string, id: string): Request => ({
    url: withQuery(first.url, `${parameter}=${id}`),
    status: 400,
    answer: { error: `Invalid query parameter "${parameter}": unknown ${kind} "${id}"` },
  });
  return [
    ...requests,
    unknown('segment', 'segment', other.segment),
    unknown('plan', 'plan group', other.planGroup),
    ok(withQuery(first.url, `data_source=${other.apiSource}`)),
  ];
}

function send(
  app: FastifyInstance,
  key: string,
  method: Method,
  request: Request,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: request.url,
    headers: {
      authorization: `Bearer ${key}`,
      ...(request.contentType ? { 'content-type': request.contentType } : {}),
    },
    ...(request.payload ? { payload: request.payload } : {}),
  });
}

function expectAnswer(response: LightMyRequestResponse, method: Method, request: Request): void {
  const label = `${method} ${request.url}: ${response.body}`;
  expect(response.statusCode, label).toBe(request.status);
  if (request.answer) expect(response.json(), label).toMatchObject(request.answer);
}

/** Fails naming the markers of `owner` in the answer, leaving out what the request itself sent. */
function expectNothingOf(owner: TwinAccount, request: Request, body: string): void {
  const sent = request.url + JSON.stringify(request.payload ?? null);
  const leaked = markersOf(owner).filter((marker) => !marker.test(sent) && marker.test(body));
  expect(leaked.map(String), `${request.url}: ${body}`).toEqual([]);
}

/** Every read route as one account sees it: URL to status and body, as served. */
type View = Record<string, string>;

async function viewOf(app: FastifyInstance, account: TwinAccount, routes: DocumentedRoute[]): Promise<View> {
  const view: View = {};
  for (const route of routes.filter((candidate) => candidate.method === 'GET')) {
    for (const request of ownRequests(route, account)) {
      const response = await send(app, account.adminKey, 'GET', request);
      expectAnswer(response, 'GET', request);
      view[request.url] = `${response.statusCode} ${response.body}`;
    }
  }
  return view;
}

/** Another server process on the same store: nothing is cached, so every answer comes from the store. */
async function withFreshApp<T>(t: TestApp, fn: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const app = await buildApp(createServices(t.services.store, t.clock));
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

// Creates before updates before deletes, so that no write finds the record it needs deleted.
const WRITE_ORDER: Method[] = ['POST', 'PUT', 'DELETE'];

describe.each(STORE_KINDS)('isolation between two accounts holding the same ids on %s', (kind) => {
  let t: TestApp;
  let routes: DocumentedRoute[];
  let a: TwinAccount;
  let b: TwinAccount;
  /** B's view before A existed. */
  let bAlone: View;

  beforeAll(async () => {
    t = await createTestApp(kind);
    routes = await documentedRoutes(t.app);
    b = await seedTwin(t, BRAVO);
    bAlone = await viewOf(t.app, b, routes);
    a = await seedTwin(t, ALPHA);
  });
  afterAll(() => t.close());

  it('has a case for every route of /openapi.json and for no other', () => {
    expect(routes.map((route) => route.key).sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it("shows neither account anything of the other's on any read route", async () => {
    await withFreshApp(t, async (app) => {
      // What B reads is what B read before A held the same ids.
      expect(await viewOf(app, b, routes)).toEqual(bAlone);
      for (const [reader, owner] of [
        [b, a],
        [a, b],
      ] as const) {
        for (const route of routes.filter((candidate) => candidate.method === 'GET')) {
          const requests = [...ownRequests(route, reader), ...foreignRequests(route, reader, owner)];
          for (const request of requests) {
            const response = await send(app, reader.adminKey, 'GET', request);
            expectAnswer(response, 'GET', request);
            expectNothingOf(owner, request, response.body);
          }
        }
      }
    });
  });

  it("computes each account's report figures from its own records", async () => {
    const figures = async (account: TwinAccount) => {
      const summary = async (report: string) =>
        (await t.read(account.viewerKey, `/reports/${report}`)).summary;
      const transactions = await summary('transactions-summary');
      return {
        mrr: (await summary('summary')).mrr_current,
        payments: transactions.mtd_payments,
        refunds: transactions.mtd_refunds,
        outstanding: (await summary('cashflow-outstanding-unpaid')).outstanding_current,
        scheduledChurn: (await summary('churn-scheduled-summary')).churn_current,
      };
    };
    // MRR today: c1 pays basic, c2 pays pro, monthly. November's payments are the same two
    // invoices; the refund and c2's unpaid one-time invoice are amounts of their own; c1
    // cancels on Jan 15, so basic is the scheduled churn.
    // Alpha: 31415 + 27182 = 58597; Bravo: 4242 + 5151 = 9393.
    expect(await figures(a)).toEqual({
      mrr: 58_597,
      payments: 58_597,
      refunds: 14_142,
      outstanding: 16_180,
      scheduledChurn: -31_415,
    });
    expect(await figures(b)).toEqual({
      mrr: 9_393,
      payments: 9_393,
      refunds: 3_737,
      outstanding: 2_929,
      scheduledChurn: -4_242,
    });
  });

  it("lets B's writes change B's data and nothing of A's", async () => {
    const aBefore = await viewOf(t.app, a, routes);
    // After each write, A's records and settings, to name the write that changed them; the
    // reports, which derive from them, at the end, from this process and from a fresh one.
    const unreported = routes.filter((route) => !route.path.startsWith('/reports/'));
    const aRecordsBefore = await viewOf(t.app, a, unreported);
    const writes = routes
      .filter((route) => route.method !== 'GET')
      .sort((x, y) => WRITE_ORDER.indexOf(x.method) - WRITE_ORDER.indexOf(y.method));
    for (const route of writes) {
      for (const request of [...ownRequests(route, b), ...foreignRequests(route, b, a)]) {
        const response = await send(t.app, b.adminKey, route.method, request);
        expectAnswer(response, route.method, request);
        expectNothingOf(a, request, response.body);
      }
      expect(await viewOf(t.app, a, unreported), `A's records after ${route.key}`).toEqual(aRecordsBefore);
    }
    expect(await viewOf(t.app, a, routes)).toEqual(aBefore);
    await withFreshApp(t, async (app) => expect(await viewOf(app, a, routes)).toEqual(aBefore));
    expect(await t.read(b.adminKey, '/data/customers/c1')).toMatchObject({
      name: 'Renamed Corp',
      email: 'billing@example.com',
    });
    // A read of A's records after each of some fifty writes: past the default 30 s on busy cores.
  }, 120_000);
});
