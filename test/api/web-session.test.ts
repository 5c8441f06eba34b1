import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC_AND_EURO_PLANS, createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { documentedRoutes } from '../helpers/openapi-routes.js';
import { STORE_KINDS } from '../helpers/stores.js';
import {
  inviteMember,
  PASSWORD,
  sessionCookie,
  sessionFrom,
  setUpOwner,
  type WebSession,
} from '../helpers/web-session.js';

const READONLY_REFUSED = { error: 'This action needs the owner or admin role' };
const CSRF_REFUSED = { error: "Missing or invalid CSRF token: send the session's token in x-csrf-token" };

/** The web interface's own write routes, which /openapi.json does not document. */
const WEB_WRITE_ROUTES: [string, string][] = [
  ['POST', '/web/api-keys'],
  ['POST', '/web/api-keys/00000000-0000-4000-8000-000000000000/regenerate'],
  ['DELETE', '/web/api-keys/00000000-0000-4000-8000-000000000000'],
  ['POST', '/web/team'],
  ['PATCH', '/web/team/00000000-0000-4000-8000-000000000000'],
  ['PATCH', '/web/account'],
];

describe.each(STORE_KINDS)('web sessions on %s', (kind) => {
  let t: TestApp;
  let account: TestAccount;
  let owner: WebSession;

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = await t.newAccount();
    owner = await setUpOwner(t, account.id);
  });
  afterAll(() => t.close());

  function signIn(email: string, password: string) {
    return t.app.inject({ method: 'POST', url: '/web/sign-in', payload: { email, password } });
  }

  it('sets an HttpOnly, SameSite=Strict session cookie, Secure when the request came over https', async () => {
    const plain = await signIn('owner@example.com', PASSWORD);
    expect(plain.statusCode).toBe(200);
    expect(String(plain.headers['set-cookie'])).toMatch(
      /^mrrlytics_session=[\w-]{32}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=604800$/,
    );

    const behindProxy = await createTestApp(kind, { trustProxy: true });
    try {
      const other = await behindProxy.newAccount();
      await setUpOwner(behindProxy, other.id, 'proxied@example.com');
      const secure = await behindProxy.app.inject({
        method: 'POST',
        url: '/web/sign-in',
        headers: { 'x-forwarded-proto': 'https' },
        payload: { email: 'proxied@example.com', password: PASSWORD },
      });
      expect(String(secure.headers['set-cookie'])).toMatch(
        /; HttpOnly; SameSite=Strict; Max-Age=604800; Secure$/,
      );
    } finally {
      await behindProxy.close();
    }
  });

  it('uses the setup link once, and issues none once the account has an owner', async () => {
    const fresh = await t.newAccount('Fresh');
    const link = (await t.services.webAuth.issueSetupTokens()).find((item) => item.accountId === fresh.id)!;
    expect(
      (
        await t.app.inject({ method: 'POST', url: '/web/setup/check', payload: { token: link.token } })
      ).json(),
    ).toEqual({
      valid: true,
    });
    const setup = { token: link.token, email: 'first@example.com', name: 'First', password: PASSWORD };
    expect((await t.app.inject({ method: 'POST', url: '/web/setup', payload: setup })).statusCode).toBe(200);

    const again = await t.app.inject({
      method: 'POST',
      url: '/web/setup',
      payload: { ...setup, email: 'x@example.com' },
    });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'This setup link is not valid (used, replaced or expired)' });
    const accounts = (await t.services.webAuth.issueSetupTokens()).map((item) => item.accountId);
    expect(accounts).not.toContain(fresh.id);
    expect(accounts).not.toContain(account.id);
  });

  it('refuses a short password at setup and keeps the link usable', async () => {
    const fresh = await t.newAccount('Short');
    const link = (await t.services.webAuth.issueSetupTokens()).find((item) => item.accountId === fresh.id)!;
    const short = await t.app.inject({
      method: 'POST',
      url: '/web/setup',
      payload: { token: link.token, email: 'short@example.com', name: '', password: 'short' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ error: 'password must have at least 10 characters' });
    expect(
      (await t.app.inject({ method: 'POST', url: '/web/setup/check', payload: { token: link.token } }))
        .statusCode,
    ).toBe(200);
  });

  it('reads the same JSON as an API key, and reports who is signed in', async () => {
    const me = await owner.call({ method: 'GET', url: '/web/session' });
    expect(me.json()).toMatchObject({
      member: { email: 'owner@example.com', name: 'Olive Owner', role: 'owner' },
      account: { id: account.id, name: 'Test account', base_currency: 'usd' },
      access_level: 'admin',
      // No OAuth client is configured here: the connections page offers key forms only.
      oauth: [],
    });
    const bySession = await owner.call({ method: 'GET', url: '/reports/mrr?date=20260101-20261031' });
    expect(bySession.statusCode).toBe(200);
    expect(bySession.json()).toEqual(await t.read(account.adminKey, '/reports/mrr?date=20260101-20261031'));
  });

  it('still answers 401 to any path without a key or session, and to a wrong key beside a good cookie', async () => {
    for (const url of ['/no/such/route', '/customers', '/web/session']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect({ url, status: response.statusCode, body: response.json() }).toEqual({
        url,
        status: 401,
        body: { error: 'Unauthorized' },
      });
    }
    const mixed = await t.app.inject({
      method: 'GET',
      url: '/customers',
      headers: { cookie: owner.cookie, authorization: 'Bearer mrr_wrong' },
    });
    expect(mixed.statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/customers',
      headers: { cookie: 'mrrlytics_session=forged' },
    });
    expect(forged.statusCode).toBe(401);
  });

  it("refuses a change without the CSRF token, or with another session's, and changes nothing", async () => {
    const other = await sessionFrom(t, await signIn('owner@example.com', PASSWORD));
    const create = {
      method: 'POST' as const,
      url: '/data/data-sources',
      payload: { name: 'csrf', type: 'csv' },
    };
    const missing = await owner.call(create, false);
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toEqual(CSRF_REFUSED);
    const wrong = await owner.call({ ...create, headers: { 'x-csrf-token': other.csrf } }, false);
    expect(wrong.statusCode).toBe(403);
    for (const [method, url] of WEB_WRITE_ROUTES) {
      expect((await owner.call({ method: method, url, payload: {} }, false)).json()).toEqual(CSRF_REFUSED);
    }
    expect((await t.read(account.adminKey, '/data/data-sources')).result).toEqual([]);

    const created = await owner.call(create);
    expect(created.statusCode).toBe(201);
    await owner.call({ method: 'DELETE', url: `/data/data-sources/${created.json().id}` });
  });

  it('refuses a readonly session on every write route, API and web alike', async () => {
    const { session: readonly } = await inviteMember(t, owner, 'reader@example.com', 'readonly');
    expect((await readonly.call({ method: 'GET', url: '/web/session' })).json().access_level).toBe('viewer');
    expect((await readonly.call({ method: 'GET', url: '/customers' })).statusCode).toBe(200);

    const writes = (await documentedRoutes(t.app))
      .filter((route) => route.method !== 'GET')
      // A billing system's webhook takes no key or session: its signature authenticates it.
      .filter((route) => !route.path.startsWith('/webhooks/'))
      // Every member changes their own profile (test/api/profile.test.ts).
      .filter((route) => route.path !== '/profile')
      .map((route) => [route.method, route.path.replace(/\{[^}]+\}/g, 'x')] as [string, string]);
    expect(writes.length).toBeGreaterThan(15);
    for (const [method, url] of [...writes, ...WEB_WRITE_ROUTES]) {
      const response = await readonly.call({ method: method, url, payload: {} });
      expect({ method, url, status: response.statusCode, body: response.json() }).toEqual({
        method,
        url,
        status: 403,
        body: READONLY_REFUSED,
      });
    }
    for (const url of ['/account/api-keys', '/account/team', '/settings/notifications']) {
      expect((await readonly.call({ method: 'GET', url })).json()).toEqual(READONLY_REFUSED);
    }
  });

  it('changes the base currency: reports answer in it at once, an unknown one is refused', async () => {
    // 1 EUR = 1.25 USD on every day the reports below read.
    await t.loadRates('Date,USD\n2026-08-01,1.25\n');
    const fresh = await t.newAccount('Currency');
    const freshOwner = await setUpOwner(t, fresh.id, 'currency@example.com');
    await t.seed(fresh.adminKey, '/data/plans', BASIC_AND_EURO_PLANS);
    await t.seed(fresh.adminKey, '/data/customers', [
      { id: 'invoiced', name: 'Invoiced', currency: 'usd', created_date: '2026-10-01' },
      // No currency of its own and no invoice: its MRR is kept in the account's currency.
      { id: 'subscribed', name: 'Subscribed', created_date: '2026-10-01' },
    ]);
    await t.seed(fresh.adminKey, '/data/invoices', {
      id: 'i1',
      customer_id: 'invoiced',
      currency: 'usd',
      date: '2026-11-01',
      lines: [{ plan_id: 'basic', amount: 5000, period_start: '2026-11-01', period_end: '2026-12-01' }],
    });
    await t.seed(fresh.adminKey, '/data/subscriptions', {
      id: 's1',
      customer_id: 'subscribed',
      plan_id: 'basic',
      started_at: '2026-10-01',
      mrr: 2000,
      currency: 'usd',
    });
    const summary = () => t.read(fresh.viewerKey, '/reports/summary');
    const currencyOf = async (id: string) =>
      (await t.read(fresh.viewerKey, `/customers/${id}`)).currency as string;
    // 5000 + 2000 = 7000 USD.
    expect(await summary()).toMatchObject({ currency: 'usd', summary: { mrr_current: 7000 } });
    expect(await currencyOf('subscribed')).toBe('usd');

    const changed = await freshOwner.call({
      method: 'PATCH',
      url: '/web/account',
      payload: { base_currency: 'EUR' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: fresh.id, base_currency: 'eur' });
    // 7000 USD / 1.25 = 5600 EUR.
    expect(await summary()).toMatchObject({ currency: 'eur', summary: { mrr_current: 5600 } });
    expect(await currencyOf('subscribed')).toBe('eur');
    expect(await currencyOf('invoiced')).toBe('usd');
    expect((await freshOwner.call({ method: 'GET', url: '/web/session' })).json().account.base_currency).toBe(
      'eur',
    );
    expect((await t.read(fresh.adminKey, '/account/profile')).base_currency).toBe('eur');

    // XTS is an ISO 4217 code (for testing) that no exchange-rate file carries.
    const unknown = await freshOwner.call({
      method: 'PATCH',
      url: '/web/account',
      payload: { base_currency: 'xts' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({
      error: 'Invalid field "base_currency": unknown currency "xts": no exchange rates for it',
    });
    expect((await summary()).currency).toBe('eur');
  });

  it('keeps key management in the web interface: an API key cannot use it', async () => {
    const response = await t.call(account.adminKey, {
      method: 'POST',
      url: '/web/api-keys',
      payload: { name: 'k', access_level: 'viewer' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'This action is only available in the web interface' });

    const created = await owner.call({
      method: 'POST',
      url: '/web/api-keys',
      payload: { name: 'From the UI', access_level: 'viewer' },
    });
    expect(created.statusCode).toBe(201);
    const key = created.json<{ key: string; id: string }>();
    expect((await t.call(key.key, { method: 'GET', url: '/customers' })).statusCode).toBe(200);
    const listed = (await t.read(account.adminKey, '/account/api-keys')).result.list;
    expect(listed.find((item: { id: string }) => item.id === key.id)).toMatchObject({
      name: 'From the UI',
      access_level: 'viewer',
    });
    expect(JSON.stringify(listed)).not.toContain(key.key);

    const regenerated = await owner.call({ method: 'POST', url: `/web/api-keys/${key.id}/regenerate` });
    expect((await t.call(key.key, { method: 'GET', url: '/customers' })).statusCode).toBe(401);
    expect((await t.call(regenerated.json().key, { method: 'GET', url: '/customers' })).statusCode).toBe(200);
    expect((await owner.call({ method: 'DELETE', url: `/web/api-keys/${key.id}` })).statusCode).toBe(204);
    expect((await t.call(regenerated.json().key, { method: 'GET', url: '/customers' })).statusCode).toBe(401);
  });

  it('rate limits failed sign-ins per address, and then refuses even the right password', async () => {
    const limited = await createTestApp(kind, {
      rateLimits: { perKey: { perMinute: 0, burst: 0 }, authFailuresPerAddress: { perMinute: 1, burst: 3 } },
    });
    try {
      const other = await limited.newAccount();
      await setUpOwner(limited, other.id, 'limited@example.com');
      const attempt = (password: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/web/sign-in',
          payload: { email: 'limited@example.com', password },
        });
      for (let i = 0; i < 3; i++) {
        const wrong = await attempt('wrong password!');
        expect(wrong.statusCode).toBe(401);
        expect(wrong.json()).toEqual({ error: 'Wrong email or password' });
      }
      const refused = await attempt(PASSWORD);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: 'Too many failed authentications from this address' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('counts wrong current passwords at a password change like failed sign-ins', async () => {
    const limited = await createTestApp(kind, {
      rateLimits: { perKey: { perMinute: 0, burst: 0 }, authFailuresPerAddress: { perMinute: 1, burst: 2 } },
    });
    try {
      const other = await limited.newAccount();
      const session = await setUpOwner(limited, other.id, 'guessed@example.com');
      const change = () =>
        session.call({
          method: 'POST',
          url: '/web/password',
          payload: { current_password: 'a guessed password', new_password: 'a new long password' },
        });
      expect((await change()).json()).toEqual({ error: 'current_password is not correct' });
      expect((await change()).statusCode).toBe(400);
      const refused = await change();
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: 'Too many failed authentications from this address' });
    } finally {
      await limited.close();
    }
  });

  it('answers an unknown email like a wrong password', async () => {
    const response = await signIn('nobody@example.com', PASSWORD);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'Wrong email or password' });
  });

  it('changes the password: the old one stops working and other sessions end, this one stays', async () => {
    const { session: admin } = await inviteMember(t, owner, 'changer@example.com', 'admin');
    const elsewhere = await sessionFrom(t, await signIn('changer@example.com', PASSWORD));
    const change = (current: string) =>
      admin.call({
        method: 'POST',
        url: '/web/password',
        payload: { current_password: current, new_password: 'a new long password' },
      });
    const wrong = await change('not the password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'current_password is not correct' });
    expect((await change(PASSWORD)).statusCode).toBe(204);

    expect((await signIn('changer@example.com', PASSWORD)).statusCode).toBe(401);
    expect((await signIn('changer@example.com', 'a new long password')).statusCode).toBe(200);
    expect((await elsewhere.call({ method: 'GET', url: '/web/session' })).statusCode).toBe(401);
    expect((await admin.call({ method: 'GET', url: '/web/session' })).statusCode).toBe(200);
  });

  it('signs out: the cookie is cleared and the session no longer works', async () => {
    const session = await sessionFrom(t, await signIn('owner@example.com', PASSWORD));
    const out = await session.call({ method: 'POST', url: '/web/sign-out' });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toBe(
      'mrrlytics_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0',
    );
    expect((await session.call({ method: 'GET', url: '/customers' })).statusCode).toBe(401);
  });

  it('applies a role change at once, and a disabled member is signed out and cannot sign in', async () => {
    const { id, session } = await inviteMember(t, owner, 'mover@example.com', 'admin');
    const create = {
      method: 'POST' as const,
      url: '/data/data-sources',
      payload: { name: 'by mover', type: 'csv' },
    };
    expect(
      (await owner.call({ method: 'PATCH', url: `/web/team/${id}`, payload: { role: 'readonly' } })).json(),
    ).toMatchObject({
      role: 'readonly',
    });
    expect((await session.call(create)).statusCode).toBe(403);

    expect(
      (await owner.call({ method: 'PATCH', url: `/web/team/${id}`, payload: { status: 'disabled' } }))
        .statusCode,
    ).toBe(200);
    expect((await session.call({ method: 'GET', url: '/customers' })).statusCode).toBe(401);
    expect((await signIn('mover@example.com', PASSWORD)).statusCode).toBe(401);
  });

  it('protects the owner and the acting member from changes, and accepts an invitation only once', async () => {
    const ownerId = (await owner.call({ method: 'GET', url: '/web/session' })).json().member.id;
    const { id: adminId, session: admin } = await inviteMember(t, owner, 'guard@example.com', 'admin');
    const ownerChange = await admin.call({
      method: 'PATCH',
      url: `/web/team/${ownerId}`,
      payload: { status: 'disabled' },
    });
    expect(ownerChange.json()).toEqual({ error: "The owner's role and status cannot be changed" });
    const selfChange = await admin.call({
      method: 'PATCH',
      url: `/web/team/${adminId}`,
      payload: { role: 'readonly' },
    });
    expect(selfChange.json()).toEqual({ error: 'You cannot change your own role or status' });
    const asOwner = await admin.call({
      method: 'POST',
      url: '/web/team',
      payload: { email: 'o2@example.com', role: 'owner' },
    });
    expect(asOwner.statusCode).toBe(400);

    const invited = await owner.call({
      method: 'POST',
      url: '/web/team',
      payload: { email: 'Once@Example.com', role: 'readonly' },
    });
    const token = invited.json().invite_token as string;
    expect(
      (await t.app.inject({ method: 'POST', url: '/web/invitations/check', payload: { token } })).json(),
    ).toEqual({
      email: 'Once@Example.com',
      name: '',
    });
    const accept = () =>
      t.app.inject({
        method: 'POST',
        url: '/web/invitations/accept',
        payload: { token, password: PASSWORD },
      });
    const first = await accept();
    expect(sessionCookie(first)).toMatch(/^mrrlytics_session=/);
    const second = await accept();
    expect(second.statusCode).toBe(404);
    const team = (await t.read(account.adminKey, '/account/team')).result.list;
    expect(team.find((member: { email: string }) => member.email === 'Once@Example.com')).toMatchObject({
      role: 'readonly',
      status: 'active',
    });
  });
});
