import type { RecordsPage } from '../services/connector-pages.js';
import type { DataSourceType } from '../engine/vocabulary.js';

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
}

/** A webhook event, once its signature is verified: its id and the customer it concerns. */
export interface ConnectorEvent {
  id: string;
  customerId: string | null;
}

/** One billing system: a folder under src/connectors with its client, mapping and sync. */
export interface Connector {
  type: DataSourceType;
  /** The system's name, for messages: "Stripe". */
  system: string;
  /** Opens a session with a stored secret (an API key). */
  open(secret: string): ConnectorSession;
  /** Verifies a webhook delivery with the signing secret; throws when the signature is wrong. */
  readEvent?(payload: string, signature: string, secret: string): ConnectorEvent;
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
