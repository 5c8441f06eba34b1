import type { CustomerView } from '../account-snapshot.js';
import { ownValue } from '../own-value.js';

export interface CustomVariablesQuery {
  key: string;
  /** Keep values holding this text, compared case-insensitively; null keeps all. */
  search: string | null;
  limit: number;
}

export interface CustomVariableValue {
  value: string;
  /** Customers holding the value. */
  count: number;
}

/**
 * The values customers hold for one custom variable, with how many customers hold each, most
 * held first (then by value, so equal counts always come in the same order). A customer holds
 * at most one value per key, so counting customers counts them once. Empty values are no value.
 */
export function customVariableValues(
  customers: readonly CustomerView[],
  query: CustomVariablesQuery,
): CustomVariableValue[] {
  const needle = query.search?.toLowerCase() ?? null;
  const counts = new Map<string, number>();
  for (const customer of customers) {
    const value = ownValue(customer.customVariables, query.key);
    if (value === undefined || value === '') continue;
    if (needle !== null && !value.toLowerCase().includes(needle)) continue;
    counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, query.limit);
}
