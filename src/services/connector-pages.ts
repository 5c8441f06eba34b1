import type { Checkpoint } from '../store/connector-imports-repo.js';
import type { Repos, Store } from '../store/open-store.js';
import type { ItemResult } from './bulk-import.js';
import type { Clock } from './clock.js';
import { type CurrencyCheck, currencyChecker } from './currency-check.js';
import type { CustomersService } from './customers-service.js';
import type { FxService } from './fx-service.js';
import type { InvoicesService } from './invoices-service.js';
import type { PlansService } from './plans-service.js';
import type { SubscriptionsService } from './subscriptions-service.js';

/** A page of records in the `/data/*` shapes, as a connector maps them. */
export interface RecordsPage {
  customers?: object[];
  plans?: object[];
  subscriptions?: object[];
  invoices?: object[];
}

/** Which run of which source a page belongs to. */
export interface ImportRun {
  accountId: string;
  dataSourceId: string;
  runId: string;
}

/** One `/data` use case's bulk write inside a caller's transaction, as connectors and uploads call it. */
export type ImportIn = (
  tx: Repos,
  accountId: string,
  items: unknown[],
  check: CurrencyCheck,
) => Promise<ItemResult[]>;

export interface PageOutcome {
  stored: number;
  refused: number;
  /** The first refused item's id and reason. */
  firstRefusal: string | null;
}

/**
 * Writes a connector's records through the same bulk use cases as `/data/*` (same validation,
 * same change tracking). Kinds go in reference order: customers and plans before the
 * subscriptions and invoices that name them.
 */
export function createConnectorPages(
  store: Store,
  fx: FxService,
  clock: Clock,
  services: {
    customers: CustomersService;
    plans: PlansService;
    subscriptions: SubscriptionsService;
    invoices: InvoicesService;
  },
  /** Told after records were stored, once the transaction committed (a refresh starts). */
  afterWrite: (accountId: string) => void = () => {},
) {
  const writers: [keyof RecordsPage, ImportIn][] = [
    ['customers', services.customers.importIn],
    ['plans', services.plans.importIn],
    ['subscriptions', services.subscriptions.importIn],
    ['invoices', services.invoices.importIn],
  ];

  async function writeRecords(
    tx: Repos,
    accountId: string,
    dataSourceId: string,
    records: RecordsPage,
    check: CurrencyCheck,
  ): Promise<PageOutcome & { customers: number; invoices: number }> {
    const outcome = { stored: 0, refused: 0, firstRefusal: null as string | null, customers: 0, invoices: 0 };
    for (const [kind, importIn] of writers) {
      const items = (records[kind] ?? []).map((record) => ({ ...record, data_source: dataSourceId }));
      if (items.length === 0) continue;
      const results = await importIn(tx, accountId, items, check);
      for (const result of results) {
        if (result.import_status === 'error') {
          outcome.refused++;
          outcome.firstRefusal ??= `${kind} ${result.id ?? '?'}: ${result.import_error}`;
        } else {
          outcome.stored++;
          if (kind === 'customers' || kind === 'invoices') outcome[kind]++;
        }
      }
    }
    return outcome;
  }

  return {
    /**
     * Stores one page and the checkpoint after it in one transaction: a crash keeps both or
     * neither. Nothing is stored, and false returned, when the run was aborted or replaced.
     */
    async write(
      run: ImportRun,
      records: RecordsPage,
      next: Omit<Checkpoint, 'stored' | 'refused' | 'refusal'>,
    ): Promise<PageOutcome | false> {
      const check = await currencyChecker(fx);
      const stored = await store.transaction(async (tx) => {
        const current = await tx.connectorImports.get(run.accountId, run.dataSourceId, { forUpdate: true });
        if (current?.run_id !== run.runId || current.state !== 'running') return false;
        const outcome = await writeRecords(tx, run.accountId, run.dataSourceId, records, check);
        const now = clock.now().toISOString();
        await tx.connectorImports.checkpoint(
          run.accountId,
          run.dataSourceId,
          run.runId,
          { ...next, stored: outcome.stored, refused: outcome.refused, refusal: outcome.firstRefusal },
          now,
        );
        await tx.dataSources.addImported(run.accountId, run.dataSourceId, outcome);
        return outcome;
      });
      if (stored) afterWrite(run.accountId);
      return stored;
    },

    /**
     * The customers of a source whose records an import should re-read: a record still carries
     * MRR although its last billed period is over, as one of an item removed at the system
     * since an earlier import does (docs/connectors.md, "Removed items").
     */
    lapsedCustomers(accountId: string, dataSourceId: string): Promise<string[]> {
      const today = clock.now().toISOString().slice(0, 10);
      return store.subscriptions.customersBilledUntilBefore(accountId, dataSourceId, today);
    },

    /**
     * Stores one customer's records outside any import run (a webhook, a resync, a catch-up);
     * `false` (the system has no such customer any more) deletes the customer of this source
     * with its invoices and subscriptions, like `DELETE /data/customers/{id}`. With `eventId`,
     * the event is noted in the same transaction and nothing is written when it already was;
     * `inTransaction` runs last in the same transaction (the catch-up moves its cursor there).
     */
    async writeCustomer(
      accountId: string,
      dataSourceId: string,
      customerId: string | null,
      records: RecordsPage | false,
      options: { eventId?: string; inTransaction?: (tx: Repos) => Promise<void> } = {},
    ): Promise<PageOutcome | 'deleted' | 'absent' | 'duplicate'> {
      const check = await currencyChecker(fx);
      const outcome = await store.transaction(async (tx) => {
        const { eventId, inTransaction } = options;
        if (
          eventId !== undefined &&
          !(await tx.connectorImports.recordEvent(accountId, dataSourceId, eventId))
        )
          return 'duplicate';
        let outcome: PageOutcome | 'deleted' | 'absent';
        if (records === false && customerId !== null) {
          const deleted = await services.customers.deleteIn(tx, accountId, { dataSourceId, id: customerId });
          outcome = deleted ? 'deleted' : 'absent';
        } else {
          outcome = await writeRecords(tx, accountId, dataSourceId, records || {}, check);
        }
        await inTransaction?.(tx);
        return outcome;
      });
      if (outcome !== 'duplicate' && outcome !== 'absent') afterWrite(accountId);
      return outcome;
    },
  };
}

export type ConnectorPages = ReturnType<typeof createConnectorPages>;
