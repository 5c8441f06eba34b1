import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
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
  /** Everything the server has written so far, stdout and stderr. */
  output(): string;
  /** The processes that serve: the process itself, or with several workers the workers (not their primary). */
  pids(): number[];
  /** The serving processes' peak resident memory so far, in bytes (VmHWM), summed. */
  peakRss(): number;
  /** The serving processes' resident memory now, in bytes (VmRSS), summed. */
  rss(): number;
  /**
   * Resolves once the serving processes have stopped computing: a load test's clients leave, but
   * the server still answers the requests they had sent, which would slow whatever comes next.
   */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** DATA_DIR for PGlite or DATABASE_URL for PostgreSQL. */
  env: NodeJS.ProcessEnv;
  /** Writes V8 CPU profiles of the server's whole life into this folder, one per thread. */
  cpuProfileDir?: string | undefined;
  /** WORKERS: server processes behind one cluster primary (PostgreSQL only); default 1. */
  workers?: number;
}

/** The primary's children, which are its workers. */
function children(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(' ').map(Number);
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

const sum = (pids: readonly number[], of: (pid: number) => number) =>
  pids.reduce((total, pid) => total + of(pid), 0);

async function settle(pids: readonly number[]): Promise<void> {
  const started = Date.now();
  for (;;) {
    const before = sum(pids, cpuTicks);
    await new Promise((resolve) => setTimeout(resolve, SETTLE.windowMs));
    if (sum(pids, cpuTicks) - before <= SETTLE.idleTicks) return;
    if (Date.now() - started > SETTLE.maxMs)
      throw new Error(`server ${pids.join(', ')} still busy after ${SETTLE.maxMs} ms`);
  }
}

/** Characters of a dead server's output printed. */
const OUTPUT_SHOWN = 8_000;

let built = false;

/**
 * Compiles the server once per benchmark, before its first start: the benchmark measures the
 * built server that `npm start` runs (the TypeScript loader alone holds about 33 MiB more), and
 * never a build older than the sources.
 */
function buildServer(): void {
  if (built) return;
  execFileSync('npm', ['run', '-s', 'build:server'], { cwd: ROOT, stdio: 'inherit' });
  built = true;
}

/**
 * Starts the built entry point (dist/main.js, as `npm start` runs it) on a free port and waits for
 * its banner, which carries the URL and, on the first start on an empty store, an admin key, and
 * with several workers until the primary has reported each of them listening.
 */
export function startServer(options: ServerOptions): Promise<Server> {
  const workers = options.workers ?? 1;
  const profile = options.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir] : [];
  buildServer();
  const child: ChildProcess = spawn(process.execPath, [...profile, 'dist/main.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      // The load test sends far more than a client should: it measures what the server can serve.
      RATE_LIMIT_PER_MINUTE: '0',
      WORKERS: String(workers),
      // As `npm start` sets it (docs/operations.md, "Memory"): the memory measured is the deployed one.
      MALLOC_MMAP_THRESHOLD_: '131072',
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
      output += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (started) return;
      const url = /running at (http:\/\/\S+)/.exec(output)?.[1];
      // The banner is written in one piece: the key, if any, came with the URL.
      const adminKey = /\n {2}(mrr_\S+)\n/.exec(output)?.[1] ?? null;
      const setupToken = /\/#\/setup\/([\w-]+)/.exec(output)?.[1] ?? null;
      const listening = output.match(/^Worker \d+ is listening$/gm)?.length ?? 0;
      if (!url || child.pid === undefined || (workers > 1 && listening < workers)) return;
      started = true;
      clearTimeout(timer);
      child.off('exit', exited);
      // A server that dies mid-run leaves the client only a reset connection: say why it died,
      // once its output is read to the end ('close' comes after the pipes are drained).
      const died = (code: number | null, signal: NodeJS.Signals | null) =>
        console.error(
          `the server exited with ${signal ?? code} mid-run; its last output:\n${output.slice(-OUTPUT_SHOWN)}`,
        );
      child.on('close', died);
      const pid = child.pid;
      const pids = () => (workers > 1 ? children(pid) : [pid]);
      resolve({
        url,
        adminKey,
        setupToken,
        pid,
        output: () => output,
        pids,
        peakRss: () => sum(pids(), (each) => statusField(each, 'VmHWM')),
        rss: () => sum(pids(), (each) => statusField(each, 'VmRSS')),
        settle: () => settle(pids()),
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
