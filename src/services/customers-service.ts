import { z } from 'zod';
import { customerEvents, type RecordEvent } from '../engine/webhook-events.js';
import type { CustomerRow } from '../store/customers-repo.js';
import type { Repos, Store } from '../store/open-store.js';
import { keyString, type Page, type RecordKey } from '../store/records-repo.js';
import {
  type Batch,
  batchResults,
  bodyItems,
  type ItemResult,
  rejectWhere,
  throwFirstError,
  validateBatch,
  validateBatchInTurns,
} from './bulk-import.js';
import { recordChanges } from './change-tracking.js';
import type { Clock } from './clock.js';
import { type CurrencyCheck, currencyChecker } from './currency-check.js';
import type { FxService } from './fx-service.js';
import type { MetricsService } from './metrics-service.js';
import { today } from './report-context.js';
import { dayString } from '../engine/days.js';
import { country, currency, dataSourceRef, externalId, instant, shortText } from './record-fields.js';
import { recordKey } from './record-import.js';
import { locateRecord, resolveSources, unknownSourceError } from './record-sources.js';
import type { RecordEventSink } from './webhooks-service.js';

export const CUSTOMER_STATUSES = ['active', 'cancelled'] as const;

/** Every field but `id` may be left out; on an existing customer, what is left out stays as it is. */
export const customerFields = {
  name: shortText.nullable(),
  email: z.email({ error: 'must be an email address' }).max(320).nullable(),
  created_date: instant.describe('When the customer was created; default: when first written'),
  country: country.nullable(),
  state: z.string().trim().toLowerCase().max(50, 'must be at most 50 characters').nullable(),
  currency: currency.nullable(),
  status: z.enum(CUSTOMER_STATUSES, { error: `must be one of ${CUSTOMER_STATUSES.join(', ')}` }),
  trial_started: instant.nullable(),
  trial_end_date: instant.nullable(),
  paid_started: instant.nullable(),
  cancel_date: instant.nullable(),
  overdue_date: instant.nullable(),
  cancel_reason: shortText.nullable(),
  custom_variables: z
    .record(z.string().min(1, 'keys must not be empty').max(100), z.string().max(1000).nullable())
    .describe('Merged into the stored map, new keys win; a null value removes the key'),
};

export const customerPatchSchema = z.strictObject(customerFields).partial();

export const customerInputSchema = customerPatchSchema.extend({
  id: externalId.describe('External customer id'),
  data_source: dataSourceRef.optional(),
});

type CustomerInput = z.infer<typeof customerInputSchema>;

export type Customer = CustomerRow & { current_mrr: Record<string, number> };

function merge(
  current: CustomerRow | undefined,
  { id, data_source, custom_variables, ...fields }: CustomerInput,
  key: { dataSourceId: string; now: string },
): CustomerRow {
  const base: CustomerRow = current ?? {
    id,
    data_source: key.dataSourceId,
    name: null,
    email: null,
    created_date: key.now,
    country: null,
    state: null,
    currency: null,
    status: 'active',
    trial_started: null,
    trial_end_date: null,
    paid_started: null,
    cancel_date: null,
    overdue_date: null,
    cancel_reason: null,
    custom_variables: {},
  };
  const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const variables = { ...base.custom_variables, ...custom_variables };
  return {
    ...base,
    ...given,
    custom_variables: Object.fromEntries(
      Object.entries(variables).filter((entry): entry is [string, string] => entry[1] !== null),
    ),
  };
}

export function createCustomersService(
  store: Store,
  clock: Clock,
  fx: FxService,
  metrics: MetricsService,
  sink?: RecordEventSink,
) {
  /** current_mrr: the customer's MRR today by currency, once the engine has caught up with the write. */
  async function withMrr(accountId: string, customer: CustomerRow): Promise<Customer> {
    await metrics.refresh(accountId);
    const current = await store.metrics.currentMrr(accountId, recordKey(customer), dayString(today(clock)));
    return {
      ...customer,
      current_mrr: current && current.mrr > 0 ? { [current.currency]: current.mrr } : {},
    };
  }

  /**
   * Upserts in body order inside `tx`: fields given replace, custom variables merge, and an
   * id given twice merges twice. With `allOrNothing`, any refused item rejects the whole
   * request; without, refused items are left in `batch.errors` and the others are written.
   * With `announce`, also answers the webhook events of the customers written.
   */
  async function write(
    tx: Repos,
    accountId: string,
    batch: Batch<CustomerInput>,
    unknownCurrency: CurrencyCheck,
    { allOrNothing = true, announce = false } = {},
  ): Promise<{ written: CustomerRow[]; events: RecordEvent[] }> {
    const refuse = allOrNothing ? throwFirstError : () => {};
    refuse(batch);
    const resolved = await resolveSources(
      tx,
      accountId,
      batch.pending.map((item) => item.value.data_source),
    );
    const sourced = [];
    for (const item of batch.pending) {
      const dataSourceId = resolved.get(item.value.data_source);
      if (dataSourceId === undefined)
        batch.errors.set(item.index, unknownSourceError(item.value.data_source!));
      else sourced.push({ ...item, dataSourceId });
    }
    refuse(batch);
    const keys = sourced.map((item) => ({ dataSourceId: item.dataSourceId, id: item.value.id }));
    const stored = await tx.customers.getMany(accountId, keys, { forUpdate: true });
    const byKey = new Map(stored.map((row) => [keyString(recordKey(row)), row]));
    const now = clock.now().toISOString();
    const written = sourced.map((item) => {
      const key = keyString({ dataSourceId: item.dataSourceId, id: item.value.id });
      const customer = merge(byKey.get(key), item.value, { dataSourceId: item.dataSourceId, now });
      byKey.set(key, customer);
      return { index: item.index, value: customer };
    });
    const finalBatch = { raw: batch.raw, pending: written, errors: batch.errors };
    rejectWhere(finalBatch, (customer) =>
      customer.name === null && customer.email === null
        ? 'Missing required fields: name or email'
        : unknownCurrency(customer.currency),
    );
    refuse(finalBatch);
    const accepted = finalBatch.pending;
    const unique = [...new Map(accepted.map(({ value }) => [keyString(recordKey(value)), value])).values()];
    await tx.customers.upsertMany(accountId, unique);
    const version = await recordChanges(tx, accountId, { customers: unique.map(recordKey) });
    const before = new Map(stored.map((row) => [keyString(recordKey(row)), row]));
    const events = announce
      ? unique.flatMap((after) =>
          customerEvents({ before: before.get(keyString(recordKey(after))), after }, version),
        )
      : [];
    return { written: accepted.map(({ value }) => value), events };
  }

  async function announceEvents(accountId: string, events: readonly RecordEvent[]): Promise<void> {
    if (sink && events.length > 0) await sink.publishRecordEvents(accountId, events);
  }

  /**
   * A connector's page inside its transaction: each item is checked on its own and the valid
   * ones are written, so one refused customer does not hold up an import.
   */
  async function importCustomers(
    tx: Repos,
    accountId: string,
    items: unknown[],
    unknownCurrency: CurrencyCheck,
  ): Promise<ItemResult[]> {
    const batch = validateBatch(items, customerInputSchema);
    await write(tx, accountId, batch, unknownCurrency, { allOrNothing: false });
    return batchResults(batch);
  }

  async function deleteIn(tx: Repos, accountId: string, key: RecordKey): Promise<boolean> {
    if (!(await tx.records.delete('customers', accountId, key))) return false;
    await recordChanges(tx, accountId, { customers: [key] });
    return true;
  }

  async function locate(tx: Repos, accountId: string, id: string, dataSource?: string) {
    return { dataSourceId: await locateRecord(tx, 'customers', 'Customer', accountId, id, dataSource), id };
  }

  return {
    list(accountId: string, page: Page): Promise<CustomerRow[]> {
      return store.customers.list(accountId, page);
    },

    /**
     * POST: one customer or an array; an existing id is updated like PUT. All or nothing. One
     * object is announced to webhooks (created or updated); an array is a bulk import, and not.
     */
    async upsert(accountId: string, body: unknown): Promise<{ id: string }[]> {
      const batch = await validateBatchInTurns(bodyItems(body), customerInputSchema);
      const unknownCurrency = await currencyChecker(fx);
      const announce = !Array.isArray(body);
      const { written, events } = await store.transaction((tx) =>
        write(tx, accountId, batch, unknownCurrency, { announce }),
      );
      await announceEvents(accountId, events);
      return written.map((customer) => ({ id: customer.id }));
    },

    importIn: importCustomers,

    async get(accountId: string, id: string, dataSource?: string): Promise<Customer> {
      const row = await store.transaction(async (tx) => {
        const [found] = await tx.customers.getMany(accountId, [await locate(tx, accountId, id, dataSource)]);
        return found!;
      });
      return withMrr(accountId, row);
    },

    async update(accountId: string, id: string, patch: unknown, dataSource?: string): Promise<Customer> {
      const unknownCurrency = await currencyChecker(fx);
      const { written, events } = await store.transaction(async (tx) => {
        const key = await locate(tx, accountId, id, dataSource);
        const item = typeof patch === 'object' && patch !== null ? patch : {};
        const batch = validateBatch([{ ...item, id, data_source: key.dataSourceId }], customerInputSchema);
        return write(tx, accountId, batch, unknownCurrency, { announce: true });
      });
      await announceEvents(accountId, events);
      return withMrr(accountId, written[0]!);
    },

    async delete(accountId: string, id: string, dataSource?: string): Promise<void> {
      await store.transaction(async (tx) => {
        await deleteIn(tx, accountId, await locate(tx, accountId, id, dataSource));
      });
    },

    /**
     * Deletes a customer of a known source with its invoices and subscriptions, inside the
     * caller's transaction (a connector that found it deleted at the system); false when there
     * was no such customer.
     */
    deleteIn,
  };
}

export type CustomersService = ReturnType<typeof createCustomersService>;
