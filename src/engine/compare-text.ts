/**
 * Orders strings by UTF-16 code units: stable and several times cheaper than localeCompare,
 * which matters when a report breaks ties between 100,000 customers by id.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
