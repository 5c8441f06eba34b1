import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The status it was answered with. */
  status: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The parsed bodies of the requests answered 2xx. */
  accepted(): { id: string; type: string; created_at: string; data: Record<string, unknown> }[];
  close(): Promise<void>;
}

/** An HTTP endpoint on 127.0.0.1 that answers the n-th request (from 1) with `statusOf(n)`. */
export async function startReceiver(statusOf: (n: number) => number = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = statusOf(received.length + 1);
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      response
        .writeHead(status, { 'content-type': 'text/plain' })
        .end(status < 300 ? 'ok' : `refused ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    accepted: () => received.filter((r) => r.status < 300).map((r) => JSON.parse(r.body)),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * The check docs/webhooks.md gives receivers, written out as they would: the HMAC of
 * "<t>.<raw body>" under the secret, compared in constant time, and a timestamp within five
 * minutes of `nowSeconds`.
 */
export function verifySignature(
  header: string,
  rawBody: string,
  secret: string,
  nowSeconds: number,
): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > 300 || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  return expected.length === parts.v1.length && timingSafeEqual(Buffer.from(expected), Buffer.from(parts.v1));
}
