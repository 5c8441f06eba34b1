import type { Repos } from '../store/open-store.js';
import type { RecordKey } from '../store/records-repo.js';

export interface Changes {
  customers?: readonly RecordKey[];
  /** Plans whose customers (through invoice lines or subscriptions) must be recomputed. */
  plans?: readonly RecordKey[];
}

/**
 * Called once per write request inside its transaction, so the engine sees each change exactly
 * once. Answers the account's data version after the write, which no other write shares.
 */
export async function recordChanges(tx: Repos, accountId: string, changes: Changes): Promise<number> {
  // Sent together, run in this order (docs/decisions.md, "A transaction's statements sent together").
  const [, , version] = await Promise.all([
    tx.changes.markCustomers(accountId, changes.customers ?? []),
    tx.changes.markCustomersOfPlans(accountId, changes.plans ?? []),
    tx.changes.bumpDataVersion(accountId),
  ]);
  return version;
}
