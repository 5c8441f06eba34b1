import type { ApiClient } from './api-client.js';

/** One CSV export read whole: its size, time and the server's resident memory meanwhile. */
export interface ExportFigures {
  path: string;
  bytes: number;
  rows: number;
  ms: number;
  /** Resident set (VmRSS) in bytes just before the request, and the most seen while it ran. */
  rssBefore: number;
  rssPeak: number;
}

export const EXPORT_PATHS = [
  '/exports/customers.csv',
  '/exports/mrr-movements.csv',
  '/exports/mrr-growth.csv',
] as const;

const SAMPLE_MS = 20;

/**
 * Downloads each export as a client saving it would, counting bytes and records without keeping
 * them, while the server's resident memory is sampled: the export's extra memory is the peak
 * over what the warm server held before it.
 */
export async function measureExports(api: ApiClient, rss: () => number): Promise<ExportFigures[]> {
  const figures: ExportFigures[] = [];
  for (const path of EXPORT_PATHS) {
    const rssBefore = rss();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rss())), SAMPLE_MS);
    const started = performance.now();
    try {
      const response = await fetch(`${api.url}${path}`, { headers: api.headers });
      if (response.status !== 200 || !response.body) throw new Error(`GET ${path}: ${response.status}`);
      let bytes = 0;
      let rows = 0;
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        bytes += chunk.byteLength;
        for (const byte of chunk) if (byte === 10) rows++;
      }
      figures.push({ path, bytes, rows: rows - 1, ms: performance.now() - started, rssBefore, rssPeak });
    } finally {
      clearInterval(sampler);
    }
  }
  return figures;
}
