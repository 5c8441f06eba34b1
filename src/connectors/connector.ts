import type { RecordsPage } from '../services/connector-pages.js';
import type { DataSourceType } from '../engine/vocabulary.js';

/**
 * What a source is connected with, sealed together as one JSON document: an API key (or the
 * access token an OAuth grant gave) and, for systems whose API address depends on it, the site.
 */
export interface ConnectorCredentials {
  apiKey: string;
  /** Chargebee's site ("acme" of acme.chargebee.com); absent for Stripe and Recurly. */
  site?: string | undefined;
  /**
   * Set when an OAuth grant gave the key: the account at the system that granted it (Stripe's
   * `stripe_user_id`), which revoking the grant names.
   */
  grantAccount?: string | undefined;
}

/** The request headers of a webhook delivery, lower-cased as Node gives them. */
export type WebhookHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * One read of the system's change feed (its events list, or objects updated since a time), for
 * the periodic catch-up that repairs missed webhook deliveries.
 */
export interface ChangesPage {
  /** The customers (ids at the system) that the changes read concern. */
  customerIds: string[];
  /** Where the next read starts; opaque to the framework. */
  cursor: string;
  /** More changes wait after `cursor`: read again at once. */
  more: boolean;
}

/** One page read from the billing system. */
export interface SourcePage {
  /** In the `/data/*` shapes, without `data_source`: the runner stamps its own source on them. */
  records: RecordsPage;
  /** Where the next page of the same kind starts; null after the last page. */
  next: string | null;
  /** Objects read from the system on this page, whether or not they became records. */
  fetched: number;
}

/** Who the credentials belong to at the billing system. */
export interface ExternalAccount {
  id: string;
  name: string | null;
  livemode: boolean;
}

/** A connection opened with one set of credentials. */
export interface ConnectorSession {
  account(): Promise<ExternalAccount>;
  /**
   * The object kinds, in the order they are imported: a kind's records may reference only
   * records of kinds before it (plans before the subscriptions and invoices that name them).
   */
  readonly kinds: readonly string[];
  /** One page of a kind, from `cursor` (null: the first page). */
  page(kind: string, cursor: string | null): Promise<SourcePage>;
  /** Everything the system holds about one customer, for a resync; false when it has no such customer. */
  customerRecords?(customerId: string): Promise<RecordsPage | false>;
  /**
   * The change feed after `cursor`. With null it reads nothing and answers the feed's current
   * end, taken when an import starts: what changes after it is caught up from there.
   */
  changes?(cursor: string | null): Promise<ChangesPage>;
}

/** A webhook event, once its signature is verified: its id and the customer it concerns. */
export interface ConnectorEvent {
  id: string;
  customerId: string | null;
  /** The system says our access was revoked (Stripe's `account.application.deauthorized`). */
  revoked?: boolean;
}

/** Connecting by OAuth, for a system and a server configured for it. */
export interface ConnectorOAuth {
  /** The system's authorization page, with the request's parameters. */
  authorizeUrl(params: { state: string; redirectUri: string }): string;
  /** Exchanges the code the callback received for the credentials the grant gives. */
  exchange(code: string): Promise<ConnectorCredentials>;
  /** Revokes the grant that gave these credentials. */
  revoke(credentials: ConnectorCredentials): Promise<void>;
}

/** One billing system: a folder under src/connectors with its client, mapping and sync. */
export interface Connector {
  type: DataSourceType;
  /** The system's name, for messages: "Stripe". */
  system: string;
  /** Whether connecting needs `site` besides the key. */
  needsSite: boolean;
  /** Opens a session with stored credentials. */
  open(credentials: ConnectorCredentials): ConnectorSession;
  /**
   * Verifies a webhook delivery against the source's webhook secret (a signing secret, or a
   * password the system sends); throws when it does not match or the header is missing.
   */
  readEvent?(payload: string, headers: WebhookHeaders, secret: string): ConnectorEvent;
  /** Present when the server is configured to connect this system by OAuth. */
  oauth?: ConnectorOAuth;
}

/** The connectors this server runs, by data-source type. */
export type ConnectorRegistry = ReadonlyMap<DataSourceType, Connector>;

export function connectorRegistry(connectors: readonly Connector[]): ConnectorRegistry {
  return new Map(connectors.map((connector) => [connector.type, connector]));
}

/** A failure of the billing system or of reaching it, named by system for the import's last error. */
export class ConnectorError extends Error {
  override name = 'ConnectorError';
}

/**
 * The object a page cursor points at is gone (deleted while the import ran), so the system
 * cannot say what follows it: the kind is read again from its start, which the upserts allow.
 */
export class CursorLostError extends ConnectorError {
  override name = 'CursorLostError';
}
