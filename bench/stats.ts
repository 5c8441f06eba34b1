/** The value at or below which `fraction` of the samples fall (nearest rank). */
export function percentile(samples: readonly number[], fraction: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length)));
  return sorted[rank - 1]!;
}

export const median = (samples: readonly number[]) => percentile(samples, 0.5);

/** Milliseconds since `start` (from process.hrtime.bigint()). */
export const msSince = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

export interface Timing {
  p50: number;
  p99: number;
  samples: number;
}

/**
 * Runs `task` one call after another until `maxSamples` calls or `budgetMs` have passed (at
 * least `minSamples`), and gives the median and 99th percentile in milliseconds.
 */
export async function timeSequential(
  task: () => unknown,
  limits: { minSamples: number; maxSamples: number; budgetMs: number },
): Promise<Timing> {
  const samples: number[] = [];
  const started = process.hrtime.bigint();
  while (
    samples.length < limits.minSamples ||
    (samples.length < limits.maxSamples && msSince(started) < limits.budgetMs)
  ) {
    const start = process.hrtime.bigint();
    await task();
    samples.push(msSince(start));
  }
  return { p50: median(samples), p99: percentile(samples, 0.99), samples: samples.length };
}
