import type { z } from 'zod';
import type { RecordChange, RecordEvent } from '../engine/webhook-events.js';
import type { Repos, Store } from '../store/open-store.js';
import { keyString, type RecordKey, type RecordTable } from '../store/records-repo.js';
import {
  type Batch,
  batchResults,
  bodyItems,
  type ItemResult,
  lastPerKey,
  type PendingItem,
  rejectWhere,
  throwFirstError,
  validateBatch,
  validateBatchInTurns,
} from './bulk-import.js';
import { type Changes, recordChanges } from './change-tracking.js';
import { type CurrencyCheck, currencyChecker } from './currency-check.js';
import type { FxService } from './fx-service.js';
import { locateRecord, resolveSources, unknownSourceError } from './record-sources.js';
import type { RecordEventSink } from './webhooks-service.js';

/** A stored raw record: its external id, its data source and its fields. */
export interface StoredRecord {
  id: string;
  data_source: string;
}

/** What a record arrives as, after validation: the stored shape with the data source optional. */
export type RecordInput<R extends StoredRecord> = Omit<R, 'data_source'> & {
  data_source?: string | undefined;
};

/**
 * How one kind of raw record (plan, invoice, subscription) is validated, checked against the
 * records it references, stored and read. The bulk, update, read and delete use cases below
 * are written once against it.
 */
export interface RecordType<R extends StoredRecord> {
  table: RecordTable;
  /** Capitalised, for messages: "Plan". */
  noun: string;
  schema: z.ZodType<RecordInput<R>>;
  /** Loads what the checks need, then returns the reason a record is refused, if any. */
  referenceCheck?(
    tx: Repos,
    accountId: string,
    records: readonly R[],
  ): Promise<(record: R) => string | undefined>;
  /** Writes records with distinct keys and says which customers or plans changed. */
  write(tx: Repos, accountId: string, records: readonly R[]): Promise<Changes>;
  read(tx: Repos, accountId: string, keys: readonly RecordKey[]): Promise<R[]>;
  /** How a partial update combines with the stored record; default: fields given replace. */
  merge?(current: R, patch: Record<string, unknown>): Record<string, unknown>;
  /** The webhook events of one record's write through the API (docs/webhooks.md); none without. */
  events?: (change: RecordChange<R>, version: number) => RecordEvent[];
}

export function recordKey(record: StoredRecord): RecordKey {
  return { dataSourceId: record.data_source, id: record.id };
}

/**
 * Resolves sources, checks references and writes the valid items of a batch, inside `tx`. With
 * `announce`, also answers the webhook events of what was written, from each record as it was
 * before and as written.
 */
async function writeBatch<R extends StoredRecord>(
  tx: Repos,
  accountId: string,
  type: RecordType<R>,
  batch: Batch<RecordInput<R>>,
  unknownCurrency: CurrencyCheck,
  announce = false,
): Promise<{ batch: Batch<R>; events: RecordEvent[] }> {
  const resolved = await resolveSources(
    tx,
    accountId,
    batch.pending.map((item) => item.value.data_source),
  );
  const sourced: Batch<R> = { raw: batch.raw, pending: [], errors: batch.errors };
  for (const item of batch.pending) {
    const dataSource = resolved.get(item.value.data_source);
    if (dataSource === undefined) sourced.errors.set(item.index, unknownSourceError(item.value.data_source!));
    else sourced.pending.push({ index: item.index, value: { ...item.value, data_source: dataSource } as R });
  }
  rejectWhere(sourced, (record) => unknownCurrency((record as { currency?: unknown }).currency));
  if (type.referenceCheck) {
    rejectWhere(sourced, await type.referenceCheck(tx, accountId, values(sourced.pending)));
  }
  const records = lastPerKey(sourced.pending, (record) => keyString(recordKey(record)));
  if (records.length === 0) return { batch: sourced, events: [] };
  const eventsOf = announce ? type.events : undefined;
  const before = eventsOf ? await type.read(tx, accountId, records.map(recordKey)) : [];
  const version = await recordChanges(tx, accountId, await type.write(tx, accountId, records));
  if (!eventsOf) return { batch: sourced, events: [] };
  const stored = new Map(before.map((record) => [keyString(recordKey(record)), record]));
  const events = records.flatMap((after) =>
    eventsOf({ before: stored.get(keyString(recordKey(after))), after }, version),
  );
  return { batch: sourced, events };
}

function values<T>(items: readonly PendingItem<T>[]): T[] {
  return items.map((item) => item.value);
}

/**
 * The raw record use cases of one record type. Writes of one record through the API hand their
 * webhook events to `sink` once committed; bulk bodies and imports have none (docs/webhooks.md).
 */
export function recordUseCases<R extends StoredRecord>(
  store: Store,
  fx: FxService,
  type: RecordType<R>,
  sink?: RecordEventSink,
) {
  async function importItems(
    tx: Repos,
    accountId: string,
    items: unknown[],
    unknownCurrency: CurrencyCheck,
  ): Promise<ItemResult[]> {
    const batch = validateBatch(items, type.schema);
    return batchResults((await writeBatch(tx, accountId, type, batch, unknownCurrency)).batch);
  }

  async function announce(accountId: string, events: readonly RecordEvent[]): Promise<void> {
    if (sink && events.length > 0) await sink.publishRecordEvents(accountId, events);
  }

  return {
    /**
     * Bulk upsert: each item is validated and checked on its own and reported in order; the
     * valid ones are written in one transaction, so a server fault stores none of them. A body
     * of one object is a write of one record, and announced; an array is a bulk import, and not.
     */
    async import(accountId: string, body: unknown): Promise<ItemResult[]> {
      const batch = await validateBatchInTurns(bodyItems(body), type.schema);
      const single = !Array.isArray(body);
      const unknownCurrency = await currencyChecker(fx);
      const written = await store.transaction((tx) =>
        writeBatch(tx, accountId, type, batch, unknownCurrency, single),
      );
      await announce(accountId, written.events);
      return batchResults(written.batch);
    },

    /** The same bulk upsert inside the caller's transaction, for a connector's page. */
    importIn: importItems,

    async get(accountId: string, id: string, dataSource?: string): Promise<R> {
      return store.transaction(async (tx) => {
        const key = {
          dataSourceId: await locateRecord(tx, type.table, type.noun, accountId, id, dataSource),
          id,
        };
        const [record] = await type.read(tx, accountId, [key]);
        return record!;
      });
    },

    /** Changes the fields given; the result must still be a valid record, else nothing changes. */
    async update(
      accountId: string,
      id: string,
      patch: Record<string, unknown>,
      dataSource?: string,
    ): Promise<R> {
      const unknownCurrency = await currencyChecker(fx);
      const { updated, events } = await store.transaction(async (tx) => {
        const key = {
          dataSourceId: await locateRecord(tx, type.table, type.noun, accountId, id, dataSource),
          id,
        };
        const [current] = await type.read(tx, accountId, [key]);
        const merged = type.merge ? type.merge(current!, patch) : { ...current, ...patch };
        const batch = validateBatch([{ ...merged, id, data_source: key.dataSourceId }], type.schema);
        const written = await writeBatch(tx, accountId, type, batch, unknownCurrency, true);
        throwFirstError(written.batch);
        const [record] = await type.read(tx, accountId, [key]);
        return { updated: record!, events: written.events };
      });
      await announce(accountId, events);
      return updated;
    },

    async delete(accountId: string, id: string, dataSource?: string): Promise<void> {
      await store.transaction(async (tx) => {
        const key = {
          dataSourceId: await locateRecord(tx, type.table, type.noun, accountId, id, dataSource),
          id,
        };
        const deleted = await tx.records.delete(type.table, accountId, key);
        await recordChanges(
          tx,
          accountId,
          deleted?.owner ? { customers: [deleted.owner] } : { plans: [key] },
        );
      });
    },
  };
}
