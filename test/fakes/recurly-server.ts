import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Recurly object as it goes on the wire (snake_case JSON, amounts in major units). */
export type RecurlyObject = { id: string; object: string; created_at: string; updated_at: string } & Record<
  string,
  unknown
>;

/** What the fake serves: the site and its objects. */
export interface RecurlyData {
  site: RecurlyObject;
  accounts: RecurlyObject[];
  plans: RecurlyObject[];
  /** Add-ons by plan id. */
  addOns: Map<string, RecurlyObject[]>;
  subscriptions: RecurlyObject[];
  /** Each invoice's `line_items` is the full array of its lines; the fake embeds the first ones. */
  invoices: RecurlyObject[];
}

/** An answer to force on the next matching requests. */
export interface Fault {
  status: number;
  /** A 429 gets Recurly's X-RateLimit-* headers (reset now) unless these give `retry-after`. */
  headers?: Record<string, string>;
  /** Answers after this many milliseconds (a client timeout shorter than it fails first). */
  delayMs?: number;
  /** Only requests whose path starts with this; default every request. */
  path?: string;
}

export interface FakeRecurly {
  url: URL;
  data: RecurlyData;
  /** Every request, as method and path with query. */
  requests: string[];
  /** Queues faults, one request each. */
  fail(...faults: Fault[]): void;
  close(): Promise<void>;
}

export const API_VERSION = 'v2021-02-25';
const EMBEDDED_LINES = 10;
const ERROR_TYPES: Record<number, [string, string]> = {
  429: ['rate_limited', 'You have made too many API requests in the last 5 minutes'],
  500: ['internal_server_error', 'An internal server error has occurred'],
  502: ['bad_gateway', 'Bad gateway'],
  503: ['service_not_available', 'The service is temporarily unavailable'],
};

function send(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': `req-${Math.random().toString(36).slice(2, 10)}`,
    ...headers,
  });
  res.end(JSON.stringify(body));
}

function error(res: ServerResponse, status: number, type: string, message: string, headers = {}) {
  send(res, status, { error: { type, message } }, headers);
}

/**
 * One page of a Recurly list: sorted by `sort` (created_at or updated_at) and `order`,
 * `begin_time` and `end_time` inclusive on the sort field, at most `limit` (200) objects, after
 * the `cursor` (the sort value and id of the last object of the page before). `next` repeats
 * the query with the cursor, as Recurly's links do.
 */
function listPage(items: readonly RecurlyObject[], path: string, query: URLSearchParams) {
  const sort = query.get('sort') === 'updated_at' ? 'updated_at' : 'created_at';
  const desc = query.get('order') === 'desc';
  const limit = Math.min(Number(query.get('limit') ?? 20), 200);
  const begin = query.get('begin_time');
  const end = query.get('end_time');
  const key = (item: RecurlyObject) => `${Date.parse(item[sort])}\u0000${item.id}`;
  let sorted = items
    .filter((item) => begin === null || Date.parse(item[sort]) >= Date.parse(begin))
    .filter((item) => end === null || Date.parse(item[sort]) <= Date.parse(end))
    .map((item) => ({ item, key: key(item) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (desc) sorted = sorted.reverse();
  const cursor = query.get('cursor');
  if (cursor !== null) {
    const after = Buffer.from(cursor, 'base64url').toString();
    sorted = sorted.filter(({ key: k }) => (desc ? k < after : k > after));
  }
  const page = sorted.slice(0, limit);
  const hasMore = sorted.length > limit;
  let next: string | null = null;
  if (hasMore) {
    const params = new URLSearchParams(query);
    params.set('cursor', Buffer.from(page.at(-1)!.key).toString('base64url'));
    params.set('limit', String(limit));
    next = `${path}?${params.toString()}`;
  }
  return { object: 'list', has_more: hasMore, next, data: page.map(({ item }) => item) };
}

/** An object named in a path: by id, or by code with the `code-` prefix. */
function find(items: readonly RecurlyObject[], ref: string): RecurlyObject | undefined {
  const ref_ = decodeURIComponent(ref);
  return ref_.startsWith('code-')
    ? items.find((item) => item.code === ref_.slice(5))
    : items.find((item) => item.id === ref_);
}

/**
 * A local server answering the Recurly API v3 calls processor-c makes, in Recurly's wire
 * format: HTTP basic authentication with the API key, the `Accept:
 * application/vnd.recurly.v2021-02-25` version header, list envelopes with `has_more` and a
 * `next` link, `code-` references, Recurly error bodies, and queued faults (429 with its
 * rate-limit headers, 5xx, slow answers), each answer after `latencyMs` if given.
 */
export async function startFakeRecurly(
  data: RecurlyData,
  apiKey: string,
  options: { latencyMs?: number } = {},
): Promise<FakeRecurly> {
  const faults: Fault[] = [];
  const requests: string[] = [];
  const expectedAuth = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;

  function invoiceView(invoice: RecurlyObject) {
    const lines = invoice.line_items as RecurlyObject[];
    return {
      ...invoice,
      line_items: lines.slice(0, EMBEDDED_LINES),
      has_more_line_items: lines.length > EMBEDDED_LINES,
    };
  }

  function route(path: string, query: URLSearchParams): object | undefined {
    const list = (
      items: readonly RecurlyObject[],
      view: (item: RecurlyObject) => object = (item) => item,
    ) => {
      const page = listPage(items, path, query);
      return { ...page, data: page.data.map(view) };
    };
    if (path === '/sites') return list([data.site]);
    if (path === '/accounts') return list(data.accounts);
    if (path === '/plans') return list(data.plans);
    if (path === '/subscriptions') return list(data.subscriptions);
    if (path === '/invoices') return list(data.invoices, invoiceView);
    let match = /^\/accounts\/([^/]+)(?:\/(subscriptions|invoices))?$/.exec(path);
    if (match) {
      const account = find(data.accounts, match[1]!);
      if (!account) return undefined;
      const ofAccount = (item: RecurlyObject) => (item.account as { id: string }).id === account.id;
      if (match[2] === 'subscriptions') return list(data.subscriptions.filter(ofAccount));
      if (match[2] === 'invoices') return list(data.invoices.filter(ofAccount), invoiceView);
      return account;
    }
    match = /^\/plans\/([^/]+)(?:\/(add_ons))?$/.exec(path);
    if (match) {
      const plan = find(data.plans, match[1]!);
      if (!plan) return undefined;
      return match[2] ? list(data.addOns.get(plan.id) ?? []) : plan;
    }
    match = /^\/invoices\/([^/]+)\/line_items$/.exec(path);
    if (match) {
      const invoice = find(data.invoices, match[1]!);
      return invoice && list(invoice.line_items as RecurlyObject[]);
    }
    return undefined;
  }

  function answer(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (req.headers.accept !== `application/vnd.recurly.${API_VERSION}`)
      return error(res, 406, 'invalid_api_version', 'Please request a supported API version');
    if (req.headers.authorization !== expectedAuth) return error(res, 401, 'unauthorized', 'Invalid API key');
    const index = faults.findIndex(
      (fault) => fault.path === undefined || url.pathname.startsWith(fault.path),
    );
    if (index >= 0) {
      const [fault] = faults.splice(index, 1);
      const [type, message] = ERROR_TYPES[fault!.status] ?? ['internal_server_error', 'Unexpected error'];
      const headers =
        fault!.status === 429 && !fault!.headers?.['retry-after']
          ? {
              'x-ratelimit-limit': '2000',
              'x-ratelimit-remaining': '0',
              'x-ratelimit-reset': String(Math.floor(Date.now() / 1000)),
              ...fault!.headers,
            }
          : (fault!.headers ?? {});
      const reply = () => error(res, fault!.status, type, message, headers);
      if (fault!.delayMs) setTimeout(reply, fault!.delayMs);
      else reply();
      return;
    }
    const body = req.method === 'GET' ? route(url.pathname, url.searchParams) : undefined;
    if (body === undefined) return error(res, 404, 'not_found', `Couldn't find resource at ${url.pathname}`);
    const reply = () =>
      send(res, 200, body, {
        'recurly-total-records': String((body as { data?: unknown[] }).data?.length ?? 1),
      });
    if (options.latencyMs) setTimeout(reply, options.latencyMs);
    else reply();
  }

  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}`),
    data,
    requests,
    fail: (...added) => faults.push(...added),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
