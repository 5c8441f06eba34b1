import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreBusyError } from '../services/errors.js';

/**
 * How long a start waits for a lock holder that is still alive: a process killed a moment ago
 * (`kill -9` then a restart) may take a while to disappear. Documented in docs/operations.md.
 */
const LOCK_WAIT_MS = 5_000;
const POLL_MS = 100;

// Directories this process holds: a lock file naming our own pid is ours only if it is here,
// otherwise it was left by an earlier process that had the same pid (pid 1 in a container).
const heldHere = new Set<string>();

interface ProcessState {
  /** Clock ticks after boot (field 22 of /proc/<pid>/stat); unique for a pid at a time. */
  startTime: string;
  zombie: boolean;
}

/** Undefined where /proc is absent (macOS, BSD), hides the process, or the process is gone. */
function procState(pid: number): ProcessState | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { zombie: fields[0] === 'Z', startTime: fields[19] ?? '' };
}

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process that wrote a lock still runs, as far as this system can tell. */
function ownerAlive(pid: number, startTime: string | undefined): boolean {
  const state = procState(pid);
  // Without /proc, or where it hides other users' processes (hidepid), only the pid can be checked.
  if (!state) return exists(pid);
  if (state.zombie) return false;
  // Another process now has the pid: the owner is gone. A lock without a start time (written
  // before they were recorded) can only be judged by the pid.
  return startTime === undefined || state.startTime === startTime;
}

/** What a lock file holds for a process: its pid, and its start time where /proc tells it. */
export function lockOwner(pid: number): string {
  const startTime = procState(pid)?.startTime;
  return startTime ? `${pid} ${startTime}` : String(pid);
}

/** The lock file's content, or undefined when there is none. */
function readLock(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The pid of the live process a lock's content names, or undefined when the lock is stale. */
function liveOwner(path: string, content: string): number | undefined {
  const [pidText, startTime] = content.trim().split(/\s+/);
  const owner = Number(pidText);
  if (!Number.isInteger(owner) || owner <= 0) return undefined;
  if (owner === process.pid) return heldHere.has(path) ? owner : undefined;
  return ownerAlive(owner, startTime) ? owner : undefined;
}

/**
 * Removes a lock judged stale from `judged`, its content when read. Two starts may judge the
 * same stale lock at once; the first removes it and links its own, and the second must not
 * then remove that live lock. So the lock is first renamed aside, which only one of them can
 * do, and removed only if it is still the one judged; otherwise it is put back. (A third start
 * linking its own lock in that instant could still be let in: the file system offers no
 * compare-and-delete, and three starts on one stale lock within microseconds are left at that.)
 */
export function removeStaleLock(path: string, judged: string): void {
  const aside = `${path}.stale.${process.pid}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (readFileSync(aside, 'utf8') !== judged) linkSync(aside, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(aside, { force: true });
  }
}

/**
 * PGlite is a single-process database: two instances writing one data directory corrupt
 * it. A lock file holding the owner's pid and start time keeps a second server, a CLI run or a
 * second store in this process out. A lock whose owner has exited, or whose pid now belongs to
 * another process, is taken over; a live owner is waited for up to `waitMs`.
 */
export async function acquireDataDirLock(dataDir: string, waitMs = LOCK_WAIT_MS): Promise<() => void> {
  const path = resolve(join(dataDir, 'mrrlytics.lock'));
  const giveUpAt = Date.now() + waitMs;
  // Written whole beside the lock, then linked into place: a link appears with its content, so no
  // other start can read the lock half-written, find no owner in it and remove it.
  const draft = `${path}.${process.pid}`;
  writeFileSync(draft, lockOwner(process.pid));
  try {
    for (;;) {
      try {
        linkSync(draft, path);
        heldHere.add(path);
        return () => {
          heldHere.delete(path);
          rmSync(path, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const content = readLock(path);
      if (content === undefined) continue;
      const owner = liveOwner(path, content);
      if (owner === undefined) {
        removeStaleLock(path, content);
      } else if (owner === process.pid || Date.now() >= giveUpAt) {
        throw new StoreBusyError(
          `The data directory ${dataDir} is in use by process ${owner}. Stop that process first, ` +
            'or run the service on PostgreSQL (DATABASE_URL) to share the store between processes.',
        );
      } else {
        await sleep(POLL_MS);
      }
    }
  } finally {
    rmSync(draft, { force: true });
  }
}
