import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_NOW, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';

describe.each(STORE_KINDS)('account endpoints on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount('Acme');
  });
  afterAll(() => t.close());

  const get = (url: string, key = account.adminKey) => t.call(key, { method: 'GET', url });

  it('lists API key metadata and never a key value', async () => {
    const response = await get('/account/api-keys');
    expect(response.statusCode).toBe(200);
    const { result } = response.json();
    expect(result.count).toBe(2);
    expect(
      result.list.map((key: { name: string; access_level: string }) => [key.name, key.access_level]),
    ).toEqual([
      ['Initial admin key', 'admin'],
      ['viewer', 'viewer'],
    ]);
    for (const key of result.list) {
      expect(Object.keys(key).sort()).toEqual(['access_level', 'created_at', 'id', 'last_used', 'name']);
    }
    expect(response.body).not.toContain(account.adminKey);
    expect(response.body).not.toContain(account.viewerKey);
    expect(response.body).not.toContain(account.viewerKey.slice(4, 14));
  });

  it('lists team members with id, email, name, role, status and last_login', async () => {
    const member = await t.services.team.add(account.id, {
      email: 'ana@example.com',
      name: 'Ana',
      role: 'admin',
    });
    const response = await get('/account/team');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      result: {
        count: 1,
        list: [
          {
            id: member.id,
            email: 'ana@example.com',
            name: 'Ana',
            role: 'admin',
            status: 'pending',
            last_login: null,
          },
        ],
      },
    });
  });

  it('refuses a second member with the same email, in any case', async () => {
    await expect(
      t.services.team.add(account.id, { email: 'ANA@example.com', name: 'Ana again', role: 'readonly' }),
    ).rejects.toThrow('A team member with email ANA@example.com already exists');
  });

  it('returns the account profile', async () => {
    const response = await get('/account/profile');
    expect(response.json()).toEqual({
      id: account.id,
      name: 'Acme',
      base_currency: 'usd',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    // The hosted service serves the same object at /account.
    expect((await get('/account')).json()).toEqual(response.json());
  });

  it('returns the billing payload of a self-hosted installation with usage counts', async () => {
    await t.services.dataSources.create(account.id, { name: 'Books', type: 'csv' });
    const response = await get('/account/billing');
    expect(response.json()).toEqual({
      plan: 'self-hosted',
      status: 'active',
      price: 0,
      currency: 'usd',
      usage: { data_sources: 1, api_keys: 2, team_members: 1 },
    });
  });

  it('lists no billing invoices: a self-hosted installation is never billed', async () => {
    expect((await get('/account/billing/invoices')).json()).toEqual({ result: { count: 0, list: [] } });
  });

  it('has no billing portal, and says why', async () => {
    const response = await get('/account/billing/portal');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      url: null,
      message: 'This installation is self-hosted and never billed, so it has no billing portal',
    });
    expect((await get('/account/billing/portal', account.viewerKey)).statusCode).toBe(403);
  });

  it('checks no VAT number, and says why', async () => {
    const response = await get('/account/billing/check-vat?vat_number=DK12345678');
    expect([response.statusCode, response.json()]).toEqual([
      200,
      {
        vat_number: 'DK12345678',
        valid: null,
        message: 'This installation is self-hosted and never billed, so it checks no VAT numbers',
      },
    ]);
    expect((await get('/account/billing/check-vat')).json().vat_number).toBeNull();
    expect((await get('/account/billing/check-vat', account.viewerKey)).statusCode).toBe(403);
  });

  it('shows each account only its own keys, team and profile', async () => {
    const other = await t.newAccount('Other');
    const keys = (await get('/account/api-keys', other.adminKey)).json().result;
    expect(keys.count).toBe(2);
    expect((await get('/account/team', other.adminKey)).json()).toEqual({ result: { count: 0, list: [] } });
    expect((await get('/account/profile', other.adminKey)).json().name).toBe('Other');
    expect(keys.list.map((key: { id: string }) => key.id)).not.toEqual(
      (await get('/account/api-keys')).json().result.list.map((key: { id: string }) => key.id),
    );
  });

  it('shows last_used once a key has been used', async () => {
    const list = (await get('/account/api-keys')).json().result.list;
    expect(list.find((key: { access_level: string }) => key.access_level === 'admin').last_used).toBe(
      TEST_NOW,
    );
  });
});
