import type { Db } from './db.js';
import { notificationsRepo } from './notifications-repo.js';

/**
 * Runs `send` unless the message `key` of the account was sent before, and records it as sent
 * only if `send` succeeded; answers whether this call sent it.
 */
export type SendOnce = (
  accountId: string,
  key: string,
  at: Date,
  send: () => Promise<void>,
) => Promise<boolean>;

/**
 * Messages sent once (notification_sends: a digest per period, an alert per crossing and
 * channel). The claim of a message becomes durable only with its send, so a process that dies
 * between the two leaves no claim and the job's retry sends the message: at least once across a
 * crash, exactly once otherwise. Meanwhile a second sender of the same message waits for the
 * first, then sends nothing if the first succeeded, or sends it if the first failed.
 *
 * - PostgreSQL: the claim's row is inserted in a transaction that commits after the send; a
 *   concurrent insert of the same key waits on it, and a dead process's connection rolls it back.
 * - PGlite: one process owns the store (its data directory is locked), so the wait is a queue per
 *   key in this process and the row is inserted after the send. A transaction would do as well
 *   but would hold the single connection, every request with it, for as long as an SMTP server
 *   takes to answer, and the send's own queries (queueing a job) would wait behind it forever.
 */
export function sendClaims(db: Db): SendOnce {
  if (db.kind === 'postgres') {
    return (accountId, key, at, send) =>
      db.transaction(async (tx) => {
        if (!(await notificationsRepo(tx).claimSend(accountId, key, at))) return false;
        await send();
        return true;
      });
  }
  const sends = notificationsRepo(db);
  const turns = new Map<string, Promise<boolean>>();
  return (accountId, key, at, send) => {
    const id = `${accountId}\u0000${key}`;
    const previous = turns.get(id) ?? Promise.resolve(false);
    const turn = previous
      .catch(() => false)
      .then(async () => {
        if (await sends.wasSent(accountId, key)) return false;
        await send();
        await sends.claimSend(accountId, key, at);
        return true;
      });
    turns.set(id, turn);
    const forget = () => {
      if (turns.get(id) === turn) turns.delete(id);
    };
    turn.then(forget, forget);
    return turn;
  };
}
