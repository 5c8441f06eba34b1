import type { ConnectorPages, ImportRun } from '../services/connector-pages.js';
import { type ConnectorSession, CursorLostError } from './connector.js';

/** Where a run resumes: the kind it was reading and the cursor after its last stored page. */
export interface RunPosition {
  kindIndex: number;
  cursor: string | null;
}

export type RunEnd = 'finished' | 'stopped';

/**
 * Reads the kinds page by page from `position` and stores each page with the checkpoint after
 * it. Ends `stopped` when `signal` fires or the store says the run was aborted or replaced.
 */
export async function runImport(
  session: ConnectorSession,
  pages: Pick<ConnectorPages, 'write'>,
  run: ImportRun,
  position: RunPosition,
  signal: AbortSignal,
): Promise<RunEnd> {
  let { kindIndex, cursor } = position;
  while (kindIndex < session.kinds.length) {
    if (signal.aborted) return 'stopped';
    let page;
    try {
      page = await session.page(session.kinds[kindIndex]!, cursor);
    } catch (error) {
      if (!(error instanceof CursorLostError) || cursor === null) throw error;
      cursor = null;
      continue;
    }
    if (signal.aborted) return 'stopped';
    const next =
      page.next === null ? { kindIndex: kindIndex + 1, cursor: null } : { kindIndex, cursor: page.next };
    const stored = await pages.write(run, page.records, { ...next, fetched: page.fetched });
    if (stored === false) return 'stopped';
    ({ kindIndex, cursor } = next);
  }
  return 'finished';
}
