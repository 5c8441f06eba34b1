import { api } from './api.js';

/** `GET /data/data-sources`: the account's sources in creation order. */
export interface DataSource {
  id: string;
  name: string;
  type: SourceType;
  created_at: string;
}

export const SOURCE_TYPES = {
  'processor-a': 'Stripe',
  'processor-b': 'Chargebee',
  'processor-c': 'Recurly',
  api: 'API',
  csv: 'CSV files',
  spreadsheet: 'Spreadsheet',
} as const;
export type SourceType = keyof typeof SOURCE_TYPES;

/** The billing systems a source imports from through a connector (docs/connectors.md). */
export const CONNECTOR_TYPES = ['processor-a', 'processor-b', 'processor-c'] as const;
export type ConnectorType = (typeof CONNECTOR_TYPES)[number];

export function isConnector(source: DataSource): source is DataSource & { type: ConnectorType } {
  return (CONNECTOR_TYPES as readonly string[]).includes(source.type);
}

export async function loadSources(): Promise<DataSource[]> {
  return (await api.get<{ result: DataSource[] }>('/data/data-sources')).result;
}

/** `GET /data/data-sources/{id}/progress`. */
export interface ImportProgress {
  phase: 'idle' | 'processing' | 'done' | 'aborted' | 'error';
  enqueuedCount: number;
  processedCount: number;
  failedCount: number;
  percent: number;
  /** Absent before the first import. */
  startedAt?: string;
  lastActivityAt?: string;
  finishedAt: string | null;
  lastError: string | null;
}

/** The address the billing system delivers its events to for this source (docs/api.md). */
export function webhookUrl(origin: string, accountId: string, source: DataSource): string {
  return `${origin}/webhooks/${source.type}/${accountId}/${source.id}`;
}
