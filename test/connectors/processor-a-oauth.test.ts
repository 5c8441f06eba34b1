import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorRegistry } from '../../src/connectors/connector.js';
import { stripeConnector, type StripeApiSettings } from '../../src/connectors/processor-a/index.js';
import { type FakeStripe, startFakeStripe } from '../fakes/stripe-server.js';
import { createTestApp, TEST_NOW, type TestAccount, type TestApp } from '../helpers/app.js';
import { newSource as createSource } from '../helpers/connector-tests.js';
import { generateAccount, stripeData } from '../helpers/stripe-account.js';
import { STORE_KINDS } from '../helpers/stores.js';
import { inviteMember, setUpOwner, type WebSession } from '../helpers/web-session.js';

// The access token the fake's /oauth/token grants is the key its API accepts.
const ACCESS_TOKEN = 'sk_test_granted_access_token';
const CONNECT = { clientId: 'ca_test_platform', secretKey: 'sk_test_platform', accountId: 'acct_connected' };
const PUBLIC_URL = 'https://mrr.example.com';
const CALLBACK = `${PUBLIC_URL}/oauth/processor-a/callback`;
const WEBHOOK_SECRET = 'whsec_oauth_test';
const STRIPE = { name: 'Stripe', type: 'processor-a' };

describe.each(STORE_KINDS)('processor-a Stripe Connect OAuth on %s', (kind) => {
  let fake: FakeStripe;
  let t: TestApp;
  let account: TestAccount;
  let owner: WebSession;
  const customers = generateAccount(8, '2026-11-23', 5);

  beforeAll(async () => {
    fake = await startFakeStripe(stripeData(customers), ACCESS_TOKEN, { connect: CONNECT });
    const address = { host: '127.0.0.1', port: Number(fake.url.port), protocol: 'http' } as const;
    const api: StripeApiSettings = address;
    const connector = stripeConnector(api, { ...CONNECT, connect: address });
    t = await createTestApp(
      kind,
      {},
      { connectors: connectorRegistry([connector]), secretsKey: randomBytes(32), publicUrl: PUBLIC_URL },
    );
    account = await t.newAccount('OAuth');
    owner = await setUpOwner(t, account.id);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const newSource = (of: TestAccount = account) => createSource(t, of, STRIPE);

  /** An account of its own, whose /settings/processor-a no other test's source shows through. */
  async function alone(name: string): Promise<{ account: TestAccount; owner: WebSession; id: string }> {
    const own = await t.newAccount(name);
    const session = await setUpOwner(t, own.id, `${name.toLowerCase()}@example.com`);
    return { account: own, owner: session, id: await newSource(own) };
  }

  /** Starts the authorization as the session and checks the redirect to Stripe's page. */
  async function authorize(session: WebSession, id: string): Promise<URL> {
    const response = await session.call({
      method: 'GET',
      url: `/oauth/processor-a/authorize?data_source=${id}`,
    });
    expect(response.statusCode, response.body).toBe(302);
    const url = new URL(String(response.headers.location));
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url.origin}/oauth/authorize`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')).toBe('read_only');
    expect(url.searchParams.get('client_id')).toBe(CONNECT.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(url.searchParams.get('state')!.length).toBeGreaterThanOrEqual(32);
    return url;
  }

  /** The browser at Stripe's page: the fake approves and sends it back to the callback. */
  async function approve(authorizeUrl: URL): Promise<string> {
    const response = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const back = new URL(response.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    return `${back.pathname}${back.search}`;
  }

  /** The callback, as the browser arrives from Stripe: no session cookie (SameSite=Strict). */
  const callback = (path: string) => t.app.inject({ method: 'GET', url: path });
  const tokenCalls = () => fake.oauthRequests.filter((request) => request.path === '/oauth/token').length;

  it('connects through the authorization page, imports, and seals the token', async () => {
    expect((await owner.call({ method: 'GET', url: '/web/session' })).json().oauth).toEqual(['processor-a']);
    const id = await newSource();
    const back = await approve(await authorize(owner, id));
    const done = await callback(back);
    expect(done.statusCode, done.body).toBe(302);
    expect(done.headers.location).toBe(`/#/settings/connections?connected=${id}`);
    const token = fake.oauthRequests.find((request) => request.path === '/oauth/token')!;
    expect(token.body.get('grant_type')).toBe('authorization_code');

    await t.services.imports.settled(account.id, id);
    const progress = await t.read(account.adminKey, `/data/data-sources/${id}/progress`);
    // The generated account's deleted customers leave invoices it refuses: lastError names one.
    expect(progress).toMatchObject({ phase: 'done', percent: 100 });
    const settings = await t.read(account.adminKey, '/settings/processor-a');
    expect(settings).toMatchObject({ connected: true, account_id: 'acct_fake', sync_status: 'complete' });
    expect(settings.customers_imported).toBe(fake.data.customers.length);

    const sealed = await t.services.store.connectorImports.secret(account.id, id);
    expect(sealed).toBeDefined();
    expect(sealed).not.toContain(ACCESS_TOKEN);
    expect(Buffer.from(sealed!.replace(/\./g, ''), 'base64').toString('latin1')).not.toContain(ACCESS_TOKEN);

    // The same state again: refused, and no second code exchange.
    const calls = tokenCalls();
    const reused = await callback(back);
    expect(reused.statusCode).toBe(400);
    expect(reused.headers['content-type']).toMatch(/^text\/html/);
    expect(reused.body).toContain('already used');
    expect(tokenCalls()).toBe(calls);
  });

  it('refuses a wrong, a missing or an expired state, and stores nothing', async () => {
    const id = await newSource();
    const url = await authorize(owner, id);
    const calls = tokenCalls();
    const wrong = await callback(`/oauth/processor-a/callback?code=ac_x&state=${'A'.repeat(32)}`);
    expect(wrong.statusCode).toBe(400);
    expect((await callback('/oauth/processor-a/callback?code=ac_x')).statusCode).toBe(400);

    const back = await approve(url);
    t.clock.set(new Date(Date.parse(TEST_NOW) + 11 * 60_000).toISOString());
    try {
      expect((await callback(back)).statusCode).toBe(400);
    } finally {
      t.clock.set(TEST_NOW);
    }
    expect(tokenCalls()).toBe(calls);
    expect(await t.services.store.connectorImports.secret(account.id, id)).toBeUndefined();
    expect((await t.read(account.adminKey, `/data/data-sources/${id}/progress`)).phase).toBe('idle');
  });

  it("reports Stripe's refusal on the connections page: a denied authorization, a code it refuses", async () => {
    const id = await newSource();
    const denied = await authorize(owner, id);
    const state = denied.searchParams.get('state')!;
    const response = await callback(
      `/oauth/processor-a/callback?error=access_denied&error_description=The+user+denied&state=${state}`,
    );
    expect(response.statusCode).toBe(302);
    const location = new URL(String(response.headers.location), PUBLIC_URL);
    expect(location.hash).toContain('/settings/connections?');
    const params = new URLSearchParams(location.hash.split('?')[1]);
    expect(params.get('error')).toBe('access_denied: The user denied');
    expect(params.get('data_source')).toBe(id);

    const refused = await authorize(owner, id);
    const bad = await callback(
      `/oauth/processor-a/callback?code=ac_unknown&state=${refused.searchParams.get('state')!}`,
    );
    expect(bad.statusCode).toBe(302);
    const badParams = new URLSearchParams(String(bad.headers.location).split('?')[1]);
    expect(badParams.get('error')).toBe('Stripe: Authorization code does not exist: ac_unknown (HTTP 400)');
    expect(await t.services.store.connectorImports.secret(account.id, id)).toBeUndefined();
  });

  it('lets only an admin session start: readonly members, API keys and signed-out browsers are refused', async () => {
    const id = await newSource();
    const readonly = await inviteMember(t, owner, 'reader@example.com', 'readonly');
    const url = `/oauth/processor-a/authorize?data_source=${id}`;
    const refused = await readonly.session.call({ method: 'GET', url });
    expect(refused.statusCode).toBe(403);
    expect((await t.call(account.adminKey, { method: 'GET', url })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const unknown = await owner.call({
      method: 'GET',
      url: `/oauth/processor-a/authorize?data_source=${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`,
    });
    expect(unknown.statusCode).toBe(404);

    // A state issued to a member whose session ended is worth nothing.
    const admin = await inviteMember(t, owner, 'admin@example.com', 'admin');
    const back = await approve(await authorize(admin.session, id));
    expect((await admin.session.call({ method: 'POST', url: '/web/sign-out' })).statusCode).toBe(204);
    expect((await callback(back)).statusCode).toBe(400);
  });

  it('deauthorizes: the grant is revoked at Stripe, the credentials forgotten, the records kept', async () => {
    const { account, owner, id } = await alone('Deauthorize');
    expect((await callback(await approve(await authorize(owner, id)))).statusCode).toBe(302);
    await t.services.imports.settled(account.id, id);
    expect(fake.grants.has(CONNECT.accountId)).toBe(true);

    const payload = { data_source: id };
    const url = '/oauth/processor-a/deauthorize';
    const noCsrf = await owner.call({ method: 'POST', url, payload }, false);
    expect(noCsrf.statusCode).toBe(403);
    expect((await t.call(account.viewerKey, { method: 'POST', url, payload })).statusCode).toBe(403);

    const response = await owner.call({ method: 'POST', url, payload });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true, id });
    const revoked = fake.oauthRequests.at(-1)!;
    expect(revoked.path).toBe('/oauth/deauthorize');
    expect(revoked.body.get('client_id')).toBe(CONNECT.clientId);
    expect(revoked.body.get('stripe_user_id')).toBe(CONNECT.accountId);
    expect(fake.grants.has(CONNECT.accountId)).toBe(false);
    expect(await t.services.store.connectorImports.secret(account.id, id)).toBeUndefined();
    expect((await t.read(account.adminKey, '/settings/processor-a')).connected).toBe(false);
    expect((await t.read(account.adminKey, '/data/customers?limit=100')).result.list.length).toBeGreaterThan(
      0,
    );

    // Nothing left to deauthorize.
    const again = await t.call(account.adminKey, { method: 'POST', url, payload });
    expect(again.statusCode).toBe(409);

    // Revoked from Stripe's side already (the webhook missed): Stripe's "not connected" is no obstacle.
    expect((await callback(await approve(await authorize(owner, id)))).statusCode).toBe(302);
    await t.services.imports.settled(account.id, id);
    fake.grants.clear();
    const gone = await t.call(account.adminKey, { method: 'POST', url, payload });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await t.services.store.connectorImports.secret(account.id, id)).toBeUndefined();
  });

  it('disconnects on the account.application.deauthorized webhook event', async () => {
    const { account, owner, id } = await alone('Webhook');
    // A webhook secret given with a key stays when the source is connected again by OAuth.
    await t.services.imports.connectByKey(account.id, id, { apiKey: ACCESS_TOKEN }, WEBHOOK_SECRET);
    await t.services.imports.settled(account.id, id);
    expect((await callback(await approve(await authorize(owner, id)))).statusCode).toBe(302);
    await t.services.imports.settled(account.id, id);
    const payload = JSON.stringify({
      id: 'evt_deauthorized',
      object: 'event',
      type: 'account.application.deauthorized',
      account: CONNECT.accountId,
      created: 1_790_000_000,
      data: { object: { id: 'ca_test_platform', object: 'application', name: 'mrrlytics' } },
    });
    const response = await t.app.inject({
      method: 'POST',
      url: `/webhooks/processor-a/${account.id}/${id}`,
      payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ received: true, outcome: 'applied' });
    expect(await t.services.store.connectorImports.secret(account.id, id)).toBeUndefined();
    expect((await t.read(account.adminKey, '/settings/processor-a')).connected).toBe(false);
  });

  it('answers 503 when OAuth is not configured, while the key form still works', async () => {
    const plain = await createTestApp(
      kind,
      {},
      {
        connectors: connectorRegistry([
          stripeConnector({ host: '127.0.0.1', port: Number(fake.url.port), protocol: 'http' }),
        ]),
        secretsKey: randomBytes(32),
      },
    );
    try {
      const other = await plain.newAccount('No OAuth');
      const session = await setUpOwner(plain, other.id);
      const id = await createSource(plain, other, STRIPE);
      const response = await session.call({
        method: 'GET',
        url: `/oauth/processor-a/authorize?data_source=${id}`,
      });
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toMatch(/STRIPE_CLIENT_ID, STRIPE_SECRET_KEY and PUBLIC_URL/);
      expect((await session.call({ method: 'GET', url: '/web/session' })).json().oauth).toEqual([]);
      // The key form still connects (the import it starts is stopped by close).
      const connect = await plain.call(other.adminKey, {
        method: 'POST',
        url: `/data/data-sources/${id}/connect`,
        payload: { api_key: ACCESS_TOKEN },
      });
      expect(connect.statusCode, connect.body).toBe(200);
    } finally {
      await plain.close();
    }
  });
});
