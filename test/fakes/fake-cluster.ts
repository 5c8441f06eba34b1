import cluster from 'node:cluster';
import { runPrimary } from '../../src/cluster/primary.js';

/**
 * The cluster primary over FAKE_WORKERS workers that misbehave, as FAKE_WORKER says: `exit` ends
 * at once with status 3 (a database that refuses every start), `hang` stays up and ignores
 * SIGTERM (a worker whose shutdown never ends).
 */
if (cluster.isPrimary) {
  runPrimary({ workers: Number(process.env.FAKE_WORKERS), shutdownTimeoutMs: 500 });
} else if (process.env.FAKE_WORKER === 'exit') {
  process.exit(3);
} else {
  process.on('SIGTERM', () => console.log(`Worker ${process.pid} ignores SIGTERM`));
  setInterval(() => {}, 1000);
  // The primary reports listening workers; this one only says it is up.
  console.log(`Worker ${process.pid} is up`);
}
