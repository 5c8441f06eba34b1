import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Server {
  url: string;
  /** The admin key the server printed on its first start on an empty store; null on a restart. */
  adminKey: string | null;
  /** The one-time setup link's token the server printed for an account without an owner, if any. */
  setupToken: string | null;
  pid: number;
  /** The process's peak resident memory so far, in bytes (VmHWM). */
  peakRss(): number;
  /** The process's resident memory now, in bytes (VmRSS). */
  rss(): number;
  /**
   * Resolves once the process has stopped computing: a load test's clients leave, but the
   * server still answers the requests they had sent, which would slow whatever comes next.
   */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** DATA_DIR for PGlite or DATABASE_URL for PostgreSQL. */
  env: NodeJS.ProcessEnv;
  /** Writes a V8 CPU profile of the server's whole life into this folder. */
  cpuProfileDir?: string | undefined;
}

function statusField(pid: number, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match?.[1]) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}

/** CPU time the process has used, in clock ticks (utime + stime in /proc/<pid>/stat). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

const SETTLE = { windowMs: 250, idleTicks: 2, maxMs: 15 * 60_000 };

async function settle(pid: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const before = cpuTicks(pid);
    await new Promise((resolve) => setTimeout(resolve, SETTLE.windowMs));
    if (cpuTicks(pid) - before <= SETTLE.idleTicks) return;
    if (Date.now() - started > SETTLE.maxMs)
      throw new Error(`server ${pid} still busy after ${SETTLE.maxMs} ms`);
  }
}

/** Characters of a running server's output kept for the message if it dies. */
const OUTPUT_KEPT = 8_000;

/**
 * Starts the real entry point (src/main.ts, as `npm run dev` does) on a free port and waits for
 * its banner, which carries the URL and, on the first start on an empty store, an admin key.
 */
export function startServer(options: ServerOptions): Promise<Server> {
  const profile = options.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir] : [];
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ...profile, 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      // The load test sends far more than a client should: it measures what the server can serve.
      RATE_LIMIT_PER_MINUTE: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let started = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 60_000);
    const exited = (code: number | null) => reject(new Error(`the server exited with ${code}:\n${output}`));
    child.on('exit', exited);
    child.stderr?.on('data', (chunk: Buffer) => {
      output = started ? (output + chunk.toString()).slice(-OUTPUT_KEPT) : output + chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      // Past the banner only the tail is kept, for a death's message.
      output = started ? (output + chunk.toString()).slice(-OUTPUT_KEPT) : output + chunk.toString();
      if (started) return;
      const url = /running at (http:\/\/\S+)/.exec(output)?.[1];
      // The banner is written in one piece: the key, if any, came with the URL.
      const adminKey = /\n {2}(mrr_\S+)\n/.exec(output)?.[1] ?? null;
      const setupToken = /\/#\/setup\/([\w-]+)/.exec(output)?.[1] ?? null;
      if (!url || child.pid === undefined) return;
      started = true;
      clearTimeout(timer);
      child.off('exit', exited);
      // A server that dies mid-run leaves the client only a reset connection: say why it died,
      // once its output is read to the end ('close' comes after the pipes are drained).
      const died = (code: number | null, signal: NodeJS.Signals | null) =>
        console.error(`the server exited with ${signal ?? code} mid-run; its last output:\n${output}`);
      child.on('close', died);
      const pid = child.pid;
      resolve({
        url,
        adminKey,
        setupToken,
        pid,
        peakRss: () => statusField(pid, 'VmHWM'),
        rss: () => statusField(pid, 'VmRSS'),
        settle: () => settle(pid),
        stop: () =>
          new Promise((done) => {
            child.off('close', died);
            // One that died mid-run has nothing left to stop.
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
