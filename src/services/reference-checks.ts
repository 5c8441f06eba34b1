import type { Repos } from '../store/open-store.js';
import { keyString, type RecordKey } from '../store/records-repo.js';
import type { StoredRecord } from './record-import.js';

/** The records a written record points at, all in its own data source. */
export interface References {
  customer: string;
  /** Each plan with where it is named, for the message: ` on line 2`. */
  plans: { id: string; where: string }[];
}

/**
 * Checks that the customer and plans each record names exist, with one query per table for
 * the whole batch, and returns the reason a record is refused.
 */
export async function checkReferences<R extends StoredRecord>(
  tx: Repos,
  accountId: string,
  records: readonly R[],
  referencesOf: (record: R) => References,
): Promise<(record: R) => string | undefined> {
  const customerKeys = new Map<string, RecordKey>();
  const planKeys = new Map<string, RecordKey>();
  for (const record of records) {
    const references = referencesOf(record);
    const customer = { dataSourceId: record.data_source, id: references.customer };
    customerKeys.set(keyString(customer), customer);
    for (const plan of references.plans) {
      const key = { dataSourceId: record.data_source, id: plan.id };
      planKeys.set(keyString(key), key);
    }
  }
  const [customers, plans] = await Promise.all([
    // Invoices have no foreign key to their customer: the lock keeps the customer until they are stored.
    tx.records.existing('customers', accountId, [...customerKeys.values()], { lock: true }),
    tx.records.existing('plans', accountId, [...planKeys.values()]),
  ]);
  return (record) => {
    const references = referencesOf(record);
    if (!customers.has(keyString({ dataSourceId: record.data_source, id: references.customer }))) {
      return `Unknown customer_id "${references.customer}": no such customer in data source ${record.data_source}`;
    }
    const missing = references.plans.find(
      (plan) => !plans.has(keyString({ dataSourceId: record.data_source, id: plan.id })),
    );
    if (missing) {
      return `Unknown plan_id "${missing.id}"${missing.where}: no such plan in data source ${record.data_source}`;
    }
    return undefined;
  };
}
