import type { AccountSnapshot } from '../engine/account-snapshot.js';
import type { Repos } from '../store/open-store.js';
import type { RecordKey } from '../store/records-repo.js';

/** How long the store remembers which customers each refresh re-derived. */
export const DERIVED_CHANGES_KEPT_S = 3600;
/**
 * A snapshot is patched from only while that memory surely reaches back to it: a record's time
 * is its transaction's start, before the wait for the account's lock, and the database's clock.
 */
const PATCH_HORIZON_MS = 50 * 60_000;
/**
 * A patch reads the changed customers by key; past this many, and past a fifth of the
 * account, reading the whole account in pages costs no more.
 */
const PATCH_MAX_KEYS = 2000;
const PATCH_MAX_SHARE = 0.2;

/** The most customers a patch of an account of `customers` reads again by key. */
export function mostPatched(customers: number): number {
  return Math.max(PATCH_MAX_KEYS, Math.floor(customers * PATCH_MAX_SHARE));
}

/** What was read at one data version: a snapshot, or a table built for one. */
export interface ReadVersion {
  version: number;
  /** When that version was read (ms since the epoch). */
  readAt: number;
  /** How many customers it holds. */
  customers: number;
}

/** What a snapshot was read at. */
export function readVersionOf(snapshot: AccountSnapshot): ReadVersion {
  return { version: snapshot.version, readAt: snapshot.readAt, customers: snapshot.customers.length };
}

/**
 * The customers re-derived since `from` was read, each once, or undefined when a patch would not
 * pay (too many changed) or the store may have forgotten some of them (docs/decisions.md,
 * "Snapshots are patched").
 */
export async function changedSince(
  repos: Repos,
  accountId: string,
  from: ReadVersion,
  now: number,
): Promise<RecordKey[] | undefined> {
  if (now - from.readAt >= PATCH_HORIZON_MS) return undefined;
  const most = mostPatched(from.customers);
  // One more than a patch takes is enough to know the whole account is to be read.
  const changed = await repos.metrics.derivedSince(accountId, from.version, most + 1);
  return changed.length <= most ? changed : undefined;
}
