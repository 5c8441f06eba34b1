import {
  type AccountSnapshot,
  buildAccountSnapshot,
  type CustomerView,
  inSnapshotOrder,
  patchAccountSnapshot,
  patchCustomers,
  type PatchedCustomers,
} from '../engine/account-snapshot.js';
import { customerTimeline, DEFAULT_GRACE_DAYS } from '../engine/customer-timeline.js';
import { hasCurrentDiscount, pricingModels } from '../engine/customer-traits.js';
import { dayNumber, dayString } from '../engine/days.js';
import type { FxTable } from '../engine/fx-table.js';
import type { Movement, PlanInput, Segment } from '../engine/types.js';
import type {
  DerivedCustomer,
  HistoryCustomerRow,
  HistoryLineRow,
  HistorySubscriptionRow,
  PaymentMethodRow,
  SnapshotCustomerRow,
  SnapshotMovementRow,
  SnapshotPage,
} from '../store/metrics-repo.js';
import { awaitedLater } from '../store/awaited-later.js';
import type { Repos, Store } from '../store/open-store.js';
import { keyString, type RecordKey } from '../store/records-repo.js';
import { customerHistory, plansByKey } from './customer-history.js';
import type { Clock } from './clock.js';
import type { FxService } from './fx-service.js';
import { servedStale } from './read-freshness.js';
import { changedSince, DERIVED_CHANGES_KEPT_S, type ReadVersion, readVersionOf } from './snapshot-changes.js';
import { today } from './report-context.js';

/** A data version, and when it was read. */
type ReadPoint = Omit<ReadVersion, 'customers'>;

/** A snapshot's customers, as a patch of the held snapshot's or read whole, and what they are of. */
interface SnapshotCustomers {
  read: ReadPoint;
  customers: { from: AccountSnapshot; patch: PatchedCustomers } | { whole: CustomerView[] };
}

/** Customers recomputed per transaction: bounded, so one large import does not hold one huge transaction. */
const BATCH = 500;

/**
 * Customers derived per part of a batch: small enough that the store reads and writes other
 * parts while this thread derives one, large enough to keep the statements few.
 */
const DERIVE_PART = 125;

/** Customers read per page when a snapshot is built. */
const SNAPSHOT_PAGE = 10_000;

/** How often one process prunes, for an account, the store's record of which customers were re-derived. */
const PRUNE_EVERY_MS = 60_000;
/**
 * A background refresh starts once the account's writes pause `quietMs`, or `atMostMs` after
 * the first write that asked for it while they go on.
 */
const REFRESH_PAUSE = { quietMs: 200, atMostMs: 2_000 };
/**
 * The least time from the start of one build of an account's snapshot to the start of the build
 * queued behind it: under a stream of writes, fewer snapshots, each holding more writes.
 */
const BUILD_SPACING_MS = 300;
/** An account read within this long gets its snapshots built ahead of its readers. */
const READ_LATELY_MS = 10 * 60_000;
/** A snapshot nothing has read for this long is dropped (SNAPSHOT_IDLE_MINUTES). */
const DEFAULT_IDLE_MS = 30 * 60_000;
/** How often idle snapshots are looked for, at most. */
const SWEEP_EVERY_MS = 60_000;

/** Resolves after `ms` (at once for none). */
const sleep = (ms: number) => new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : resolve()));

/** `promise`'s value when it settles within `ms`, else null. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  return Promise.race([promise, waited]).finally(() => clearTimeout(timer));
}

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

/** What every customer of a refresh batch is derived with. */
interface DeriveContext {
  plans: ReturnType<typeof plansByKey>;
  baseCurrency: string;
  table: FxTable;
  /** Today, as the engine counts days. */
  day: number;
}

/** What the engine derives a customer from, grouped by customer. */
interface CustomerHistories {
  customers: HistoryCustomerRow[];
  lines: Map<string, HistoryLineRow[]>;
  subscriptions: Map<string, HistorySubscriptionRow[]>;
  paymentMethods: Map<string, PaymentMethodRow[]>;
}

/** Sent together: the store answers them one after another without a wait for this thread. */
async function readHistories(
  tx: Repos,
  accountId: string,
  keys: readonly RecordKey[],
): Promise<CustomerHistories> {
  const [customers, lines, subscriptions, paymentMethods] = await Promise.all([
    tx.metrics.customers(accountId, keys),
    tx.metrics.lines(accountId, keys),
    tx.metrics.subscriptions(accountId, keys),
    tx.metrics.paymentMethods(accountId, keys),
  ]);
  return {
    customers,
    lines: groupByCustomer(lines),
    subscriptions: groupByCustomer(subscriptions),
    paymentMethods: groupByCustomer(paymentMethods),
  };
}

function inParts<T>(items: readonly T[], size: number): T[][] {
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size));
  return parts;
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

function customerViews(page: SnapshotPage): CustomerView[] {
  const movements = groupByCustomer(page.movements);
  return page.customers.map((row) => customerView(row, movements));
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

export interface MetricsOptions {
  graceDays?: number;
  /**
   * How long a report waits for a newer snapshot before it is answered from the previous one
   * (docs/api.md, "Freshness"); absent: it waits for the newer one.
   */
  readWaitMs?: number | undefined;
  /** When a refresh asked for by writes starts (tests); REFRESH_PAUSE by default. */
  refreshPause?: { quietMs: number; atMostMs: number };
  /** Where a refresh started after a write reports its failure. */
  onRefreshError?: (error: unknown, accountId: string) => void;
  /** What else is built for a snapshot built ahead of its readers (the cashflow table). */
  builtAhead?: (accountId: string, snapshot: AccountSnapshot) => Promise<unknown>;
  /** The least time between the starts of two builds of one account; BUILD_SPACING_MS by default. */
  buildSpacingMs?: number;
  /** How long a snapshot nothing reads is kept; DEFAULT_IDLE_MS by default. */
  idleMs?: number;
  /** What else goes when an idle account's snapshot is dropped (the cashflow table). */
  dropped?: (accountId: string) => void;
}

/**
 * Keeps each account's derived metrics in step with its raw records (docs/decisions.md, "Derived
 * metrics: recomputed per customer at write time, read from an in-memory snapshot"): customers
 * marked dirty by a write are recomputed by the engine and saved in the same transaction that
 * claims them, and reports read a snapshot patched or rebuilt whenever the data version moves.
 */
export function createMetricsService(
  store: Store,
  fx: FxService,
  clock: Clock,
  options: MetricsOptions = {},
) {
  const graceDays = options.graceDays ?? DEFAULT_GRACE_DAYS;
  /** Each account's latest snapshot. */
  const snapshots = new Map<string, AccountSnapshot>();
  /** The build running for each account, and the one queued to start after it. */
  const building = new Map<string, { version: number; startedAt: number; done: Promise<AccountSnapshot> }>();
  const queued = new Map<string, Promise<AccountSnapshot>>();
  const prunedAt = new Map<string, number>();
  /** Set at shutdown: refreshes end after their current batch. */
  let stopping = false;
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  let sweeper: NodeJS.Timeout | undefined;

  /** Forgets old records of re-derived customers, at most once a minute per account. */
  async function pruneWhenDue(tx: Repos, accountId: string, now: number): Promise<void> {
    if ((prunedAt.get(accountId) ?? 0) >= now - PRUNE_EVERY_MS) return;
    prunedAt.set(accountId, now);
    await tx.metrics.pruneDerivedChanges(accountId, DERIVED_CHANGES_KEPT_S);
  }

  /**
   * Derives `keys`' customers in parts, every part's reads sent at once: this thread derives a
   * part while the store reads the next ones, and the store writes a part while this thread
   * derives the next (docs/decisions.md, "A transaction's statements sent together").
   */
  async function recompute(
    tx: Repos,
    accountId: string,
    keys: readonly RecordKey[],
    table: FxTable,
  ): Promise<void> {
    const shared = awaitedLater(Promise.all([tx.accounts.get(accountId), tx.metrics.plans(accountId)]));
    const parts = inParts(keys, DERIVE_PART).map((part) => ({
      keys: part,
      histories: awaitedLater(readHistories(tx, accountId, part)),
    }));
    const [account, planRows] = await shared;
    const plans = plansByKey(planRows);
    // One day for the whole batch, should it cross midnight.
    const context = { plans, baseCurrency: account?.base_currency ?? 'usd', table, day: today(clock) };
    const writes: Promise<void>[] = [];
    for (const part of parts) {
      const derived = deriveCustomers(await part.histories, context);
      writes.push(awaitedLater(tx.metrics.replace(accountId, part.keys, derived)));
    }
    await Promise.all(writes);
  }

  function deriveCustomers(
    { customers, lines, subscriptions, paymentMethods }: CustomerHistories,
    { plans, baseCurrency, table, day }: DeriveContext,
  ): DerivedCustomer[] {
    return customers.map((customer) => {
      const key = { dataSourceId: customer.data_source_id, id: customer.customer_id };
      const history = customerHistory(
        customer.currency,
        lines.get(keyString(key)) ?? [],
        subscriptions.get(keyString(key)) ?? [],
        plans,
        baseCurrency,
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
  }

  /**
   * Under the account's lock, takes up to BATCH of its dirty customers and recomputes them;
   * returns how many there were.
   */
  async function deriveBatch(tx: Repos, accountId: string, table: FxTable): Promise<number> {
    // Sent together, run in this order: the claim runs under the lock.
    const [, , keys] = await Promise.all([
      tx.metrics.lockAccount(accountId),
      // Here too, not only when a snapshot is built: an account no one reads is refreshed.
      pruneWhenDue(tx, accountId, Date.now()),
      tx.changes.claimDirtyCustomers(accountId, BATCH),
    ]);
    if (keys.length > 0) await recompute(tx, accountId, keys, table);
    return keys.length;
  }

  /** Whether a batch of `claimed` customers may have left more behind, and the refresh goes on. */
  const moreToDerive = (claimed: number) => claimed === BATCH && !stopping;

  /** Recomputes every dirty customer of the account; returns how many there were. */
  async function refresh(accountId: string): Promise<number> {
    const table = await fx.table();
    let total = 0;
    for (;;) {
      const claimed = await store.transaction((tx) => deriveBatch(tx, accountId, table));
      total += claimed;
      if (!moreToDerive(claimed)) return total;
    }
  }

  /**
   * The customers of a snapshot of the version asked for: the held snapshot's, patched with the
   * customers re-derived since its version, or the whole account read again when there are many,
   * or the held one is older than the store's memory of them (docs/decisions.md, "Snapshots are
   * patched"). Read in the transaction of the refresh's last batch, under the account's lock:
   * nothing is derived meanwhile. With no customer marked either, they hold every write up to
   * the data version of that moment, which is what the snapshot is then of: after a refresh
   * that ran long (through an import), newer than the version asked for, so the next reader
   * finds it current rather than reading the account again.
   */
  async function customersOf(
    tx: Repos,
    accountId: string,
    asked: ReadPoint,
    held: AccountSnapshot | undefined,
  ): Promise<SnapshotCustomers> {
    const settledAt = Date.now();
    const settled = await tx.changes.settledVersion(accountId);
    const read =
      settled !== null && settled > asked.version ? { version: settled, readAt: settledAt } : asked;
    const changed = held && (await changedSince(tx, accountId, readVersionOf(held), asked.readAt));
    if (changed) {
      const fresh =
        changed.length === 0 ? [] : customerViews(await tx.metrics.snapshotCustomers(accountId, changed));
      return { read, customers: { from: held, patch: patchCustomers(held.customers, changed, fresh) } };
    }
    const views: CustomerView[] = [];
    for await (const page of tx.metrics.snapshotPages(accountId, SNAPSHOT_PAGE))
      views.push(...customerViews(page));
    return { read, customers: { whole: inSnapshotOrder(views) } };
  }

  /**
   * Derives the account's dirty customers, then reads the customers of its snapshot in the
   * transaction of the last batch: a build waits for the store's connection once, not twice,
   * which on the embedded store's one connection, behind a stream of writes, was about a third
   * of a build's time. A read that fails undoes that batch too; its customers stay marked and
   * are derived again by the next build.
   */
  async function deriveThenRead(accountId: string, asked: ReadPoint): Promise<SnapshotCustomers> {
    const table = await fx.table();
    const held = snapshots.get(accountId);
    for (;;) {
      const read = await store.transaction(async (tx) =>
        moreToDerive(await deriveBatch(tx, accountId, table))
          ? undefined
          : customersOf(tx, accountId, asked, held),
      );
      if (read) return read;
    }
  }

  async function build(accountId: string, version: number): Promise<AccountSnapshot> {
    const { read, customers } = await deriveThenRead(accountId, { version, readAt: Date.now() });
    const snapshot =
      'whole' in customers
        ? buildAccountSnapshot(read.version, customers.whole, read.readAt)
        : patchAccountSnapshot(customers.from, read.version, customers.patch, read.readAt);
    // Builds of one account run one after another and `current` starts none of an older
    // version than it holds, so this is the newest.
    snapshots.set(accountId, snapshot);
    sweepWhileHeld();
    return snapshot;
  }

  /** Builds the snapshot of `version`, as the account's one running build. */
  function startBuild(accountId: string, version: number): Promise<AccountSnapshot> {
    const done = build(accountId, version);
    const entry = { version, startedAt: performance.now(), done };
    building.set(accountId, entry);
    const forget = () => {
      if (building.get(accountId) === entry) building.delete(accountId);
    };
    done.then(forget, forget);
    return done;
  }

  /**
   * The account's snapshot, reflecting every write committed before `version` was read (by
   * the caller, or here). A held snapshot of that version or newer will do: one is never
   * replaced by an older one.
   */
  async function current(accountId: string, known?: number): Promise<AccountSnapshot> {
    const version = known ?? (await store.changes.dataVersion(accountId));
    const cached = snapshots.get(accountId);
    if (cached && cached.version >= version) return cached;
    const running = building.get(accountId);
    if (running && running.version >= version) return running.done;
    const waiting = queued.get(accountId);
    if (!running) return waiting ?? startBuild(accountId, version);
    const next = waiting ?? queueAfter(accountId, running);
    // The running build may turn out to hold this caller's writes (see `customersOf`): then
    // the caller need not wait for the next.
    return running.done.then(
      (built) => (built.version >= version ? built : next),
      () => next,
    );
  }

  /**
   * The build after the running one, which may lack some caller's writes. It starts after it,
   * and no sooner than the spacing after its start, and takes the version of that moment, so
   * every caller meanwhile, whatever version it saw, shares it: under a stream of writes, one
   * build per burst rather than one per write (docs/decisions.md, "Refresh after writes; a
   * bounded wait for readers").
   */
  function queueAfter(accountId: string, running: { startedAt: number; done: Promise<unknown> }) {
    const spacingMs = options.buildSpacingMs ?? BUILD_SPACING_MS;
    const queuedBuild = running.done
      .catch(() => undefined)
      // A monotonic clock: a wall clock set back would stretch the wait.
      .then(() => sleep(running.startedAt + spacingMs - performance.now()))
      .then(() => store.changes.dataVersion(accountId))
      .then((latest) => {
        queued.delete(accountId);
        // The build that just ended may hold `latest` already (see `customersOf`).
        const held = snapshots.get(accountId);
        return held && held.version >= latest ? held : startBuild(accountId, latest);
      });
    queued.set(accountId, queuedBuild);
    // A failed version read must not leave the queue blocked.
    queuedBuild.catch(() => {
      if (queued.get(accountId) === queuedBuild) queued.delete(accountId);
    });
    return queuedBuild;
  }

  /** Whether a build that lacks `version` is running or queued: a reader of it waits for two. */
  function behindBuild(accountId: string, version: number): boolean {
    const running = building.get(accountId);
    if (running && running.version >= version) return false;
    return queued.has(accountId) || running !== undefined;
  }

  const refreshing = new Map<string, Promise<void>>();
  const refreshAgain = new Set<string>();
  /** When readers last asked for each account's snapshot. */
  const lastRead = new Map<string, number>();
  /** Snapshots built ahead of their readers, under way. */
  const buildingAhead = new Set<Promise<void>>();

  /**
   * Drops the snapshots of accounts nothing has read for `idleMs` (no report, no detection after
   * a write), with what was kept beside them: an account read again is read whole, as after a
   * start (docs/operations.md, "Memory"). A snapshot being built or queued is left to its readers.
   */
  function dropIdle(now: number): void {
    for (const accountId of snapshots.keys()) {
      if (now - (lastRead.get(accountId) ?? 0) < idleMs) continue;
      if (building.has(accountId) || queued.has(accountId)) continue;
      snapshots.delete(accountId);
      lastRead.delete(accountId);
      prunedAt.delete(accountId);
      options.dropped?.(accountId);
    }
    if (snapshots.size === 0) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  }

  /** Looks for idle snapshots while any is held; unreferenced, so a process with nothing else to do may exit. */
  function sweepWhileHeld(): void {
    if (sweeper !== undefined || stopping) return;
    sweeper = setInterval(() => dropIdle(Date.now()), Math.min(idleMs, SWEEP_EVERY_MS));
    sweeper.unref();
  }

  const readLately = (accountId: string) =>
    snapshots.has(accountId) && Date.now() - (lastRead.get(accountId) ?? 0) < READ_LATELY_MS;

  function reportRefreshError(error: unknown, accountId: string): void {
    try {
      options.onRefreshError?.(error, accountId);
    } catch {
      // A failing report of a failure must not end the process; the next reader refreshes.
    }
  }

  /**
   * Builds the next snapshot of an account read lately, so that its next reader does not wait,
   * when a patch will do: a whole read (a large import under way) is left to the next reader
   * rather than repeated after every refresh, in every process.
   */
  function buildAhead(accountId: string): void {
    const held = snapshots.get(accountId);
    if (!held || stopping || !readLately(accountId)) return;
    const run = changedSince(store, accountId, readVersionOf(held), Date.now())
      .then(async (changed) => {
        if (!changed || stopping) return;
        const snapshot = await current(accountId);
        if (!stopping) await options.builtAhead?.(accountId, snapshot);
      })
      // At shutdown the store may close under it; the next start builds anyway.
      .catch((error: unknown) => {
        if (!stopping) reportRefreshError(error, accountId);
      })
      .finally(() => buildingAhead.delete(run));
    buildingAhead.add(run);
  }
  /** Background refreshes asked for and not started: since when, and the timer that starts it. */
  const asked = new Map<string, { since: number; timer: NodeJS.Timeout }>();

  function refreshSoon(accountId: string): void {
    if (stopping) return;
    if (refreshing.has(accountId)) {
      refreshAgain.add(accountId);
      return;
    }
    const { quietMs, atMostMs } = options.refreshPause ?? REFRESH_PAUSE;
    const now = Date.now();
    const earlier = asked.get(accountId);
    // Its timer fires by the latest start already.
    if (earlier && now - earlier.since >= atMostMs) return;
    if (earlier) clearTimeout(earlier.timer);
    const since = earlier?.since ?? now;
    const timer = setTimeout(
      () => {
        asked.delete(accountId);
        startRefresh(accountId);
      },
      Math.min(quietMs, since + atMostMs - now),
    );
    asked.set(accountId, { since, timer });
  }

  function startRefresh(accountId: string): void {
    const run = (async () => {
      try {
        refreshAgain.delete(accountId);
        await refresh(accountId);
        buildAhead(accountId);
      } catch (error) {
        reportRefreshError(error, accountId);
      } finally {
        refreshing.delete(accountId);
        // Writes during the run asked for another, after the same pause as any.
        if (refreshAgain.delete(accountId)) refreshSoon(accountId);
      }
    })();
    refreshing.set(accountId, run);
  }

  return {
    refresh,

    /** The account's snapshot, reflecting every write committed before the call. */
    snapshot(accountId: string): Promise<AccountSnapshot> {
      lastRead.set(accountId, Date.now());
      return current(accountId);
    },

    /**
     * The snapshot a report reads: the current one when it is ready within the read wait,
     * else the previous one, and the request learns how old its data is.
     */
    async snapshotToRead(
      accountId: string,
      acceptStale: (held: AccountSnapshot) => boolean = () => true,
    ): Promise<AccountSnapshot> {
      lastRead.set(accountId, Date.now());
      const version = await store.changes.dataVersion(accountId);
      const held = snapshots.get(accountId);
      const readWaitMs = options.readWaitMs;
      // Read before `current` queues a build: whether this reader would wait for two builds.
      const behind = held !== undefined && held.version < version && behindBuild(accountId, version);
      const next = current(accountId, version);
      if (readWaitMs === undefined || !held) return next;
      // Under a stream of writes every reader is behind the running build. While the held
      // snapshot is younger than the wait, answering from it at once keeps reads as fast as
      // without writes and no staler than the wait would (docs/decisions.md, "Refresh after
      // writes; a bounded wait for readers").
      const ready = behind && Date.now() - held.readAt < readWaitMs ? null : await within(next, readWaitMs);
      if (ready) return ready;
      // The newer snapshot goes on being built; its failure is the next reader's.
      next.catch(() => undefined);
      // Dropped while it waited, if the wait is as long as the idle time: nothing older to give.
      const latest = snapshots.get(accountId);
      if (!latest) return next;
      if (latest.version >= version) return latest;
      // A report whose own data for the held snapshot would cost more than the wait reads the newer.
      if (!acceptStale(latest)) return next;
      servedStale(latest.readAt);
      return latest;
    },

    /**
     * Derives the account's changed customers in the background, once its writes pause (200 ms)
     * or at most 2 s after the first write that asked (REFRESH_PAUSE), so the next reader finds
     * them derived (and, when this process holds a snapshot of the account, its next snapshot
     * built), and an import's refresh runs while it goes on. A customer
     * that several bodies of an import touch in that time (customers, then their invoices and
     * subscriptions) is derived once rather than after each. Refreshes of one account run one
     * at a time; writes meanwhile ask for one more. A reader does not wait for the timer: its
     * snapshot build refreshes first.
     */
    refreshSoon,

    /**
     * A write through any process moved the account's data version: an account this process
     * holds a snapshot of is refreshed and built again soon, with the same pause as after a
     * write here, so its next reader does not wait (docs/operations.md, "Several processes").
     */
    versionMoved(accountId: string): void {
      if (readLately(accountId)) refreshSoon(accountId);
    },

    /** Starts the background refreshes asked for and waits for them all (tests). */
    async settled(): Promise<void> {
      while (asked.size > 0 || refreshing.size > 0 || buildingAhead.size > 0) {
        for (const [accountId, { timer }] of asked) {
          clearTimeout(timer);
          asked.delete(accountId);
          startRefresh(accountId);
        }
        await Promise.all([...refreshing.values(), ...buildingAhead]);
      }
    },

    /**
     * Stops the background refreshes after their current batch and waits for them (shutdown):
     * the customers left stay marked, for the next start.
     */
    async stop(): Promise<void> {
      stopping = true;
      clearInterval(sweeper);
      for (const { timer } of asked.values()) clearTimeout(timer);
      asked.clear();
      await Promise.all([...refreshing.values()]);
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
