import type { MovementKind, MovementSubtype } from '../engine/types.js';
import { awaitedLater } from './awaited-later.js';
import { bulkWrite } from './bulk-write.js';
import type { Queryable } from './db.js';
import { jsonRows } from './json-rows.js';
import { type Columns, readRows } from './read-rows.js';
import { inKeyRanges, keyRangesJson } from './key-ranges.js';
import { keysJson, type RecordKey } from './records-repo.js';

const KEYS = 'json_to_recordset($2::json) as k(s uuid, i text)';

/**
 * Rows of `table` belonging to each key's customer, as one index probe per key. Every read
 * here is driven by a batch of keys, and a planner without statistics (PGlite never gathers
 * any; PostgreSQL's autovacuum may not have run after an import) joins them to the whole
 * account's table instead, so each batch cost as much as the account and a refresh grew with
 * its square. `offset 0` keeps the planner from merging the lateral subquery into the join.
 */
function ofKeys(table: string, alias: string): string {
  return `${KEYS} cross join lateral (select * from ${table} x
    where x.account_id = $1 and x.data_source_id = k.s and x.customer_id = k.i offset 0) ${alias}`;
}

/** The rows of `table` of invoice `i`, probed per invoice for the same reason as `ofKeys`. */
function ofInvoice(table: string, alias: string, where = ''): string {
  return `lateral (select * from ${table} x
    where x.account_id = $1 and x.data_source_id = i.data_source_id and x.invoice_id = i.invoice_id ${where}
    offset 0) ${alias}`;
}

export interface HistoryCustomerRow {
  data_source_id: string;
  customer_id: string;
  currency: string | null;
}

export interface HistoryLineRow {
  data_source_id: string;
  customer_id: string;
  invoice_id: string;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  currency: string;
  date: string;
  /** Null for an invoice without lines. */
  type: 'subscription' | 'one_time' | null;
  subscription_id: string | null;
  plan_id: string | null;
  amount: number | null;
  quantity: number | null;
  discount: number | null;
  period_start: string | null;
  period_end: string | null;
  prorated: boolean | null;
}

const HISTORY_LINE_COLUMNS: Columns<HistoryLineRow> = {
  data_source_id: 'text',
  customer_id: 'text',
  invoice_id: 'text',
  status: 'text',
  currency: 'text',
  date: 'text',
  type: 'text',
  subscription_id: 'text',
  plan_id: 'text',
  amount: 'integer',
  quantity: 'integer',
  discount: 'integer',
  period_start: 'text',
  period_end: 'text',
  prorated: 'boolean',
};

export interface HistorySubscriptionRow {
  data_source_id: string;
  customer_id: string;
  subscription_id: string;
  plan_id: string | null;
  quantity: number;
  status: 'active' | 'trialing' | 'past_due' | 'canceled' | 'ended';
  started_at: string;
  cancel_requested_at: string | null;
  cancel_at: string | null;
  ended_at: string | null;
  mrr: number | null;
  currency: string | null;
  scheduled_changes: { date: string; plan_id?: string; quantity?: number; amount?: number }[];
}

export interface PlanRow {
  data_source_id: string;
  plan_id: string;
  billing_freq: 'day' | 'week' | 'month' | 'quarter' | 'year';
  billing_freq_count: number;
  pricing_model: 'licensed' | 'metered';
}

export interface PaymentMethodRow {
  data_source_id: string;
  customer_id: string;
  payment_method: string;
  /** The instant of the latest successful payment with the method, null when every one failed. */
  paid_at: string | null;
}

/** What the engine derives for one customer and the store keeps in customer_metrics. */
export interface DerivedCustomer {
  key: RecordKey;
  currency: string;
  firstPaidDay: string | null;
  plans: string[];
  billingFreqs: string[];
  primaryPlan: string | null;
  primaryBillingFreq: string | null;
  primaryPricingModel: string | null;
  segments: unknown[];
  paymentMethods: string[];
  latestPaymentMethod: string | null;
  pricingModels: string[];
  hasDiscount: boolean;
  quantities: { day: number; quantity: number }[];
  movements: {
    day: string;
    kind: string;
    subtype: string;
    amount: number;
    scheduled: boolean;
    known_day: string | null;
  }[];
}

export interface SnapshotCustomerRow {
  data_source_id: string;
  customer_id: string;
  name: string | null;
  email: string | null;
  created_date: string;
  country: string | null;
  state: string | null;
  status: 'active' | 'cancelled';
  cancel_reason: string | null;
  trial_started: string | null;
  paid_started: string | null;
  cancel_date: string | null;
  custom_variables: Record<string, string>;
  /** Null until the metrics engine has seen the customer. */
  currency: string | null;
  first_paid_day: string | null;
  plans: string[] | null;
  billing_freqs: string[] | null;
  primary_plan: string | null;
  primary_billing_freq: string | null;
  primary_pricing_model: string | null;
  payment_methods: string[] | null;
  latest_payment_method: string | null;
  pricing_models: string[] | null;
  has_discount: boolean | null;
  quantities: { day: number; quantity: number }[] | null;
}

export interface SnapshotMovementRow {
  data_source_id: string;
  customer_id: string;
  day: string;
  kind: MovementKind;
  subtype: MovementSubtype;
  amount: number;
  scheduled: boolean;
  known_day: string | null;
}

/** A page of the snapshot's customers with their movements. */
export interface SnapshotPage {
  customers: SnapshotCustomerRow[];
  movements: SnapshotMovementRow[];
}

/** The snapshot's columns of the customers `source` names (alias `c`), with what was derived for each. */
function snapshotCustomersOf(source: string): string {
  return `select c.data_source_id, c.customer_id, c.name, c.email, c.created_date, c.country, c.state, c.status,
                 c.cancel_reason, c.trial_started, c.paid_started, c.cancel_date, c.custom_variables,
                 coalesce(m.currency, c.currency) as currency, m.first_paid_day, m.plans, m.billing_freqs,
                 m.primary_plan, m.primary_billing_freq, m.primary_pricing_model, m.payment_methods,
                 m.latest_payment_method, m.pricing_models, m.has_discount, m.quantities
          from ${source}
          left join lateral (select * from customer_metrics x where x.account_id = c.account_id
            and x.data_source_id = c.data_source_id and x.customer_id = c.customer_id offset 0) m on true`;
}

const SNAPSHOT_CUSTOMER_ROWS = {
  orderBy: 'q.data_source_id, q.customer_id',
  instants: ['created_date', 'trial_started', 'paid_started', 'cancel_date'] as const,
};

/** The snapshot's columns of movements `v`. */
const SNAPSHOT_MOVEMENT_COLUMNS =
  'v.data_source_id, v.customer_id, v.day, v.kind, v.subtype, v.amount, v.scheduled, v.known_day';
const SNAPSHOT_MOVEMENT_ORDER = { orderBy: 'q.data_source_id, q.customer_id, q.day' };

/** Reads what the metrics engine needs and writes what it derives. */
export function metricsRepo(db: Queryable) {
  return {
    /**
     * Serialises recomputation of one account between processes, until the transaction ends,
     * so a snapshot is never built while another process is halfway through writing.
     */
    async lockAccount(accountId: string): Promise<void> {
      await db.query("select pg_advisory_xact_lock(hashtext('metrics:' || $1))", [accountId]);
    },

    async customers(accountId: string, keys: readonly RecordKey[]): Promise<HistoryCustomerRow[]> {
      return db.query<HistoryCustomerRow>(
        `select c.data_source_id, c.customer_id, c.currency from ${ofKeys('customers', 'c')}`,
        [accountId, keysJson(keys)],
      );
    },

    /** Every invoice of the customers with its lines, one row per line (or one for an invoice without lines). */
    async lines(accountId: string, keys: readonly RecordKey[]): Promise<HistoryLineRow[]> {
      return readRows<HistoryLineRow>(
        db,
        `select i.data_source_id, i.customer_id, i.invoice_id, i.status, i.currency, i.date,
                l.type, l.subscription_id, l.plan_id, l.amount, l.quantity, l.discount, l.period_start, l.period_end,
                l.prorated, l.position
         from ${ofKeys('invoices', 'i')} left join ${ofInvoice('invoice_lines', 'l')} on true`,
        [accountId, keysJson(keys)],
        { orderBy: 'q.date, q.invoice_id, q.position', columns: HISTORY_LINE_COLUMNS },
      );
    },

    /**
     * The distinct payment methods the customers paid, or tried to pay, counted invoices with
     * (lower case), each with its latest successful payment: one read of the transactions for
     * the filter's methods and the breakdown's latest one.
     */
    async paymentMethods(accountId: string, keys: readonly RecordKey[]): Promise<PaymentMethodRow[]> {
      return readRows<PaymentMethodRow>(
        db,
        `select i.data_source_id, i.customer_id, lower(t.payment_method) as payment_method,
                max(t.date) filter (where t.result = 'successful') as paid_at
         from ${ofKeys('invoices', 'i')}
         cross join ${ofInvoice('invoice_transactions', 't', "and x.payment_method is not null and x.type = 'payment'")}
         where i.status not in ('draft', 'void')
         group by 1, 2, 3`,
        [accountId, keysJson(keys)],
        {
          orderBy: 'q.data_source_id, q.customer_id, q.payment_method',
          columns: {
            data_source_id: 'text',
            customer_id: 'text',
            payment_method: 'text',
            paid_at: 'instant',
          },
        },
      );
    },

    async subscriptions(accountId: string, keys: readonly RecordKey[]): Promise<HistorySubscriptionRow[]> {
      return jsonRows<HistorySubscriptionRow>(
        db,
        `select s.data_source_id, s.customer_id, s.subscription_id, s.plan_id, s.quantity, s.status, s.started_at,
                s.cancel_requested_at, s.cancel_at, s.ended_at, s.mrr, s.currency, s.scheduled_changes
         from ${ofKeys('subscriptions', 's')}`,
        [accountId, keysJson(keys)],
        { instants: ['started_at', 'cancel_requested_at', 'cancel_at', 'ended_at'] },
      );
    },

    /**
     * Every customer of the account with what was derived for it, and its movements in day
     * order, `size` customers at a time in key order. Pages bound what one read holds: PGlite
     * keeps the memory a large result took for as long as the process runs. The page comes from
     * `customers_page` (migration 009), which walks the primary key whatever the statistics, and
     * each customer's derived row from a probe by its key.
     */
    async *snapshotPages(accountId: string, size: number): AsyncGenerator<SnapshotPage> {
      let after: SnapshotCustomerRow | null = null;
      for (;;) {
        const customers: SnapshotCustomerRow[] = await jsonRows<SnapshotCustomerRow>(
          db,
          snapshotCustomersOf('customers_page($1, $2, $3, $4) c'),
          [accountId, after?.data_source_id ?? null, after?.customer_id ?? null, size],
          SNAPSHOT_CUSTOMER_ROWS,
        );
        if (customers.length === 0) return;
        const movements = await jsonRows<SnapshotMovementRow>(
          db,
          `select ${SNAPSHOT_MOVEMENT_COLUMNS}
           from ${inKeyRanges('mrr_movements', 'customer_id', 'v')}`,
          [
            accountId,
            keyRangesJson(
              customers,
              (customer) => customer.data_source_id,
              (customer) => customer.customer_id,
            ),
          ],
          SNAPSHOT_MOVEMENT_ORDER,
        );
        yield { customers, movements };
        if (customers.length < size) return;
        after = customers.at(-1)!;
      }
    },

    /** The snapshot's rows of these customers, for patching a snapshot; a deleted customer has none. */
    async snapshotCustomers(accountId: string, keys: readonly RecordKey[]): Promise<SnapshotPage> {
      const params = [accountId, keysJson(keys)];
      return {
        customers: await jsonRows<SnapshotCustomerRow>(
          db,
          snapshotCustomersOf(ofKeys('customers', 'c')),
          params,
          SNAPSHOT_CUSTOMER_ROWS,
        ),
        movements: await jsonRows<SnapshotMovementRow>(
          db,
          `select ${SNAPSHOT_MOVEMENT_COLUMNS} from ${ofKeys('mrr_movements', 'v')}`,
          params,
          SNAPSHOT_MOVEMENT_ORDER,
        ),
      };
    },

    /** The customers re-derived at a data version above `version`, each once, at most `limit`. */
    async derivedSince(accountId: string, version: number, limit: number): Promise<RecordKey[]> {
      const rows = await db.query<{ data_source_id: string; customer_id: string }>(
        `select distinct data_source_id, customer_id from derived_changes
         where account_id = $1 and data_version > $2 limit $3`,
        [accountId, version, limit],
      );
      return rows.map((row) => ({ dataSourceId: row.data_source_id, id: row.customer_id }));
    },

    /** Forgets which customers were re-derived more than `seconds` ago. */
    async pruneDerivedChanges(accountId: string, seconds: number): Promise<void> {
      await db.query(
        `delete from derived_changes where account_id = $1 and changed_at < now() - make_interval(secs => $2)`,
        [accountId, seconds],
      );
    },

    /** One customer's revenue segments; the snapshot leaves them out, only a customer's detail shows them. */
    async segments(accountId: string, key: RecordKey): Promise<unknown[]> {
      const [row] = await db.query<{ segments: unknown[] }>(
        'select segments from customer_metrics where account_id = $1 and data_source_id = $2 and customer_id = $3',
        [accountId, key.dataSourceId, key.id],
      );
      return row?.segments ?? [];
    },

    /** One customer's MRR on `day` in its own currency, from what was derived for it. */
    async currentMrr(
      accountId: string,
      key: RecordKey,
      day: string,
    ): Promise<{ currency: string; mrr: number } | undefined> {
      const [row] = await db.query<{ currency: string; mrr: number }>(
        `select m.currency, coalesce((select sum(v.amount) from mrr_movements v
           where v.account_id = m.account_id and v.data_source_id = m.data_source_id and v.customer_id = m.customer_id
             and v.day <= $4::date), 0)::bigint as mrr
         from customer_metrics m where m.account_id = $1 and m.data_source_id = $2 and m.customer_id = $3`,
        [accountId, key.dataSourceId, key.id, day],
      );
      return row;
    },

    async plans(accountId: string): Promise<PlanRow[]> {
      return db.query<PlanRow>(
        'select data_source_id, plan_id, billing_freq, billing_freq_count, pricing_model from plans where account_id = $1',
        [accountId],
      );
    },

    /** Replaces what was derived for these customers; customers that no longer exist keep nothing. */
    async replace(
      accountId: string,
      keys: readonly RecordKey[],
      derived: readonly DerivedCustomer[],
    ): Promise<void> {
      // Sent together, run in this order: the old rows go before the new ones arrive.
      const statements: Promise<unknown>[] = [
        db.query(
          `insert into derived_changes (account_id, data_version, data_source_id, customer_id)
           select $1, coalesce((select data_version from account_data_state where account_id = $1), 0), k.s, k.i
           from ${KEYS}
           on conflict do nothing`,
          [accountId, keysJson(keys)],
        ),
        ...['mrr_movements', 'customer_metrics'].map((table) =>
          db.query(
            `delete from ${table} t using ${KEYS}
             where t.account_id = $1 and t.data_source_id = k.s and t.customer_id = k.i`,
            [accountId, keysJson(keys)],
          ),
        ),
      ].map(awaitedLater);
      statements.push(
        awaitedLater(
          bulkWrite(
            db,
            accountId,
            {
              table: 'customer_metrics',
              columns: {
                data_source_id: 'uuid',
                customer_id: 'text',
                currency: 'text',
                first_paid_day: 'date',
                plans: 'jsonb',
                billing_freqs: 'jsonb',
                primary_plan: 'text',
                primary_billing_freq: 'text',
                primary_pricing_model: 'text',
                segments: 'jsonb',
                payment_methods: 'jsonb',
                latest_payment_method: 'text',
                pricing_models: 'jsonb',
                has_discount: 'boolean',
                quantities: 'jsonb',
              },
            },
            derived.map((customer) => ({
              data_source_id: customer.key.dataSourceId,
              customer_id: customer.key.id,
              currency: customer.currency,
              first_paid_day: customer.firstPaidDay,
              plans: customer.plans,
              billing_freqs: customer.billingFreqs,
              primary_plan: customer.primaryPlan,
              primary_billing_freq: customer.primaryBillingFreq,
              primary_pricing_model: customer.primaryPricingModel,
              segments: customer.segments,
              payment_methods: customer.paymentMethods,
              latest_payment_method: customer.latestPaymentMethod,
              pricing_models: customer.pricingModels,
              has_discount: customer.hasDiscount,
              quantities: customer.quantities,
            })),
          ),
        ),
      );
      statements.push(
        awaitedLater(
          bulkWrite(
            db,
            accountId,
            {
              table: 'mrr_movements',
              columns: {
                data_source_id: 'uuid',
                customer_id: 'text',
                day: 'date',
                kind: 'text',
                subtype: 'text',
                amount: 'bigint',
                scheduled: 'boolean',
                known_day: 'date',
              },
            },
            derived.flatMap((customer) =>
              customer.movements.map((movement) => ({
                data_source_id: customer.key.dataSourceId,
                customer_id: customer.key.id,
                ...movement,
              })),
            ),
          ),
        ),
      );
      await Promise.all(statements);
    },
  };
}
