import Stripe from 'stripe';
import type { ConnectorOAuth } from '../connector.js';
import { ConnectorError } from '../connector.js';
import { callStripe, type StripeApiSettings, stripeClient } from './client.js';

/**
 * Stripe Connect OAuth of a platform: its client id (`ca_...`) and secret key. The SDK sends
 * `oauth.token` and `oauth.deauthorize` to connect.stripe.com unless its host is overridden, in
 * which case they go to that host: `connect` points them (and the authorization page) at a proxy
 * or, in tests, at a local fake.
 */
export interface StripeOAuthSettings {
  clientId: string;
  secretKey: string;
  connect?: Pick<StripeApiSettings, 'host' | 'port' | 'protocol'> | undefined;
}

const CONNECT_HOST = 'connect.stripe.com';

/** The address of Stripe's authorization page: connect.stripe.com, or the configured host. */
function connectBase(settings: StripeOAuthSettings): string {
  const connect = settings.connect ?? {};
  if (connect.host === undefined) return `https://${CONNECT_HOST}`;
  const protocol = connect.protocol ?? 'https';
  return `${protocol}://${connect.host}${connect.port === undefined ? '' : `:${connect.port}`}`;
}

export function stripeOAuth(settings: StripeOAuthSettings, api: StripeApiSettings): ConnectorOAuth {
  // Only the Connect host: with the API host overridden (STRIPE_API_HOST), the SDK would send
  // the OAuth calls there too.
  const platform = stripeClient(settings.secretKey, { timeoutMs: api.timeoutMs, ...settings.connect });
  const call = <T>(fn: () => Promise<T>) => callStripe(fn, api.retry);
  return {
    authorizeUrl({ state, redirectUri }) {
      const params = new URLSearchParams({
        response_type: 'code',
        client_id: settings.clientId,
        scope: 'read_only',
        redirect_uri: redirectUri,
        state,
      });
      return `${connectBase(settings)}/oauth/authorize?${params.toString()}`;
    },

    async exchange(code) {
      const token = await call(() => platform.oauth.token({ grant_type: 'authorization_code', code }));
      if (!token.access_token || !token.stripe_user_id)
        throw new ConnectorError('Stripe: the token answer has no access_token or stripe_user_id');
      return { apiKey: token.access_token, grantAccount: token.stripe_user_id };
    },

    async revoke(credentials) {
      if (credentials.grantAccount === undefined) return;
      const { grantAccount } = credentials;
      await call(async () => {
        try {
          await platform.oauth.deauthorize({ client_id: settings.clientId, stripe_user_id: grantAccount });
        } catch (error) {
          // The account already revoked the grant (from its dashboard, say): nothing left to revoke.
          if (error instanceof Stripe.errors.StripeInvalidClientError && /not connected/i.test(error.message))
            return;
          throw error;
        }
      });
    },
  };
}
