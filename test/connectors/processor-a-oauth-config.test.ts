import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { stripeConnector } from '../../src/connectors/processor-a/index.js';

describe('Stripe Connect and catch-up configuration', () => {
  it('reads STRIPE_CLIENT_ID, STRIPE_SECRET_KEY, the Connect host, PUBLIC_URL and CATCH_UP_INTERVAL_SECONDS', () => {
    const config = loadConfig({
      STRIPE_CLIENT_ID: 'ca_platform',
      STRIPE_SECRET_KEY: 'sk_test_platform',
      STRIPE_CONNECT_HOST: '127.0.0.1',
      STRIPE_CONNECT_PORT: '4242',
      STRIPE_CONNECT_PROTOCOL: 'http',
      PUBLIC_URL: 'https://mrr.example.com/',
      CATCH_UP_INTERVAL_SECONDS: '60',
    });
    expect(config.connectors.stripeOAuth).toEqual({
      clientId: 'ca_platform',
      secretKey: 'sk_test_platform',
      connect: { host: '127.0.0.1', port: 4242, protocol: 'http' },
    });
    expect(config.publicUrl).toBe('https://mrr.example.com');
    expect(config.catchUpIntervalMs).toBe(60_000);

    const plain = loadConfig({});
    expect(plain.connectors.stripeOAuth).toBeUndefined();
    expect(plain.publicUrl).toBeUndefined();
    expect(plain.catchUpIntervalMs).toBe(300_000);
  });

  it('refuses half a Connect configuration, a client id that is not one, and a relative PUBLIC_URL', () => {
    expect(() => loadConfig({ STRIPE_CLIENT_ID: 'ca_x' })).toThrow(/set together/);
    expect(() => loadConfig({ STRIPE_CLIENT_ID: 'pk_x', STRIPE_SECRET_KEY: 'sk_x' })).toThrow(/ca_/);
    expect(() => loadConfig({ PUBLIC_URL: 'mrr.example.com' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ CATCH_UP_INTERVAL_SECONDS: '-1' })).toThrow(/CATCH_UP_INTERVAL_SECONDS/);
  });

  it("sends the browser to connect.stripe.com's authorization page by default", () => {
    const oauth = stripeConnector({}, { clientId: 'ca_platform', secretKey: 'sk_test_platform' }).oauth!;
    const url = new URL(oauth.authorizeUrl({ state: 'xyz', redirectUri: 'https://mrr.example.com/cb' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://connect.stripe.com/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'ca_platform',
      scope: 'read_only',
      redirect_uri: 'https://mrr.example.com/cb',
      state: 'xyz',
    });
    expect(stripeConnector({}).oauth).toBeUndefined();
  });
});
