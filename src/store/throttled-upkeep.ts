/**
 * Upkeep that runs after writes: at most once every `intervalMs`, one run at a time (a caller
 * meanwhile waits for the run under way). The write before it has committed, so nothing here may
 * fail it: a run that fails (a lost connection, two processes at one table) is tried again at
 * the next check.
 */
export function throttledUpkeep(
  work: () => Promise<void>,
  intervalMs: number,
  now: () => number,
): () => Promise<void> {
  let lastCheck = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | null = null;
  return async () => {
    if (running) return running;
    if (now() - lastCheck < intervalMs) return;
    lastCheck = now();
    running = work()
      .catch(() => {})
      .finally(() => {
        running = null;
      });
    return running;
  };
}
