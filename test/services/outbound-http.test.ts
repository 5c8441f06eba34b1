import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BlockedTargetError,
  OutboundTimeoutError,
  outboundRequest,
  refusedUrl,
  STRICT_OUTBOUND,
} from '../../src/services/outbound-http.js';

const ALLOW_PRIVATE = { allowPrivate: true };

describe('refusedUrl', () => {
  it.each([
    ['not a url', 'must be an absolute http(s) URL'],
    ['ftp://files.example.com/x', 'must be an http(s) URL'],
    ['https://10.0.0.1/x', '10.0.0.1 is a private (RFC 1918) address, which the server does not call'],
    ['http://api.localhost/x', 'api.localhost is a loopback address, which the server does not call'],
    ['https://hooks.example.com/x', null],
    ['https://8.8.8.8/x', null],
  ])('%s: %s', (url, refusal) => {
    expect(refusedUrl(url, STRICT_OUTBOUND)).toBe(refusal);
  });

  it('lets private hosts through when the operator allows them, but never another scheme', () => {
    expect(refusedUrl('http://127.0.0.1:8080/x', ALLOW_PRIVATE)).toBeNull();
    expect(refusedUrl('file:///etc/passwd', ALLOW_PRIVATE)).toBe('must be an http(s) URL');
  });
});

describe('outboundRequest', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/silent') return; // never answers
      if (request.url === '/stalled') return void response.writeHead(200).write('part');
      if (request.url === '/big') return void response.end('x'.repeat(10_000));
      response.writeHead(201, { location: '/elsewhere' }).end('made');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (url: string, policy = ALLOW_PRIVATE, timeoutMs = 2000) =>
    outboundRequest(url, { method: 'GET', timeoutMs, policy });

  it('answers the status, headers and body of an allowed target', async () => {
    const response = await get(`${base}/x`);
    expect(response.status).toBe(201);
    expect(response.header('Location')).toBe('/elsewhere');
    expect(response.header('x-missing')).toBeUndefined();
    expect(await response.read(100)).toEqual({ bytes: Buffer.from('made'), complete: true });
  });

  it('stops reading a body past the limit, and says so', async () => {
    const { bytes, complete } = await (await get(`${base}/big`)).read(1000);
    expect([bytes.length, complete]).toEqual([1000, false]);
  });

  it('fails with a timeout when no answer comes in time', async () => {
    await expect(get(`${base}/silent`, ALLOW_PRIVATE, 300)).rejects.toThrow(OutboundTimeoutError);
    // The limit covers the body too: an answer that starts and stalls fails its read.
    const stalled = await get(`${base}/stalled`, ALLOW_PRIVATE, 300);
    await expect(stalled.read(100)).rejects.toThrow(OutboundTimeoutError);
  });

  it('refuses a private literal, a name that resolves to loopback, and another scheme, before sending', async () => {
    await expect(get(`${base}/x`, STRICT_OUTBOUND)).rejects.toThrow(
      new BlockedTargetError('127.0.0.1 is a loopback address, which the server does not call'),
    );
    const port = new URL(base).port;
    await expect(get(`http://localhost:${port}/x`, STRICT_OUTBOUND)).rejects.toThrow(
      /^localhost resolves to (127\.0\.0\.1|::1), a loopback address, which the server does not call$/,
    );
    await expect(get('ftp://files.example.com/x')).rejects.toThrow(
      new BlockedTargetError('ftp: is not http or https'),
    );
  });
});
