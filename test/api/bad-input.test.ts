import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

// Each case was a 500, a crash or an unbounded answer (issue 14); each must now be a 400 naming the input.

const NUL = 'must not contain the character U+0000 (NUL)';
const SURROGATE = 'must not contain a lone UTF-16 surrogate';
const YEARS = 'Invalid query parameter "date": dates must lie in the years 1970 to 2100';

interface Case {
  name: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  /** A string is sent as it is, with `contentType`; anything else as JSON. */
  payload?: unknown;
  contentType?: string;
  status?: number;
  body: unknown;
}

const badRequest = (error: string) => ({ status: 400, body: { error } });

const CASES: Case[] = [
  {
    name: 'NUL in a customer name',
    method: 'POST',
    url: '/data/customers',
    payload: '{"id":"c9","name":"a\\u0000b"}',
    ...badRequest(`Invalid body field "name": ${NUL}`),
  },
  {
    name: 'NUL in a custom variable value',
    method: 'POST',
    url: '/data/customers',
    payload: { id: 'c9', name: 'x', custom_variables: { industry: 'a\u0000' } },
    ...badRequest(`Invalid body field "custom_variables.industry": ${NUL}`),
  },
  {
    name: 'NUL in a custom variable key',
    method: 'POST',
    url: '/data/customers',
    payload: { id: 'c9', name: 'x', custom_variables: { 'a\u0000': 'b' } },
    ...badRequest(`Invalid body field "custom_variables": a key ${NUL}`),
  },
  {
    name: 'NUL in an invoice line description',
    method: 'POST',
    url: '/data/invoices',
    payload: {
      id: 'i9',
      customer_id: 'c1',
      date: '2026-01-01',
      currency: 'usd',
      lines: [{ amount: 100, period_start: '2026-01-01', period_end: '2026-02-01', description: '\u0000' }],
    },
    ...badRequest(`Invalid body field "lines.0.description": ${NUL}`),
  },
  {
    // Bulk bodies are checked a few hundred items at a time: the item is named past the first pieces.
    name: 'NUL in the 601st item of a bulk body',
    method: 'POST',
    url: '/data/customers',
    payload: Array.from({ length: 800 }, (_, index) => ({
      id: `c${index}`,
      name: index === 600 ? 'a\u0000' : 'x',
    })),
    ...badRequest(`Invalid body field "600.name": ${NUL}`),
  },
  {
    name: 'NUL in a key of a later item of a bulk body',
    method: 'POST',
    url: '/data/customers',
    payload: [
      ...Array.from({ length: 300 }, (_, index) => ({ id: `c${index}`, name: 'x' })),
      { id: 'c300', name: 'x', custom_variables: { 'a\u0000': 'b' } },
    ],
    ...badRequest(`Invalid body field "300.custom_variables": a key ${NUL}`),
  },
  {
    name: 'NUL in settings chat.channel',
    method: 'PUT',
    url: '/settings/notifications',
    payload: { chat: { channel: '#sales\u0000' } },
    ...badRequest(`Invalid body field "chat.channel": ${NUL}`),
  },
  {
    name: 'NUL in a CSV cell',
    method: 'POST',
    url: '/data/customers',
    payload: 'id,name\nc9,a\u0000b\n',
    contentType: 'text/csv',
    ...badRequest(`Invalid CSV row 2, column "name": ${NUL}`),
  },
  {
    name: 'NUL in a path id',
    url: '/data/customers/c%00',
    ...badRequest(`Invalid path parameter "id": ${NUL}`),
  },
  {
    name: 'NUL in a query value',
    url: '/customers?q=%00',
    ...badRequest(`Invalid query parameter "q": ${NUL}`),
  },
  {
    name: 'NUL in a query parameter name',
    url: '/reports/mrr?custom_a%00=x',
    ...badRequest(`Invalid query string: a parameter name ${NUL}`),
  },
  {
    name: 'a lone surrogate in a body id',
    method: 'POST',
    url: '/data/customers',
    payload: '{"id":"\\ud800","name":"x"}',
    ...badRequest(`Invalid body field "id": ${SURROGATE}`),
  },
  {
    name: 'a lone surrogate in a path id (not UTF-8 once encoded)',
    url: '/data/customers/%ED%A0%80',
    ...badRequest('Malformed URL: a percent-encoded path segment is not UTF-8'),
  },
  {
    name: 'a path parameter longer than any id',
    url: `/data/customers/${'x'.repeat(256)}`,
    ...badRequest('Invalid path: a path parameter may be at most 255 characters'),
  },
  {
    name: 'a timestamp offset of 25 hours',
    method: 'POST',
    url: '/data/customers',
    payload: { id: 'c9', name: 'x', created_date: '2026-01-01T00:00:00+25:00' },
    ...badRequest('Invalid field "created_date": must be an ISO 8601 date or timestamp'),
  },
  {
    name: 'a quantity beyond a stored integer',
    method: 'POST',
    url: '/data/subscriptions',
    payload: { id: 's9', customer_id: 'c1', plan_id: 'basic', quantity: 2 ** 31, started_at: '2026-01-01' },
    status: 200,
    body: {
      result: [
        {
          id: 's9',
          import_status: 'error',
          import_error: 'Invalid field "quantity": must be at most 2147483647',
        },
      ],
    },
  },
  { name: 'a range of years 1 to 2026', url: '/reports/cohort?date=00010101-20261231', ...badRequest(YEARS) },
  {
    name: 'a daily range over 3,700 days',
    url: '/reports/mrr?date=19700101-20261231&interval=day',
    ...badRequest(
      'Invalid query parameter "date": a range may hold at most 3700 days; choose a shorter range or a longer interval',
    ),
  },
  {
    name: 'a weekly range over 1,000 weeks',
    url: '/reports/transactions?date=19700101-20261231&interval=week',
    ...badRequest(
      'Invalid query parameter "date": a range may hold at most 1000 weeks; choose a shorter range or a longer interval',
    ),
  },
  {
    name: 'more than 120 cohorts',
    url: '/reports/cohort?date=20000101-20261231',
    ...badRequest(
      'Invalid query parameter "date": a range may hold at most 120 cohorts; choose a shorter range or a longer interval',
    ),
  },
  {
    name: 'an impossible selected-date',
    url: '/customers?selected-date=2026-02-30',
    ...badRequest('Invalid query parameter "selected-date": expected a real date YYYY-MM-DD'),
  },
  {
    name: 'a compareMonth before 1970',
    url: '/reports/mrr-growth?compareMonth=1969-12',
    ...badRequest('Invalid query parameter "compareMonth": dates must lie in the years 1970 to 2100'),
  },
  {
    name: 'a list offset beyond the largest',
    url: '/data/customers?offset=1000000001',
    ...badRequest('Invalid query parameter "offset": must be at most 1000000000'),
  },
  // Keys of Object.prototype are custom variables like any other: no customer holds them here.
  ...['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'].map((key) => ({
    name: `custom variable key ${key}`,
    url: `/reports/custom-variables?key=${key}`,
    status: 200,
    body: { values: [] },
  })),
];

describe.each(STORE_KINDS)('bad input on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
    await t.seed(account.adminKey, '/data/plans', {
      id: 'basic',
      name: 'Basic',
      billing_freq: 'month',
      currency: 'usd',
    });
    await t.seed(account.adminKey, '/data/customers', {
      id: 'c1',
      name: 'One',
      custom_variables: { industry: 'retail' },
    });
    await t.seed(account.adminKey, '/data/invoices', {
      id: 'i1',
      customer_id: 'c1',
      date: '2026-01-01',
      currency: 'usd',
      lines: [{ plan_id: 'basic', amount: 1000, period_start: '2026-01-01', period_end: '2026-02-01' }],
    });
  });
  afterAll(() => t.close());

  it.each(CASES)('$name', async ({ method = 'GET', url, payload, contentType, status = 400, body }) => {
    const response = await t.call(account.adminKey, {
      method,
      url,
      ...(payload === undefined
        ? {}
        : typeof payload === 'string'
          ? { payload, headers: { 'content-type': contentType ?? 'application/json' } }
          : { payload: payload as object }),
    });
    expect(response.json()).toEqual(body);
    expect(response.statusCode).toBe(status);
  });

  it('answers a badly encoded URL in its own shape without a key too', async () => {
    const response = await t.call(undefined, { method: 'GET', url: '/data/customers/%ED%A0%80' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'Malformed URL: a percent-encoded path segment is not UTF-8' });
  });

  it('refuses a range ending in 9999 on every report that takes a range', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
    }>();
    const ranged = Object.entries(doc.paths)
      .filter(([, item]) => item.get?.parameters?.some((p) => p.name === 'date' && p.in === 'query'))
      .map(([path]) => path.replace(/\{[^}]+\}/g, 'c1'));
    expect(ranged.length).toBeGreaterThanOrEqual(10);
    // Parameters a path requires, checked before the range.
    const required: Record<string, string> = { '/reports/mrr-subtypes': '&type=churn' };
    for (const path of ranged) {
      const response = await t.call(account.adminKey, {
        method: 'GET',
        url: `${path}?date=20240101-99991231${required[path] ?? ''}`,
      });
      expect({ path, status: response.statusCode, body: response.json() }).toEqual({
        path,
        status: 400,
        body: { error: YEARS },
      });
    }
  });

  it('reads prototype-named custom variables as data, in every report that takes them', async () => {
    // A fresh account: the custom-variable answers above are cached for five minutes.
    const other = await t.newAccount();
    await t.seed(other.adminKey, '/data/customers', {
      id: 'c2',
      name: 'Two',
      custom_variables: { constructor: 'yes', toString: 'no' },
    });
    expect(await t.read(other.adminKey, '/reports/custom-variables?key=constructor')).toEqual({
      values: [{ value: 'yes', count: 1 }],
    });
    expect(await t.read(other.adminKey, '/reports/custom-variables?key=toString&search=N')).toEqual({
      values: [{ value: 'no', count: 1 }],
    });
    for (const breakdown of ['custom_constructor', 'custom_valueOf', 'custom___proto__']) {
      for (const report of ['/reports/mrr', '/reports/retention', '/reports/cohort']) {
        const response = await t.call(other.adminKey, {
          method: 'GET',
          url: `${report}?breakdown=${breakdown}`,
        });
        expect({ report, breakdown, status: response.statusCode }).toEqual({
          report,
          breakdown,
          status: 200,
        });
      }
    }
    const filtered = await t.read(other.adminKey, '/customers?status=all&custom_hasOwnProperty=x');
    expect(filtered.result.list).toEqual([]);
  });
});
