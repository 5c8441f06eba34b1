import { type AccountSnapshot, buildAccountSnapshot, type CustomerView } from '../engine/account-snapshot.js';
import { customerTimeline, DEFAULT_GRACE_DAYS } from '../engine/customer-timeline.js';
import { hasCurrentDiscount, pricingModels } from '../engine/customer-traits.js';
import { dayNumber, dayString } from '../engine/days.js';
import type { FxTable } from '../engine/fx-table.js';
import type { Movement, PlanInput, Segment } from '../engine/types.js';
import type {
  HistoryLineRow,
  HistorySubscriptionRow,
  PaymentMethodRow,
  SnapshotCustomerRow,
  SnapshotMovementRow,
} from '../store/metrics-repo.js';
import type { Repos, Store } from '../store/open-store.js';
import { keyString, type RecordKey } from '../store/records-repo.js';
import { customerHistory, plansByKey } from './customer-history.js';
import type { Clock } from './clock.js';
import type { FxService } from './fx-service.js';
import { today } from './report-context.js';

/** Customers recomputed per transaction: bounded, so one large import does not hold one huge transaction. */
const BATCH = 500;

/** Customers read per page when a snapshot is built. */
const SNAPSHOT_PAGE = 10_000;

function groupByCustomer<T extends { data_source_id: string; customer_id: string }>(rows: readonly T[]) {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyString({ dataSourceId: row.data_source_id, id: row.customer_id });
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

function toMovement(row: SnapshotMovementRow): Movement {
  return {
    day: dayNumber(row.day),
    kind: row.kind,
    subtype: row.subtype,
    amount: row.amount,
    scheduled: row.scheduled,
    knownDay: row.known_day === null ? null : dayNumber(row.known_day),
  };
}

function customerView(
  row: SnapshotCustomerRow,
  movements: ReadonlyMap<string, SnapshotMovementRow[]>,
): CustomerView {
  const key = keyString({ dataSourceId: row.data_source_id, id: row.customer_id });
  return {
    id: row.customer_id,
    dataSourceId: row.data_source_id,
    name: row.name,
    email: row.email,
    createdDate: row.created_date,
    trialStarted: row.trial_started,
    paidStarted: row.paid_started,
    cancelDate: row.cancel_date,
    country: row.country,
    state: row.state,
    status: row.status,
    cancelReason: row.cancel_reason,
    customVariables: row.custom_variables,
    currency: row.currency ?? 'usd',
    firstPaidDay: row.first_paid_day === null ? null : dayNumber(row.first_paid_day),
    plans: row.plans ?? [],
    billingFreqs: row.billing_freqs ?? [],
    primaryPlan: row.primary_plan,
    primaryBillingFreq: row.primary_billing_freq,
    paymentMethods: row.payment_methods ?? [],
    latestPaymentMethod: row.latest_payment_method,
    pricingModels: row.pricing_models ?? [],
    primaryPricingModel: row.primary_pricing_model,
    hasDiscount: row.has_discount ?? false,
    quantities: row.quantities ?? [],
    movements: (movements.get(key) ?? []).map(toMovement),
  };
}

/**
 * A customer's payment methods (sorted, as read) and the method of its latest successful
 * payment. Two methods paid at the same instant: the first in that order.
 */
function paymentMethodsOf(rows: readonly PaymentMethodRow[]) {
  let latest: PaymentMethodRow | undefined;
  for (const row of rows) {
    if (row.paid_at !== null && (latest === undefined || row.paid_at > latest.paid_at!)) latest = row;
  }
  return {
    paymentMethods: rows.map((row) => row.payment_method),
    latestPaymentMethod: latest?.payment_method ?? null,
  };
}

/**
 * Plans billed on, their frequencies, and the plan of the latest revenue (ties: the larger
 * value) with its frequency and pricing model.
 */
function billedPlans(segments: readonly Segment[], plans: ReadonlyMap<string, PlanInput>) {
  const planIds = [
    ...new Set(segments.flatMap((segment) => (segment.planId === null ? [] : [segment.planId]))),
  ];
  const freqs = new Set(planIds.flatMap((id) => plans.get(id)?.billingFreq ?? []));
  const latest = segments
    .filter((segment) => segment.planId !== null && segment.monthly > 0)
    .reduce<Segment | undefined>(
      (best, segment) =>
        !best ||
        segment.start > best.start ||
        (segment.start === best.start && segment.monthly > best.monthly)
          ? segment
          : best,
      undefined,
    );
  const primary = latest?.planId ? plans.get(latest.planId) : undefined;
  return {
    plans: planIds.sort(),
    billingFreqs: [...freqs].sort(),
    primaryPlan: latest?.planId ?? null,
    primaryBillingFreq: primary?.billingFreq ?? null,
    primaryPricingModel: primary?.pricingModel ?? null,
  };
}

/**
 * Keeps each account's derived metrics in step with its raw records (DESIGN 2): customers
 * marked dirty by a write are recomputed by the engine and saved in the same transaction that
 * claims them, and reports read a snapshot rebuilt whenever the data version moves.
 */
export function createMetricsService(
  store: Store,
  fx: FxService,
  clock: Clock,
  graceDays = DEFAULT_GRACE_DAYS,
) {
  const snapshots = new Map<string, AccountSnapshot>();
  const building = new Map<string, Promise<AccountSnapshot>>();

  async function recompute(
    tx: Repos,
    accountId: string,
    keys: readonly RecordKey[],
    table: FxTable,
  ): Promise<void> {
    const account = await tx.accounts.get(accountId);
    const customers = await tx.metrics.customers(accountId, keys);
    const lines = groupByCustomer<HistoryLineRow>(await tx.metrics.lines(accountId, keys));
    const subscriptions = groupByCustomer<HistorySubscriptionRow>(
      await tx.metrics.subscriptions(accountId, keys),
    );
    const paymentMethods = groupByCustomer<PaymentMethodRow>(
      await tx.metrics.paymentMethods(accountId, keys),
    );
    const plans = plansByKey(await tx.metrics.plans(accountId));
    const day = today(clock);
    const derived = customers.map((customer) => {
      const key = { dataSourceId: customer.data_source_id, id: customer.customer_id };
      const history = customerHistory(
        customer.currency,
        lines.get(keyString(key)) ?? [],
        subscriptions.get(keyString(key)) ?? [],
        plans,
        account?.base_currency ?? 'usd',
      );
      const timeline = customerTimeline(history, { fx: table, graceDays });
      const firstPaid = timeline.points.find((point) => point.mrr > 0);
      const billed = billedPlans(timeline.segments, plans);
      return {
        key,
        currency: timeline.currency,
        firstPaidDay: firstPaid ? dayString(firstPaid.day) : null,
        ...billed,
        // Only a customer's current subscriptions read segments, and today only moves on.
        segments: timeline.segments.filter((segment) => segment.end > day),
        ...paymentMethodsOf(paymentMethods.get(keyString(key)) ?? []),
        pricingModels: pricingModels(billed.plans, plans),
        hasDiscount: hasCurrentDiscount(history),
        quantities: timeline.quantities,
        movements: timeline.movements.map((movement) => ({
          day: dayString(movement.day),
          kind: movement.kind,
          subtype: movement.subtype,
          amount: movement.amount,
          scheduled: movement.scheduled,
          known_day: movement.knownDay === null ? null : dayString(movement.knownDay),
        })),
      };
    });
    await tx.metrics.replace(accountId, keys, derived);
  }

  /** Recomputes every dirty customer of the account; returns how many there were. */
  async function refresh(accountId: string): Promise<number> {
    const table = await fx.table();
    let total = 0;
    for (;;) {
      const claimed = await store.transaction(async (tx) => {
        await tx.metrics.lockAccount(accountId);
        const keys = await tx.changes.claimDirtyCustomers(accountId, BATCH);
        if (keys.length > 0) await recompute(tx, accountId, keys, table);
        return keys.length;
      });
      total += claimed;
      if (claimed < BATCH) return total;
    }
  }

  async function build(accountId: string, version: number): Promise<AccountSnapshot> {
    await refresh(accountId);
    const customers = await store.transaction(async (tx) => {
      await tx.metrics.lockAccount(accountId);
      const views: CustomerView[] = [];
      for await (const page of tx.metrics.snapshotPages(accountId, SNAPSHOT_PAGE)) {
        const movements = groupByCustomer(page.movements);
        for (const row of page.customers) views.push(customerView(row, movements));
      }
      return views;
    });
    const snapshot = buildAccountSnapshot(version, customers);
    snapshots.set(accountId, snapshot);
    return snapshot;
  }

  return {
    refresh,

    /** The account's snapshot, reflecting every write committed before the call. */
    async snapshot(accountId: string): Promise<AccountSnapshot> {
      const version = await store.changes.dataVersion(accountId);
      const cached = snapshots.get(accountId);
      if (cached && cached.version === version) return cached;
      const pending = building.get(accountId);
      if (pending) return pending;
      const next = build(accountId, version).finally(() => building.delete(accountId));
      building.set(accountId, next);
      return next;
    },

    /** One customer's revenue segments as last derived. */
    async segments(accountId: string, key: RecordKey): Promise<Segment[]> {
      return (await store.metrics.segments(accountId, key)) as Segment[];
    },

    /** Recomputes one customer from its raw records now (the resync action). */
    async recompute(accountId: string, key: RecordKey): Promise<void> {
      await store.transaction((tx) =>
        tx.changes.markCustomers(accountId, [key]).then(() => tx.changes.bumpDataVersion(accountId)),
      );
      await refresh(accountId);
    },
  };
}

export type MetricsService = ReturnType<typeof createMetricsService>;
