import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids the service assigns are UUIDs; anything else cannot name a record, so callers report "not found". */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/** A UUID-shaped id derived from a text: the same text always gives the same id. */
export function hashedUuid(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
