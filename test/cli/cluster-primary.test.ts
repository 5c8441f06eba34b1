import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Runs the fake cluster (test/fakes/fake-cluster.ts) until it ends, or signals it once `ready` holds. */
function runFakeCluster(
  worker: 'exit' | 'hang',
  workers: number,
  ready?: (output: string) => boolean,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fakes/fake-cluster.ts'], {
    env: { ...process.env, FAKE_WORKER: worker, FAKE_WORKERS: String(workers) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let signalled = false;
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    if (!signalled && ready?.(output)) signalled = child.kill('SIGTERM');
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('the cluster primary', () => {
  it('stops with an error when five workers died within ten seconds, rather than fork forever', async () => {
    // Five at once: the five deaths fall within the window however slowly the machine forks.
    const { code, output } = await runFakeCluster('exit', 5);
    expect(code).toBe(1);
    expect(output.match(/exited unexpectedly with code 3: starting another/g)).toHaveLength(4);
    expect(output).toMatch(/exited with code 3, the 5th within 10 s: stopping/);
  });

  it('kills workers still running past SHUTDOWN_TIMEOUT_MS and exits with 1', async () => {
    const started = Date.now();
    const { code, output } = await runFakeCluster(
      'hang',
      2,
      (text) => (text.match(/is up/g) ?? []).length === 2,
    );
    expect(code).toBe(1);
    expect(output.match(/ignores SIGTERM/g)).toHaveLength(2);
    expect(output).toContain('Workers not stopped within 500 ms (SHUTDOWN_TIMEOUT_MS): killing them');
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
