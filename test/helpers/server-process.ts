import { type ChildProcess, spawn } from 'node:child_process';
import type { TestLocation } from './stores.js';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  child: ChildProcess;
  /** Everything the process has written so far, stdout and stderr. */
  readonly output: string;
  url: string;
  /** The admin key printed on the first start of a store, if this was one. */
  adminKey: string | undefined;
  /** Resolves when the process has ended, with how. */
  exited: Promise<Exit>;
}

// A first start on PGlite creates the database (initdb and migrations): 20 s on two busy cores.
const START_TIMEOUT_MS = 60_000;

/** The environment that points a server at a test location. */
export function storeEnv(location: TestLocation): NodeJS.ProcessEnv {
  return 'databaseUrl' in location.location
    ? { DATABASE_URL: location.location.databaseUrl }
    : { DATA_DIR: location.location.dataDir, DATABASE_URL: '' };
}

/** Starts the real entry point as the README does, and waits until it says where it listens. */
export function startServer(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), START_TIMEOUT_MS);
    const onData = () => {
      // The banner, with the first-start key when there is one, is written in one piece.
      const url = /running at (http:\/\/\S+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve({
        child,
        get output() {
          return output;
        },
        url,
        adminKey: /\n {2}(mrr_\S+)\n/.exec(output)?.[1],
        exited,
      });
    };
    child.stdout.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before it started:\n${output}`));
    });
  });
}

/** Sends SIGTERM and waits until the process has ended. */
export async function stopServer(server: ServerProcess): Promise<Exit> {
  server.child.kill('SIGTERM');
  return server.exited;
}
