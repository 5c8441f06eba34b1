const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids the service assigns are UUIDs; anything else cannot name a record, so callers report "not found". */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}
