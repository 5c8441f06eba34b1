import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StoreBusyError } from '../services/errors.js';

// Directories this process holds: a lock file naming our own pid is ours only if it is here,
// otherwise it was left by an earlier process that had the same pid (pid 1 in a container).
const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function heldByOther(path: string): number | undefined {
  const owner = Number(readFileSync(path, 'utf8'));
  if (!Number.isInteger(owner) || owner <= 0) return undefined;
  if (owner === process.pid) return heldHere.has(path) ? owner : undefined;
  return isAlive(owner) ? owner : undefined;
}

/**
 * PGlite is a single-process database: two instances writing one data directory corrupt
 * it. A lock file holding the owner's pid keeps a second server, a CLI run or a second
 * store in this process out; a lock left by a process that no longer exists is taken over.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const path = resolve(join(dataDir, 'mrrlytics.lock'));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      heldHere.add(path);
      return () => {
        heldHere.delete(path);
        rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = heldByOther(path);
      if (owner !== undefined) {
        throw new StoreBusyError(
          `The data directory ${dataDir} is in use by process ${owner}. Stop that process first, ` +
            'or run the service on PostgreSQL (DATABASE_URL) to share the store between processes.',
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new StoreBusyError(`Could not lock the data directory ${dataDir}`);
}
