import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Chargebee object as it goes on the wire (JSON, seconds since the epoch, amounts in cents). */
export type WireObject = { id: string } & Record<string, unknown>;

/** What the fake serves, each list in the order Chargebee would list it. */
export interface ChargebeeData {
  /** Customers the site lists; a customer missing here is deleted (retrieving it is a 404). */
  customers: WireObject[];
  items: WireObject[];
  itemPrices: WireObject[];
  subscriptions: WireObject[];
  /**
   * The next term of each subscription with `has_scheduled_changes`, by subscription id: what
   * `retrieve_with_scheduled_changes` answers (the subscription as the changes leave it).
   */
  scheduledChanges: Map<string, WireObject>;
  /** Each invoice's `line_items` is the full array of its lines; the fake pages it. */
  invoices: WireObject[];
  creditNotes: WireObject[];
  /** Payment transactions, each with `linked_invoices` and `linked_refunds`. */
  transactions: WireObject[];
  events: WireObject[];
}

/** An answer to force on the next matching requests. */
export interface Fault {
  status: number;
  headers?: Record<string, string>;
  /** Answers after this many milliseconds (a client timeout shorter than it fails first). */
  delayMs?: number;
  /** Only requests whose path (after /api/v2) starts with this; default every request. */
  path?: string;
}

export interface FakeChargebee {
  url: URL;
  data: ChargebeeData;
  /** Every request, as method and path with query (decoded). */
  requests: string[];
  /** Queues faults, one request each. */
  fail(...faults: Fault[]): void;
  close(): Promise<void>;
}

/** Chargebee's error body: its message, type, code and the status again. */
function error(
  res: ServerResponse,
  status: number,
  body: { message: string; type?: string; api_error_code: string; param?: string },
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8', ...headers });
  res.end(
    JSON.stringify({
      ...body,
      error_code: body.api_error_code,
      error_msg: body.message,
      http_status_code: status,
    }),
  );
}

/** Filters as the SDK sends them: `field[is]=x`, `field[in]=["a","b"]`, `field[after]=n`. */
function matches(item: WireObject, query: URLSearchParams): boolean {
  for (const [key, value] of query) {
    const filter = /^([a-z_]+)\[(is|in|after)\]$/.exec(key);
    if (!filter) continue;
    const field = item[filter[1]!];
    if (filter[2] === 'is' && field !== value) return false;
    if (filter[2] === 'in' && !(JSON.parse(value) as unknown[]).includes(field)) return false;
    if (filter[2] === 'after' && !(typeof field === 'number' && field > Number(value))) return false;
  }
  return true;
}

/** Chargebee's list envelope: `{list: [{<name>: object}], next_offset}`, the offset an opaque string. */
function listPage(items: readonly WireObject[], name: string, query: URLSearchParams) {
  const limit = Math.min(Number(query.get('limit') ?? 10), 100);
  const offset = query.get('offset');
  let from = 0;
  if (offset !== null) {
    const parsed = /^\["(\d+)"\]$/.exec(offset);
    if (!parsed) return undefined;
    from = Number(parsed[1]);
  }
  const page = items.slice(from, from + limit);
  return {
    list: page.map((item) => ({ [name]: item })),
    ...(from + limit < items.length ? { next_offset: `["${from + limit}"]` } : {}),
  };
}

/**
 * A local server answering the Chargebee API calls processor-b makes, in Chargebee's wire
 * format: the site named by the Host header, Basic authentication with the API key as user
 * name, list envelopes paged with `limit`/`offset`/`next_offset`, the filters the connector
 * sends, replacing a subscription's items (`update_for_items`), Chargebee error bodies, and
 * queued faults (429 with `Retry-After`, 5xx, slow answers), each answer after `latencyMs` if given.
 */
export async function startFakeChargebee(
  data: ChargebeeData,
  site: string,
  apiKey: string,
  options: { embeddedLines?: number; latencyMs?: number } = {},
): Promise<FakeChargebee> {
  const faults: Fault[] = [];
  const requests: string[] = [];
  const embedded = options.embeddedLines ?? 10;

  function invoiceView(invoice: WireObject, from = 0, limit = embedded) {
    const lines = invoice.line_items as WireObject[];
    const more = from + limit < lines.length;
    return {
      ...invoice,
      line_items: lines.slice(from, from + limit),
      ...(more ? { line_items_next_offset: `["${from + limit}"]` } : {}),
    };
  }

  function sorted(items: WireObject[], query: URLSearchParams): WireObject[] {
    const asc = query.get('sort_by[asc]');
    const desc = query.get('sort_by[desc]');
    const field = asc ?? desc;
    if (field === null) return items;
    const sign = asc !== null ? 1 : -1;
    return [...items].sort((a, b) => sign * ((a[field] as number) - (b[field] as number)));
  }

  function route(path: string, query: URLSearchParams): object | undefined | 'not_found' {
    const list = (items: WireObject[], name: string) =>
      listPage(
        sorted(
          items.filter((item) => matches(item, query)),
          query,
        ),
        name,
        query,
      );
    if (path === '/customers') return list(data.customers, 'customer');
    const customer = /^\/customers\/([^/]+)$/.exec(path);
    if (customer) {
      const found = data.customers.find((item) => item.id === decodeURIComponent(customer[1]!));
      return found ? { customer: found } : 'not_found';
    }
    if (path === '/items') return list(data.items, 'item');
    if (path === '/item_prices') return list(data.itemPrices, 'item_price');
    if (path === '/subscriptions') {
      const page = list(data.subscriptions, 'subscription');
      return (
        page && {
          ...page,
          list: page.list.map((entry) => {
            const sub = entry.subscription as WireObject;
            const owner = data.customers.find((item) => item.id === sub.customer_id);
            return owner ? { ...entry, customer: owner } : entry;
          }),
        }
      );
    }
    const withChanges = /^\/subscriptions\/([^/]+)\/retrieve_with_scheduled_changes$/.exec(path);
    if (withChanges) {
      const id = decodeURIComponent(withChanges[1]!);
      const current = data.subscriptions.find((item) => item.id === id);
      if (!current) return 'not_found';
      const next = data.scheduledChanges.get(id) ?? current;
      const customer = data.customers.find((item) => item.id === current.customer_id);
      return { subscription: next, ...(customer ? { customer } : {}) };
    }
    if (path === '/invoices') {
      const page = list(data.invoices, 'invoice');
      return (
        page && {
          ...page,
          list: page.list.map((entry) => ({ invoice: invoiceView(entry.invoice as WireObject) })),
        }
      );
    }
    const invoice = /^\/invoices\/([^/]+)$/.exec(path);
    if (invoice) {
      const found = data.invoices.find((item) => item.id === decodeURIComponent(invoice[1]!));
      if (!found) return 'not_found';
      const offset = query.get('line_items_offset');
      const from = offset === null ? 0 : Number(/^\["(\d+)"\]$/.exec(offset)?.[1] ?? NaN);
      if (Number.isNaN(from)) return undefined;
      return {
        invoice: invoiceView(found, from, Math.min(Number(query.get('line_items_limit') ?? embedded), 300)),
      };
    }
    if (path === '/credit_notes') return list(data.creditNotes, 'credit_note');
    if (path === '/transactions') return list(data.transactions, 'transaction');
    if (path === '/events') return list(data.events, 'event');
    return 'not_found';
  }

  /**
   * `POST /subscriptions/{id}/update_for_items` with `replace_items_list=true`: the
   * subscription's items become those listed (`subscription_items[item_price_id][i]`, with
   * `[quantity][i]`), so an addon left out is removed. No invoice or credit is raised.
   */
  function updateForItems(id: string, form: URLSearchParams): object | 'not_found' | undefined {
    const subscription = data.subscriptions.find((item) => item.id === id);
    if (!subscription) return 'not_found';
    if (form.get('replace_items_list') !== 'true') return undefined;
    const current = subscription.subscription_items as WireObject[];
    const listed = [...form].flatMap(([key, value]) => {
      const at = /^subscription_items\[item_price_id\]\[(\d+)\]$/.exec(key)?.[1];
      if (at === undefined) return [];
      const quantity = form.get(`subscription_items[quantity][${at}]`);
      const before = current.find((item) => item.item_price_id === value);
      return before ? [{ ...before, ...(quantity === null ? {} : { quantity: Number(quantity) }) }] : [];
    });
    subscription.subscription_items = listed;
    const customer = data.customers.find((item) => item.id === subscription.customer_id);
    return { subscription, ...(customer ? { customer } : {}) };
  }

  function answer(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(`${req.method} ${url.pathname}${decodeURIComponent(url.search)}`);
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (host !== `${site}.chargebee.com`) {
      return error(res, 404, {
        message: 'Sorry, we couldn’t find that site',
        type: 'invalid_request',
        api_error_code: 'site_not_found',
      });
    }
    const expected = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      return error(res, 401, {
        message: 'Sorry, authentication failed. Invalid api key',
        api_error_code: 'api_authentication_failed',
      });
    }
    const path = url.pathname.replace(/^\/api\/v2/, '');
    const index = faults.findIndex((fault) => fault.path === undefined || path.startsWith(fault.path));
    if (index >= 0) {
      const [fault] = faults.splice(index, 1);
      const send = () =>
        fault!.status === 429
          ? error(
              res,
              429,
              {
                message:
                  'Sorry, access has been blocked temporarily due to request count exceeding acceptable limits. Please try after some time.',
                api_error_code: 'api_request_limit_exceeded',
              },
              fault!.headers,
            )
          : fault!.status >= 500
            ? error(
                res,
                fault!.status,
                {
                  message: 'Sorry, Something went wrong when trying to process the request.',
                  api_error_code: 'internal_error',
                },
                fault!.headers,
              )
            : sendBody();
      if (fault!.delayMs) setTimeout(send, fault!.delayMs);
      else send();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', sendBody);

    function sendBody() {
      const update = /^\/subscriptions\/([^/]+)\/update_for_items$/.exec(path);
      if (req.method !== 'GET' && !(req.method === 'POST' && update)) {
        return error(res, 405, { message: 'Only reads are served', api_error_code: 'invalid_request' });
      }
      const body = update
        ? updateForItems(
            decodeURIComponent(update[1]!),
            new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
          )
        : route(path, url.searchParams);
      if (body === 'not_found') {
        return error(res, 404, {
          message: `Sorry, we couldn't find that resource (${path})`,
          type: 'invalid_request',
          api_error_code: 'resource_not_found',
        });
      }
      if (body === undefined) {
        return error(res, 400, {
          message: 'offset is invalid',
          type: 'invalid_request',
          api_error_code: 'param_wrong_value',
          param: 'offset',
        });
      }
      const reply = () => {
        if (res.headersSent || res.destroyed) return;
        res.writeHead(200, { 'content-type': 'application/json;charset=utf-8' });
        res.end(JSON.stringify(body));
      };
      if (options.latencyMs) setTimeout(reply, options.latencyMs);
      else reply();
    }
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
