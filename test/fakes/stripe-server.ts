import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Stripe object as it goes on the wire; references to other objects are their ids. */
export type WireObject = { id: string; object: string; created: number } & Record<string, unknown>;

/** What the fake serves: the account and its objects, each list in Stripe's order. */
export interface StripeData {
  account: WireObject;
  customers: WireObject[];
  products: WireObject[];
  prices: WireObject[];
  /** Each subscription's `schedule` is an id of these; `expand[]=data.schedule` gives the object. */
  subscriptionSchedules?: WireObject[];
  subscriptions: WireObject[];
  /** Each invoice's `lines` is the full array of its lines; the fake pages it. */
  invoices: WireObject[];
  /** Invoice payments by invoice id. */
  invoicePayments: Map<string, WireObject[]>;
  /** Credit notes, each with `lines` as the full array of its lines; the fake pages it. */
  creditNotes?: WireObject[];
  /** Charges, each with `refunds` as a full array. */
  charges: WireObject[];
  /** Events, newest first as Stripe lists them; `emit` adds one. */
  events?: WireObject[];
}

/** The platform side of Stripe Connect OAuth, for `/oauth/*`. */
export interface FakeConnect {
  clientId: string;
  /** The platform's secret key, which authenticates `/oauth/token` and `/oauth/deauthorize`. */
  secretKey: string;
  /** The connected account the authorization grants (`stripe_user_id`). */
  accountId: string;
}

/** An answer to force on the next matching requests. */
export interface Fault {
  status: number;
  headers?: Record<string, string>;
  /** Answers after this many milliseconds (a client timeout shorter than it fails first). */
  delayMs?: number;
  /** Only requests whose path starts with this; default every request. */
  path?: string;
}

export interface FakeStripe {
  url: URL;
  data: StripeData;
  /** Every request, as method and path with query. */
  requests: string[];
  /** Queues faults, one request each. */
  fail(...faults: Fault[]): void;
  /** Adds an event (newest) about `object`, as Stripe would without delivering it. */
  emit(type: string, object: Record<string, unknown>): WireObject;
  /** Connect: the accounts with a live grant, and the bodies `/oauth/*` received. */
  grants: Set<string>;
  oauthRequests: { path: string; body: URLSearchParams }[];
  close(): Promise<void>;
}

const EMBEDDED_LINES = 10;

function error(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: body }));
}

/** Stripe's list envelope for one page of `items` after `startingAfter`. */
function listPage(items: readonly WireObject[], url: string, query: URLSearchParams) {
  const limit = Math.min(Number(query.get('limit') ?? 10), 100);
  const before = query.get('ending_before');
  if (before !== null) {
    // The page just before the object, in list order.
    const index = items.findIndex((item) => item.id === before);
    if (index < 0) return undefined;
    const start = Math.max(0, index - limit);
    return { object: 'list', data: items.slice(start, index), has_more: start > 0, url };
  }
  const after = query.get('starting_after');
  let from = 0;
  if (after !== null) {
    const index = items.findIndex((item) => item.id === after);
    if (index < 0) return undefined;
    from = index + 1;
  }
  const data = items.slice(from, from + limit);
  return { object: 'list', data, has_more: from + limit < items.length, url };
}

function expansions(query: URLSearchParams): Set<string> {
  const set = new Set<string>();
  for (const [key, value] of query) if (/^expand\[\d*\]$/.test(key)) set.add(value);
  return set;
}

/**
 * A local server answering the Stripe API calls processor-a makes, in Stripe's wire format:
 * bearer-key authentication, list pages with `limit`/`starting_after`/`has_more`, `expand[]`
 * (of a price's product, an invoice's payments, a subscription's schedule), deleting a
 * subscription item, Stripe error bodies, and queued faults (429 with `Retry-After`, 5xx, slow
 * answers).
 */
export async function startFakeStripe(
  data: StripeData,
  apiKey: string,
  options: { latencyMs?: number; connect?: FakeConnect } = {},
): Promise<FakeStripe> {
  const faults: Fault[] = [];
  const requests: string[] = [];
  const events = (data.events ??= []);
  let eventCount = 0;
  const codes = new Set<string>();
  const grants = new Set<string>();
  const oauthRequests: { path: string; body: URLSearchParams }[] = [];
  const byId = (items: WireObject[]) => new Map(items.map((item) => [item.id, item]));
  const products = byId(data.products);
  // Read at each request, so a test can add schedules and credit notes as Stripe would.
  const schedules = (data.subscriptionSchedules ??= []);
  const creditNotes = (data.creditNotes ??= []);

  /** An object's first lines, as Stripe embeds them, the rest left to its lines endpoint. */
  function embeddedLines(lines: WireObject[], url: string) {
    return {
      object: 'list',
      data: lines.slice(0, EMBEDDED_LINES),
      has_more: lines.length > EMBEDDED_LINES,
      url,
    };
  }

  function invoiceView(invoice: WireObject, expand: Set<string>, prefix: string) {
    const view: Record<string, unknown> = {
      ...invoice,
      lines: embeddedLines(invoice.lines as WireObject[], `/v1/invoices/${invoice.id}/lines`),
    };
    if (expand.has(`${prefix}payments`)) {
      const payments = data.invoicePayments.get(invoice.id) ?? [];
      view.payments = { object: 'list', data: payments, has_more: false, url: '/v1/invoice_payments' };
    }
    return view;
  }

  /**
   * `DELETE /v1/subscription_items/{id}`: the item leaves its subscription, which lists it no
   * more (no proration is invoiced: its invoices stay as they are).
   */
  function deleteItem(id: string): object | undefined {
    for (const subscription of data.subscriptions) {
      const items = (subscription.items as { data: WireObject[] }).data;
      const index = items.findIndex((item) => item.id === id);
      if (index < 0) continue;
      items.splice(index, 1);
      return { id, object: 'subscription_item', deleted: true };
    }
    return undefined;
  }

  function route(path: string, query: URLSearchParams): object | undefined {
    const expand = expansions(query);
    const list = (items: WireObject[], view: (item: WireObject) => object = (item) => item) => {
      const page = listPage(items, path, query);
      return page && { ...page, data: page.data.map(view) };
    };
    if (path === '/v1/account') return data.account;
    if (path === '/v1/events') return list(events);
    if (path === '/v1/customers') return list(data.customers);
    const one = /^\/v1\/(customers|prices)\/([^/]+)$/.exec(path);
    if (one) {
      const found = (one[1] === 'customers' ? data.customers : data.prices).find(
        (item) => item.id === one[2],
      );
      if (found?.object === 'price' && expand.has('product'))
        return { ...found, product: products.get(found.product as string) };
      return (
        found ?? (one[1] === 'customers' ? { id: one[2], object: 'customer', deleted: true } : undefined)
      );
    }
    const customer = query.get('customer');
    const ofCustomer = (items: WireObject[]) =>
      customer === null ? items : items.filter((item) => item.customer === customer);
    if (path === '/v1/prices') {
      return list(data.prices, (price) =>
        expand.has('data.product') ? { ...price, product: products.get(price.product as string) } : price,
      );
    }
    if (path === '/v1/subscriptions') {
      const status = query.get('status');
      const items = ofCustomer(data.subscriptions).filter((sub) =>
        status === 'all' ? true : status ? sub.status === status : sub.status !== 'canceled',
      );
      return list(items, (sub) =>
        expand.has('data.schedule') && typeof sub.schedule === 'string'
          ? { ...sub, schedule: schedules.find((schedule) => schedule.id === sub.schedule) }
          : sub,
      );
    }
    if (path === '/v1/credit_notes') {
      const invoice = query.get('invoice');
      const notes = ofCustomer(creditNotes).filter((note) => invoice === null || note.invoice === invoice);
      return list(notes, (note) => ({
        ...note,
        lines: embeddedLines(note.lines as WireObject[], `/v1/credit_notes/${note.id}/lines`),
      }));
    }
    const noteLines = /^\/v1\/credit_notes\/([^/]+)\/lines$/.exec(path);
    if (noteLines) {
      const note = creditNotes.find((item) => item.id === noteLines[1]);
      return note && list(note.lines as WireObject[]);
    }
    if (path === '/v1/invoices')
      return list(data.invoices, (invoice) => invoiceView(invoice, expand, 'data.'));
    const lines = /^\/v1\/invoices\/([^/]+)\/lines$/.exec(path);
    if (lines) {
      const invoice = data.invoices.find((item) => item.id === lines[1]);
      return invoice && list(invoice.lines as WireObject[]);
    }
    if (path === '/v1/charges') {
      const intent = query.get('payment_intent');
      const charges = data.charges.filter((charge) => intent === null || charge.payment_intent === intent);
      return list(charges, (charge) => {
        if (!expand.has('data.refunds')) return { ...charge, refunds: undefined };
        const refunds = charge.refunds as WireObject[];
        return { ...charge, refunds: { object: 'list', data: refunds, has_more: false, url: '/v1/refunds' } };
      });
    }
    return undefined;
  }

  /** An OAuth error in Stripe's Connect wire format: `{error, error_description}`, not nested. */
  function oauthError(res: ServerResponse, status: number, code: string, description: string) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: code, error_description: description }));
  }

  /**
   * connect.stripe.com: the authorization page (approved at once: it redirects to the
   * redirect_uri with a code and the state), and the platform's token and deauthorize calls.
   */
  function answerConnect(req: IncomingMessage, res: ServerResponse, url: URL, body: string) {
    const connect = options.connect;
    if (!connect) return oauthError(res, 404, 'invalid_request', 'Connect is not set up on this fake');
    if (url.pathname === '/oauth/authorize' && req.method === 'GET') {
      const query = url.searchParams;
      if (query.get('client_id') !== connect.clientId || query.get('response_type') !== 'code')
        return oauthError(res, 400, 'invalid_request', 'Unknown client_id or response_type');
      const code = `ac_${codes.size + 1}_${Math.random().toString(36).slice(2)}`;
      codes.add(code);
      const back = new URL(query.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', query.get('state') ?? '');
      back.searchParams.set('scope', query.get('scope') ?? 'read_only');
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    const form = new URLSearchParams(body);
    oauthRequests.push({ path: url.pathname, body: form });
    if (req.headers.authorization !== `Bearer ${connect.secretKey}`)
      return error(res, 401, { type: 'invalid_request_error', message: 'Invalid API Key provided' });
    if (url.pathname === '/oauth/token' && req.method === 'POST') {
      const code = form.get('code') ?? '';
      if (form.get('grant_type') !== 'authorization_code' || !codes.delete(code))
        return oauthError(res, 400, 'invalid_grant', `Authorization code does not exist: ${code}`);
      grants.add(connect.accountId);
      return json(res, {
        access_token: apiKey,
        livemode: false,
        refresh_token: 'rt_fake',
        scope: 'read_only',
        stripe_publishable_key: 'pk_test_fake',
        stripe_user_id: connect.accountId,
        token_type: 'bearer',
      });
    }
    if (url.pathname === '/oauth/deauthorize' && req.method === 'POST') {
      const account = form.get('stripe_user_id') ?? '';
      if (form.get('client_id') !== connect.clientId || !grants.delete(account))
        return oauthError(
          res,
          401,
          'invalid_client',
          `This application is not connected to stripe account ${account}`,
        );
      return json(res, { stripe_user_id: account });
    }
    return oauthError(
      res,
      404,
      'invalid_request',
      `Unrecognized request URL (${req.method}: ${url.pathname})`,
    );
  }

  function json(res: ServerResponse, body: object) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  function answer(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (url.pathname.startsWith('/oauth/')) {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => answerConnect(req, res, url, Buffer.concat(chunks).toString('utf8')));
      return;
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return error(res, 401, {
        type: 'invalid_request_error',
        message: 'Invalid API Key provided',
      });
    }
    const index = faults.findIndex(
      (fault) => fault.path === undefined || url.pathname.startsWith(fault.path),
    );
    if (index >= 0) {
      const [fault] = faults.splice(index, 1);
      const send = () =>
        fault!.status === 429
          ? error(
              res,
              429,
              { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests' },
              fault!.headers,
            )
          : error(
              res,
              fault!.status,
              { type: 'api_error', message: 'An unexpected error occurred' },
              fault!.headers,
            );
      if (fault!.delayMs) setTimeout(send, fault!.delayMs);
      else send();
      return;
    }
    const deleted = /^\/v1\/subscription_items\/([^/]+)$/.exec(url.pathname);
    const body =
      req.method === 'DELETE' && deleted ? deleteItem(deleted[1]!) : route(url.pathname, url.searchParams);
    if (body === undefined) {
      const param = ['starting_after', 'ending_before'].find((name) => url.searchParams.has(name));
      return param !== undefined
        ? error(res, 400, {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param,
            message: `No such object: '${url.searchParams.get(param)}'`,
          })
        : error(res, 404, {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `Unrecognized request URL (${req.method}: ${url.pathname})`,
          });
    }
    const send = () => {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${requests.length}` });
      res.end(JSON.stringify(body));
    };
    if (options.latencyMs) setTimeout(send, options.latencyMs);
    else send();
  }

  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}`),
    data,
    requests,
    fail: (...added) => faults.push(...added),
    emit(type, object) {
      eventCount++;
      const event: WireObject = {
        id: `evt_fake_${eventCount}`,
        object: 'event',
        created: 1_790_000_000 + eventCount,
        type,
        data: { object },
        livemode: false,
        api_version: null,
        pending_webhooks: 0,
        request: { id: null, idempotency_key: null },
      };
      events.unshift(event);
      return event;
    },
    grants,
    oauthRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
