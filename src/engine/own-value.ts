/**
 * The value a record holds under `key` itself, never one inherited from `Object.prototype`:
 * custom-variable keys come from users, and `constructor` or `toString` are keys like any other.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
