import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

const TYPES_MESSAGE = 'must be one of processor-a, processor-b, processor-c, api, csv, spreadsheet';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(STORE_KINDS)('data sources on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
  });
  afterAll(() => t.close());

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    key = account.adminKey,
  ) => t.call(key, { method, url, ...(payload ? { payload } : {}) });

  it('creates, lists, filters, updates and deletes', async () => {
    const created = await call('POST', '/data/data-sources', { name: 'Main books', type: 'processor-a' });
    expect(created.statusCode).toBe(201);
    const source = created.json();
    expect(source).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      account_id: account.id,
      name: 'Main books',
      type: 'processor-a',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const sheet = (await call('POST', '/data/data-sources', { name: 'Sheet', type: 'spreadsheet' })).json();

    expect((await call('GET', '/data/data-sources')).json()).toEqual({ result: [source, sheet] });
    expect((await call('GET', '/data/data-sources?type=spreadsheet')).json()).toEqual({ result: [sheet] });
    expect((await call('GET', '/data/data-sources?type=csv')).json()).toEqual({ result: [] });
    const one = await call('GET', `/data/data-sources/${source.id}`, undefined, account.viewerKey);
    expect([one.statusCode, one.json()]).toEqual([200, source]);

    const renamed = await call('PUT', `/data/data-sources/${source.id}`, { name: 'Renamed' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ ...source, name: 'Renamed' });
    const retyped = await call('PUT', `/data/data-sources/${source.id}`, { type: 'csv' });
    expect(retyped.json()).toEqual({ ...source, name: 'Renamed', type: 'csv' });

    const deleted = await call('DELETE', `/data/data-sources/${source.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await call('GET', '/data/data-sources')).json()).toEqual({ result: [sheet] });
  });

  it.each([
    [{ type: 'csv' }, 'Invalid body field "name": Invalid input: expected string, received undefined'],
    [{ name: '  ', type: 'csv' }, 'Invalid body field "name": must not be empty'],
    [{ name: 'x' }, `Invalid body field "type": ${TYPES_MESSAGE}`],
    [{ name: 'x', type: 'stripe' }, `Invalid body field "type": ${TYPES_MESSAGE}`],
  ])('rejects the create body %j with 400', async (body, message) => {
    const response = await call('POST', '/data/data-sources', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: message });
  });

  it('rejects an unknown type filter and a bad update with 400', async () => {
    const filter = await call('GET', '/data/data-sources?type=paypal');
    expect(filter.statusCode).toBe(400);
    expect(filter.json()).toEqual({ error: `Invalid query parameter "type": ${TYPES_MESSAGE}` });

    const source = (await call('POST', '/data/data-sources', { name: 'Keep', type: 'api' })).json();
    const update = await call('PUT', `/data/data-sources/${source.id}`, { type: 'ftp' });
    expect(update.statusCode).toBe(400);
    expect((await call('GET', '/data/data-sources?type=api')).json().result).toContainEqual(source);
  });

  it('answers 404 for unknown ids and 400 for ids that are not UUIDs', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const missing = await call(
        method,
        `/data/data-sources/${UNKNOWN_ID}`,
        method === 'PUT' ? { name: 'x' } : undefined,
      );
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ error: `Data source ${UNKNOWN_ID} not found` });
      const malformed = await call(
        method,
        '/data/data-sources/abc',
        method === 'PUT' ? { name: 'x' } : undefined,
      );
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toEqual({ error: 'Invalid path parameter "id": must be a UUID' });
    }
  });

  it("never shows or changes another account's data sources", async () => {
    const other = await t.newAccount('Other');
    const theirs = (
      await call('POST', '/data/data-sources', { name: 'Theirs', type: 'csv' }, other.adminKey)
    ).json();
    const mineNow = (await call('GET', '/data/data-sources')).json().result;
    expect(mineNow.map((source: { id: string }) => source.id)).not.toContain(theirs.id);

    expect((await call('GET', `/data/data-sources/${theirs.id}`)).statusCode).toBe(404);
    expect((await call('PUT', `/data/data-sources/${theirs.id}`, { name: 'Hijacked' })).statusCode).toBe(404);
    expect((await call('DELETE', `/data/data-sources/${theirs.id}`)).statusCode).toBe(404);
    expect((await call('GET', '/data/data-sources', undefined, other.adminKey)).json()).toEqual({
      result: [theirs],
    });
  });
});
