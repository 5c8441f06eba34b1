import type { Clock } from '../services/clock.js';
import { hashSecret, newToken } from '../services/api-key-secrets.js';
import { ConflictError, InvalidInputError, NotConfiguredError, NotFoundError } from '../services/errors.js';
import type { Store } from '../store/open-store.js';
import type { DataSourceType } from '../engine/vocabulary.js';
import type { ConnectorOAuth, ConnectorRegistry } from './connector.js';
import type { ImportControl } from './import-control.js';

/** How long an authorization may take, from the redirect to the system to its callback. */
export const OAUTH_STATE_LIFETIME_MS = 10 * 60 * 1000;

/** Where the system's authorization page sends the browser back, under PUBLIC_URL. */
export function oauthCallbackPath(type: DataSourceType): string {
  return `/oauth/${type}/callback`;
}

/** A state that is unknown, expired, used or no longer backed by an admin's session. */
export class OAuthStateError extends InvalidInputError {
  override name = 'OAuthStateError';
}

/** What the callback did: connected the source, or failed after the state was good. */
export type OAuthCallbackOutcome = { connected: string } | { error: string; dataSourceId: string };

/**
 * Connecting a source by OAuth (Stripe Connect): the authorization request with a single-use
 * `state` kept server-side as a hash, bound to the account, the data source and the web session
 * that asked; the callback that checks it and exchanges the code; and revoking the grant.
 */
export function createOAuthControl(deps: {
  store: Store;
  clock: Clock;
  connectors: ConnectorRegistry;
  imports: ImportControl;
  /** PUBLIC_URL: the address browsers reach this server at, for the redirect URI. */
  publicUrl: string | undefined;
}) {
  const { store, clock, connectors, imports } = deps;
  const publicUrl = deps.publicUrl?.replace(/\/+$/, '');

  function oauthOf(type: DataSourceType): { oauth: ConnectorOAuth; redirectUri: string } {
    const connector = connectors.get(type);
    if (!connector?.oauth || publicUrl === undefined)
      throw new NotConfiguredError(
        `Connecting ${connector?.system ?? type} by OAuth is not configured on this server ` +
          '(set STRIPE_CLIENT_ID, STRIPE_SECRET_KEY and PUBLIC_URL); connect with an API key instead',
      );
    return { oauth: connector.oauth, redirectUri: `${publicUrl}${oauthCallbackPath(type)}` };
  }

  async function sourceOf(accountId: string, dataSourceId: string, type: DataSourceType) {
    const source = await store.dataSources.get(accountId, dataSourceId);
    if (!source) throw new NotFoundError(`Data source ${dataSourceId} not found`);
    if (source.type !== type) throw new ConflictError(`Data source ${dataSourceId} is not of type ${type}`);
    return source;
  }

  return {
    /** Whether the authorization of `type` can start here (the web page offers the button then). */
    configured(type: DataSourceType): boolean {
      return connectors.get(type)?.oauth !== undefined && publicUrl !== undefined;
    },

    /** The system's authorization page for a signed-in admin's session to connect a source. */
    async authorizeUrl(
      session: { accountId: string; sessionId: string },
      type: DataSourceType,
      dataSourceId: string,
    ): Promise<string> {
      const { oauth, redirectUri } = oauthOf(type);
      await sourceOf(session.accountId, dataSourceId, type);
      const { token, tokenHash } = newToken();
      const now = clock.now();
      await store.oauthStates.deleteExpired(now);
      await store.oauthStates.insert({
        stateHash: tokenHash,
        accountId: session.accountId,
        dataSourceId,
        sessionId: session.sessionId,
        expiresAt: new Date(now.getTime() + OAUTH_STATE_LIFETIME_MS),
      });
      return oauth.authorizeUrl({ state: token, redirectUri });
    },

    /**
     * The browser's return from the authorization page. The state is taken first (used once,
     * whatever follows); a bad one is an OAuthStateError and nothing is stored. Then the
     * system's own refusal (`error`) or the code exchange's failure is reported for the source;
     * success connects it with the grant's credentials and starts its import.
     */
    async callback(
      type: DataSourceType,
      query: { state?: string | undefined; code?: string | undefined; error?: string | undefined },
    ): Promise<OAuthCallbackOutcome> {
      const { oauth } = oauthOf(type);
      const taken =
        query.state === undefined
          ? undefined
          : await store.oauthStates.take(hashSecret(query.state), clock.now());
      if (!taken)
        throw new OAuthStateError(
          'This authorization is not valid (unknown, expired or already used state): start again from the settings',
        );
      const dataSourceId = taken.data_source_id;
      if (query.error !== undefined || query.code === undefined)
        return { error: query.error ?? 'The authorization answer has no code', dataSourceId };
      let credentials;
      try {
        credentials = await oauth.exchange(query.code);
      } catch (error) {
        return { error: error instanceof Error ? error.message : String(error), dataSourceId };
      }
      try {
        await imports.connectWithGrant(taken.account_id, dataSourceId, credentials);
      } catch (error) {
        return { error: error instanceof Error ? error.message : String(error), dataSourceId };
      }
      return { connected: dataSourceId };
    },

    /** Revokes the source's grant at the system and disconnects it. */
    async deauthorize(accountId: string, type: DataSourceType, dataSourceId: string): Promise<void> {
      await sourceOf(accountId, dataSourceId, type);
      await imports.disconnect(accountId, dataSourceId, { revoke: true });
    },
  };
}

export type OAuthControl = ReturnType<typeof createOAuthControl>;
