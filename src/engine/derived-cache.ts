/** A small number for each object, for cache keys that must tell one exchange-rate table from another. */
const ids = new WeakMap<object, number>();
let nextId = 1;

export function objectId(owner: object): number {
  let id = ids.get(owner);
  if (id === undefined) {
    id = nextId++;
    ids.set(owner, id);
  }
  return id;
}

/**
 * A cache of values derived from an immutable owner (an account snapshot), dropped with it.
 * Keys name whatever else the value depends on (today, a currency, `objectId` of a rate
 * table). Past a few keys per owner the old ones go: they belong to a past day or table.
 */
export function derivedCache<Owner extends object, Value>(keysPerOwner = 16) {
  const byOwner = new WeakMap<Owner, Map<string, Value>>();
  return Object.assign(cached, {
    /** The value kept for `owner` and `key`, if any: none is built. */
    peek: (owner: Owner, key: string): Value | undefined => byOwner.get(owner)?.get(key),
  });

  function cached(owner: Owner, key: string, build: () => Value): Value {
    let values = byOwner.get(owner);
    if (values === undefined) {
      values = new Map();
      byOwner.set(owner, values);
    }
    let value = values.get(key);
    if (value === undefined) {
      value = build();
      if (values.size >= keysPerOwner) values.clear();
      values.set(key, value);
    }
    return value;
  }
}

export type DerivedCache<Owner extends object, Value> = ReturnType<typeof derivedCache<Owner, Value>>;
