import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clientNetwork, tokenBuckets } from '../../src/api/rate-limits.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

// Rate limits and the deadline sit in front of the store, so one store kind is enough here;
// test/cli/server-limits.test.ts checks the same through the environment of a real server.
describe('rate limits', () => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp('pglite', {
      rateLimits: {
        perKey: { perMinute: 60, burst: 3 },
        authFailuresPerAddress: { perMinute: 60, burst: 2 },
      },
    });
    account = await t.newAccount();
  });
  afterAll(() => t.close());

  const get = (key: string, remoteAddress = '127.0.0.1', url = '/data/data-sources') =>
    t.app.inject({ method: 'GET', url, remoteAddress, headers: { authorization: `Bearer ${key}` } });

  it('answers 429 with Retry-After to a key past its burst, and counts each key apart', async () => {
    for (let i = 0; i < 3; i++) expect((await get(account.adminKey)).statusCode).toBe(200);
    const limited = await get(account.adminKey);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.json()).toEqual({
      error:
        'Rate limit exceeded: each API key or signed-in member may send 60 requests a minute (bursts of 3)',
    });
    // Keyed by the key, not the address: another key from the same address still passes.
    expect((await get(account.viewerKey)).statusCode).toBe(200);
  });

  it('answers 429 to an address after repeated failed authentications, and spares other addresses', async () => {
    expect((await get('mrr_wrong', '10.0.0.1')).statusCode).toBe(401);
    expect((await get('mrr_wrong', '10.0.0.1')).statusCode).toBe(401);
    const limited = await get('mrr_wrong', '10.0.0.1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.json()).toEqual({ error: 'Too many failed authentications from this address' });
    // Until it regains a try, the address is refused before its key is even looked up.
    expect((await get(account.viewerKey, '10.0.0.1')).statusCode).toBe(429);
    expect((await get('mrr_wrong', '10.0.0.2')).statusCode).toBe(401);
  });

  it('does not count a request that presents no credential at all', async () => {
    for (let i = 0; i < 5; i++) {
      const bare = await t.app.inject({
        method: 'GET',
        url: '/data/data-sources',
        remoteAddress: '10.0.0.3',
      });
      expect(bare.statusCode).toBe(401);
    }
    expect((await get('mrr_wrong', '10.0.0.3')).statusCode).toBe(401);
  });

  it('counts failures of IPv6 addresses per /64: one host may hold all of it', async () => {
    expect((await get('mrr_wrong', '2001:db8:1:2::1')).statusCode).toBe(401);
    expect((await get('mrr_wrong', '2001:db8:1:2:ffff::9')).statusCode).toBe(401);
    expect((await get('mrr_wrong', '2001:0db8:0001:0002:abcd::1')).statusCode).toBe(429);
    expect((await get('mrr_wrong', '2001:db8:1:3::1')).statusCode).toBe(401);
  });

  it('names an address by its network: IPv4 alone, IPv6 by its first 64 bits', () => {
    expect(
      [
        '10.1.2.3',
        '::ffff:10.1.2.3',
        '2001:db8::1',
        '2001:DB8:0:0:1::',
        'fe80::1%eth0',
        '::1',
        '1::2:3:4:5:1.2.3.4',
        '1:2:3:4:5:6:7:8',
      ].map(clientNetwork),
    ).toEqual([
      '10.1.2.3',
      '10.1.2.3',
      '2001:db8:0:0::/64',
      '2001:db8:0:0::/64',
      'fe80:0:0:0::/64',
      '0:0:0:0::/64',
      '1:0:2:3::/64',
      '1:2:3:4::/64',
    ]);
  });

  it('never limits /health', async () => {
    for (let i = 0; i < 20; i++) {
      expect(
        (await t.app.inject({ method: 'GET', url: '/health', remoteAddress: '10.0.0.1' })).statusCode,
      ).toBe(200);
    }
  });
});

describe('failed authentications behind a trusted proxy', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp('pglite', {
      rateLimits: {
        perKey: { perMinute: 60, burst: 3 },
        authFailuresPerAddress: { perMinute: 60, burst: 1 },
      },
      trustProxy: '127.0.0.1',
    });
  });
  afterAll(() => t.close());

  it('are counted per forwarded client address, not for the proxy as a whole', async () => {
    const get = (client: string) =>
      t.app.inject({
        method: 'GET',
        url: '/data/data-sources',
        headers: { authorization: 'Bearer mrr_wrong', 'x-forwarded-for': client },
      });
    expect((await get('203.0.113.1')).statusCode).toBe(401);
    expect((await get('203.0.113.1')).statusCode).toBe(429);
    expect((await get('203.0.113.2')).statusCode).toBe(401);
  });
});

describe('token buckets', () => {
  it('allow the burst at once, then the rate, and say how long to wait', () => {
    let now = 0;
    const buckets = tokenBuckets({ perMinute: 6, burst: 2 }, () => now);
    expect([buckets.take('a'), buckets.take('a'), buckets.take('a')]).toEqual([undefined, undefined, 10]);
    now = 5_000;
    expect(buckets.waitFor('a')).toBe(5);
    now = 10_000;
    expect(buckets.take('a')).toBeUndefined();
    expect(buckets.take('a')).toBe(10);
    expect(buckets.take('b')).toBeUndefined();
  });

  it('keep an empty bucket however many other names are only asked about', () => {
    const buckets = tokenBuckets({ perMinute: 1, burst: 1 }, () => 0);
    expect([buckets.take('attacker'), buckets.take('attacker')]).toEqual([undefined, 60]);
    // More names than the table keeps (10,000): asking creates no bucket, so none is pushed out.
    for (let i = 0; i < 20_000; i++) expect(buckets.waitFor(`client ${i}`)).toBeUndefined();
    expect(buckets.waitFor('attacker')).toBe(60);
  });

  it('limit nothing at 0 a minute', () => {
    const buckets = tokenBuckets({ perMinute: 0, burst: 1 });
    for (let i = 0; i < 100; i++) expect(buckets.take('a')).toBeUndefined();
  });
});

describe('the request deadline', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp('pglite', { requestDeadlineMs: 200 });
    t.app.get('/test/slow', { config: { public: true } }, async () => {
      await sleep(1_000);
      return { done: true };
    });
    t.app.get('/test/quick', { config: { public: true } }, async () => ({ done: true }));
    // A route whose own 503 has another shape, as /health's has.
    t.app.get(
      '/test/slow-declared',
      { config: { public: true }, schema: { response: { 503: z.object({ status: z.literal('down') }) } } },
      async () => {
        await sleep(1_000);
        return { done: true };
      },
    );
    t.app.post('/test/echo', { config: { public: true } }, async (request) => request.body);
    // An answer streamed for longer than the deadline, as a large export to a slow reader is.
    t.app.get('/test/stream', { config: { public: true } }, async (_request, reply) => {
      async function* slowly() {
        for (const part of ['a,b\r\n', '1,2\r\n', '3,4\r\n']) {
          yield part;
          await sleep(150);
        }
      }
      return reply.type('text/csv').send(Readable.from(slowly()));
    });
  });
  afterAll(() => t.close());

  it('answers 503 naming the deadline when a handler takes longer', async () => {
    const started = performance.now();
    const response = await t.app.inject({ method: 'GET', url: '/test/slow' });
    expect(performance.now() - started).toBeLessThan(900);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: 'The request did not complete within the 0.2 s deadline; a write it started may still complete',
    });
  });

  it('answers the same 503 on a route that declares a 503 of its own', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/slow-declared' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: 'The request did not complete within the 0.2 s deadline; a write it started may still complete',
    });
  });

  it('does not count the time the body takes to arrive (the request timeout bounds that)', async () => {
    async function* slowBody() {
      yield '[1,';
      await sleep(400);
      yield '2]';
    }
    const response = await t.app.inject({
      method: 'POST',
      url: '/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: Readable.from(slowBody()),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([1, 2]);
  });

  it('leaves an answer alone once it streams, however long the stream takes', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/stream' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('a,b\r\n1,2\r\n3,4\r\n');
  });

  it('leaves a quick answer alone', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/quick' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ done: true });
  });
});
