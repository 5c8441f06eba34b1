import { describe, expect, it } from 'vitest';
import { ConnectorError, CursorLostError } from '../connector.js';
import type { RetryPolicy } from '../retry.js';
import { callChargebee, classifyChargebeeError, NotFoundAtChargebee } from './client.js';

// What the SDK rejects with: Chargebee's JSON error body with the status and the headers.
const answer = (status: number, fields: object = {}, headers: Record<string, string> = {}) => ({
  message: `HTTP ${status}`,
  api_error_code: 'x',
  http_status_code: status,
  headers,
  ...fields,
});

const ONCE: RetryPolicy = {
  attempts: 1,
  baseDelayMs: 0,
  maxDelayMs: 0,
  random: () => 0,
  sleep: async () => {},
};

describe('classifyChargebeeError', () => {
  it('retries a 429 after its Retry-After, 5xx and timeouts with backoff, dropped connections too', () => {
    expect(classifyChargebeeError(answer(429, {}, { 'retry-after': '3' }))).toEqual({
      retry: true,
      afterMs: 3000,
    });
    expect(classifyChargebeeError(answer(429))).toEqual({ retry: true, afterMs: undefined });
    expect(classifyChargebeeError(answer(503))).toEqual({ retry: true });
    // The SDK's own timeout error is a 504.
    expect(classifyChargebeeError(Object.assign(new Error('io_error'), { http_status_code: 504 }))).toEqual({
      retry: true,
    });
    expect(classifyChargebeeError(new TypeError('fetch failed'))).toEqual({ retry: true });
    expect(
      classifyChargebeeError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
    ).toEqual({
      retry: true,
    });
  });

  it('gives up at once on other answers and on programming errors', () => {
    expect(classifyChargebeeError(answer(401))).toEqual({ retry: false });
    expect(classifyChargebeeError(answer(400))).toEqual({ retry: false });
    expect(classifyChargebeeError(new RangeError('bug'))).toEqual({ retry: false });
  });
});

describe('callChargebee', () => {
  it("names a final failure as Chargebee's, a 404 and a refused offset by their own classes", async () => {
    // The SDK rejects with Chargebee's error body, which is no Error.
    const fail = (error: unknown) =>
      callChargebee(async () => {
        throw error;
      }, ONCE);
    await expect(fail(answer(401, { message: 'Invalid api key' }))).rejects.toEqual(
      new ConnectorError('Chargebee: Invalid api key (HTTP 401)'),
    );
    await expect(fail(answer(404, { api_error_code: 'resource_not_found' }))).rejects.toBeInstanceOf(
      NotFoundAtChargebee,
    );
    // An unknown site is no missing object: nothing may be taken for deleted.
    const site = await fail(answer(404, { api_error_code: 'site_not_found' })).catch(
      (error: unknown) => error,
    );
    expect(site).toBeInstanceOf(ConnectorError);
    expect(site).not.toBeInstanceOf(NotFoundAtChargebee);
    await expect(fail(answer(400, { param: 'offset' }))).rejects.toBeInstanceOf(CursorLostError);
  });
});
