import type { z } from 'zod';
import { InvalidInputError, TooLargeError } from './errors.js';
import { MAX_BULK_ITEMS } from './limits.js';

/** Items checked in one turn of the event loop, where a body is checked in pieces. */
export const ITEMS_PER_TURN = 250;

/** Resolves once the event loop has taken what was waiting. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export type ImportStatus = 'inserted' | 'error';

export interface ItemResult {
  id: string | null;
  import_status: ImportStatus;
  import_error?: string;
}

/** An item that passed validation, with its position in the request body. */
export interface PendingItem<T> {
  index: number;
  value: T;
}

/** The items of one request: those still pending and, by position, those that failed. */
export interface Batch<T> {
  raw: unknown[];
  pending: PendingItem<T>[];
  errors: Map<number, string>;
}

/** A body is one item or an array of items. */
export function bodyItems(body: unknown): unknown[] {
  const items = Array.isArray(body) ? body : [body];
  if (items.length > MAX_BULK_ITEMS) {
    throw new TooLargeError(
      `A request may carry at most ${MAX_BULK_ITEMS} items; this one has ${items.length}`,
    );
  }
  return items;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One sentence for a failed item, naming the field: all missing required fields at once,
 * else the first problem.
 */
export function itemError(raw: unknown, error: z.ZodError): string {
  if (!isObject(raw)) return 'Item must be a JSON object';
  const missing = error.issues
    .filter((issue) => issue.path.length === 1 && raw[issue.path[0] as string] === undefined)
    .map((issue) => String(issue.path[0]));
  if (missing.length > 0) return `Missing required fields: ${[...new Set(missing)].join(', ')}`;
  const [first] = error.issues;
  if (first?.code === 'unrecognized_keys') {
    const where = first.path.length > 0 ? ` in "${first.path.join('.')}"` : '';
    return `Unknown field${first.keys.length > 1 ? 's' : ''}${where}: ${first.keys.join(', ')}`;
  }
  const path = first?.path.join('.') ?? '';
  return path ? `Invalid field "${path}": ${first?.message}` : `Invalid item: ${first?.message}`;
}

function validateItem<T>(batch: Batch<T>, schema: z.ZodType<T>, index: number): void {
  const item = batch.raw[index];
  const parsed = schema.safeParse(item);
  if (parsed.success) batch.pending.push({ index, value: parsed.data });
  else batch.errors.set(index, itemError(item, parsed.error));
}

/** Validates each item on its own, so one bad item never rejects the others. */
export function validateBatch<T>(raw: unknown[], schema: z.ZodType<T>): Batch<T> {
  const batch: Batch<T> = { raw, pending: [], errors: new Map() };
  for (let index = 0; index < raw.length; index++) validateItem(batch, schema, index);
  return batch;
}

/**
 * `validateBatch` for a request's body before its transaction opens, in pieces between which
 * the event loop takes other work: the store's answers to other requests' transactions, which
 * would otherwise wait for the whole body (about 60 ms for 5,000 invoices) while the store
 * idles (docs/decisions.md, "A transaction's statements sent together").
 */
export async function validateBatchInTurns<T>(raw: unknown[], schema: z.ZodType<T>): Promise<Batch<T>> {
  const batch: Batch<T> = { raw, pending: [], errors: new Map() };
  for (let index = 0; index < raw.length; index++) {
    if (index > 0 && index % ITEMS_PER_TURN === 0) await nextTurn();
    validateItem(batch, schema, index);
  }
  return batch;
}

/** Fails the pending items `reasonOf` gives a reason for. */
export function rejectWhere<T>(batch: Batch<T>, reasonOf: (value: T) => string | undefined): void {
  batch.pending = batch.pending.filter((item) => {
    const reason = reasonOf(item.value);
    if (reason !== undefined) batch.errors.set(item.index, reason);
    return reason === undefined;
  });
}

/** When an id occurs several times in one body, the last occurrence is what gets stored. */
export function lastPerKey<T>(items: readonly PendingItem<T>[], keyOf: (value: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) {
    const key = keyOf(item.value);
    byKey.delete(key);
    byKey.set(key, item.value);
  }
  return [...byKey.values()];
}

function rawId(raw: unknown): string | null {
  if (!isObject(raw)) return null;
  const id = raw.id ?? raw.external_id;
  return typeof id === 'string' ? id : null;
}

/** One result per item of the body, in the body's order. */
export function batchResults<T extends { id: string }>(batch: Batch<T>): ItemResult[] {
  const stored = new Map(batch.pending.map((item) => [item.index, item.value.id]));
  return batch.raw.map((raw, index) => {
    const error = batch.errors.get(index);
    if (error !== undefined) return { id: rawId(raw), import_status: 'error', import_error: error };
    return { id: stored.get(index) ?? rawId(raw), import_status: 'inserted' };
  });
}

/** For all-or-nothing writes: the first failed item, named by position and id, rejects the request. */
export function throwFirstError<T>(batch: Batch<T>): void {
  const [first] = [...batch.errors.entries()].sort(([a], [b]) => a - b);
  if (!first) return;
  const [index, message] = first;
  const id = rawId(batch.raw[index]);
  const label = batch.raw.length > 1 ? `Item ${index}${id === null ? '' : ` (id "${id}")`}: ` : '';
  throw new InvalidInputError(`${label}${message}`);
}
