import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { STORE_KINDS } from '../helpers/stores.js';
import { inviteMember, setUpOwner, type WebSession } from '../helpers/web-session.js';

describe.each(STORE_KINDS)('/profile on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount('Acme');
  });
  afterAll(() => t.close());

  const withKey = (method: 'GET' | 'PUT', key: string, payload?: object) =>
    t.call(key, { method, url: '/profile', ...(payload && { payload }) });

  it('answers 404 to an API key while the account has no owner', async () => {
    const response = await withKey('GET', account.adminKey);
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toMatch(/no owner yet/);
  });

  describe('with an owner', () => {
    let owner: WebSession;
    beforeAll(async () => {
      owner = await setUpOwner(t, account.id, 'olive@example.com');
    });

    it("gives an admin key the owner's profile, names split from the display name", async () => {
      const response = await withKey('GET', account.adminKey);
      expect(response.statusCode).toBe(200);
      const profile = response.json();
      // setUpOwner names the owner "Olive Owner": first word, then the rest.
      expect(profile).toMatchObject({
        email: 'olive@example.com',
        first_name: 'Olive',
        last_name: 'Owner',
        locale: null,
        timezone: null,
        accounts: [{ account_id: account.id, name: 'Acme', role: 'owner' }],
      });
      expect((await owner.call({ method: 'GET', url: '/profile' })).json()).toEqual(profile);
    });

    it('refuses a viewer key, since the profile is a person the key does not speak for', async () => {
      const response = await withKey('GET', account.viewerKey);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: 'This endpoint needs an admin API key' });
    });

    it('changes names, locale and time zone; the display name follows', async () => {
      const response = await owner.call({
        method: 'PUT',
        url: '/profile',
        payload: { first_name: 'Olivia', locale: 'da-DK', timezone: 'Europe/Copenhagen' },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        first_name: 'Olivia',
        last_name: 'Owner',
        locale: 'da-DK',
        timezone: 'Europe/Copenhagen',
      });
      const team = await t.call(account.adminKey, { method: 'GET', url: '/account/team' });
      expect(team.json().result.list[0].name).toBe('Olivia Owner');
      // A later change of one name keeps the other as set, not as split from the display name.
      const again = await withKey('PUT', account.adminKey, { last_name: 'Van der Berg' });
      expect(again.json()).toMatchObject({ first_name: 'Olivia', last_name: 'Van der Berg' });
    });

    it("lets a readonly member change their own profile, not the owner's", async () => {
      const { id, session } = await inviteMember(t, owner, 'reader@example.com', 'readonly');
      const response = await session.call({
        method: 'PUT',
        url: '/profile',
        payload: { first_name: 'Rita' },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ id, email: 'reader@example.com', first_name: 'Rita' });
      expect((await withKey('GET', account.adminKey)).json().first_name).toBe('Olivia');
    });

    it('refuses bad values and unknown fields with 400 and changes nothing', async () => {
      for (const [payload, message] of [
        [{ timezone: 'Mars/Olympus' }, /IANA time zone/],
        [{ locale: 'not a locale!' }, /BCP 47/],
        [{ first_name: '' }, /first_name/],
        [{ email: 'new@example.com' }, /email/],
      ] as const) {
        const response = await withKey('PUT', account.adminKey, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().error).toMatch(message);
      }
      expect((await withKey('GET', account.adminKey)).json()).toMatchObject({
        email: 'olive@example.com',
        timezone: 'Europe/Copenhagen',
      });
    });

    it("lists the member's other accounts to their session, never to another account's key", async () => {
      const second = await t.newAccount('Second');
      const secondOwner = await setUpOwner(t, second.id, 'olive@example.com');
      const mine = (await secondOwner.call({ method: 'GET', url: '/profile' })).json();
      expect(mine.accounts.map((entry: { name: string }) => entry.name)).toEqual(['Acme', 'Second']);
      const byKey = (await withKey('GET', second.adminKey)).json();
      expect(byKey.accounts).toEqual([{ account_id: second.id, name: 'Second', role: 'owner' }]);
    });

    it('refuses a session change without its CSRF token', async () => {
      const response = await owner.call(
        { method: 'PUT', url: '/profile', payload: { first_name: 'X' } },
        false,
      );
      expect(response.statusCode).toBe(403);
    });
  });
});
