import cluster, { type Worker } from 'node:cluster';
import { restartBudget } from './restart-budget.js';
import { dutiesEnv } from './worker-role.js';

export interface PrimarySettings {
  workers: number;
  /** Each worker's own bound on its shutdown (SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs: number;
}

// Five deaths within ten seconds: the workers die as fast as they start.
const RESTARTS = { limit: 5, windowMs: 10_000 };
// A worker whose event loop is stuck cannot run its own shutdown timer: past it and this grace
// the primary kills it.
const KILL_GRACE_MS = 1_000;

/**
 * The primary of WORKERS server processes: it forks them, holds the listening socket (node:cluster
 * hands each connection to a worker in turn), opens no store and serves no request. It forks a
 * worker again when one exits unexpectedly, and stops them all at SIGTERM or SIGINT.
 */
export function runPrimary(settings: PrimarySettings): void {
  /** The running workers and their slot: slot 0 carries the start-up work and the schedules. */
  const slots = new Map<Worker, number>();
  const restarts = restartBudget(RESTARTS.limit, RESTARTS.windowMs);
  let stopping: { status: number } | undefined;

  // A replacement does no start-up work: the imports it would resume may be running in another
  // worker, and printing a new setup link would invalidate the one printed at start.
  const fork = (slot: number, startUp: boolean) => {
    const worker = cluster.fork(dutiesEnv({ startUp: startUp && slot === 0, schedules: slot === 0 }));
    slots.set(worker, slot);
  };

  const stop = (signal: NodeJS.Signals, status: number) => {
    if (stopping) return;
    stopping = { status };
    console.log(`Stopping ${slots.size} workers (${signal})`);
    setTimeout(() => {
      console.error(
        `Workers not stopped within ${settings.shutdownTimeoutMs} ms (SHUTDOWN_TIMEOUT_MS): killing them`,
      );
      for (const worker of slots.keys()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, settings.shutdownTimeoutMs + KILL_GRACE_MS).unref();
    for (const worker of slots.keys()) worker.process.kill(signal);
    if (slots.size === 0) process.exit(status);
  };

  cluster.on('listening', (worker) => console.log(`Worker ${worker.process.pid} is listening`));
  cluster.on('exit', (worker, code, signal) => {
    const slot = slots.get(worker)!;
    slots.delete(worker);
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (stopping) {
      if (code !== 0) stopping.status = 1;
      if (slots.size === 0) process.exit(stopping.status);
      return;
    }
    if (!restarts.allows(Date.now())) {
      console.error(
        `Worker ${worker.process.pid} exited with ${how}, the ${restarts.limit}th within ` +
          `${restarts.windowMs / 1000} s: stopping`,
      );
      stop('SIGTERM', 1);
      return;
    }
    console.error(`Worker ${worker.process.pid} exited unexpectedly with ${how}: starting another`);
    fork(slot, false);
  });
  process.once('SIGINT', () => stop('SIGINT', 0));
  process.once('SIGTERM', () => stop('SIGTERM', 0));

  console.log(`Cluster primary ${process.pid}: starting ${settings.workers} workers`);
  for (let slot = 0; slot < settings.workers; slot++) fork(slot, true);
}
