import { dayNumber, dayString } from '../engine/days.js';
import { type AlertDay, crossedAlerts, type Alert } from '../engine/notifications/alerts.js';
import { ALERT_TITLES, alertText, eventText } from '../engine/notifications/chat-message.js';
import {
  type DigestFigures,
  type DigestFrequency,
  digestEmail,
  type DigestPeriod,
  dueDigestPeriod,
  lineEmail,
  periodStarting,
} from '../engine/notifications/digest.js';
import { detectRevenueEvents, isNews } from '../engine/revenue-event-detection.js';
import type { RevenueEvent, RevenueEventPublisher } from '../engine/revenue-event.js';
import { isTimeZone, wallClock } from '../engine/time-zone.js';
import { MOVEMENT_KINDS } from '../engine/vocabulary.js';
import type { JobOptions, JobPayload, JobSender } from '../jobs/job-queue.js';
import type { RevenueEventRow } from '../store/notifications-repo.js';
import type { Store } from '../store/open-store.js';
import { failingInvoicesTable } from './cashflow-tables.js';
import { type ChatSystem, chatTargets, postToChat } from './chat-delivery.js';
import { type OutboundPolicy, STRICT_OUTBOUND } from './outbound-http.js';
import type { Clock } from './clock.js';
import type { FxService } from './fx-service.js';
import type { Mailer } from './mailer.js';
import type { MetricsService } from './metrics-service.js';
import type { MovementItem } from './movement-items.js';
import { today } from './report-context.js';
import type { ReportsService } from './reports-service.js';
import type { NotificationSettings, SettingsService } from './settings-service.js';

/** The queues of notification jobs (src/jobs/notification-jobs.ts). */
export const NOTIFY_QUEUES = {
  detect: 'notify-detect',
  chat: 'notify-chat',
  digest: 'notify-digest',
  alerts: 'notify-alerts',
} as const;

/** Events this many days old or more are history: recorded, never told (docs/notifications.md). */
export const NEWS_MAX_AGE_DAYS = 2;
/** How far back detection looks: older events could never be told, so they are not even recorded. */
export const DETECTION_LOOKBACK_DAYS = 35;
/** Digests go out from this hour of the account's time zone on, the day after their period. */
export const DIGEST_HOUR = 8;
/** The time zone of an account whose owner has none (docs/notifications.md). */
const DEFAULT_TIME_ZONE = 'UTC';
/** A burst of writes is detected once, this long after the first. */
const DETECT_DELAY_MS = 2000;
/** While writes go on (an import), a process detects an account at most this often. */
const DETECT_EVERY_MS = 30_000;
/** Events handed to the channels per detection; a longer backlog goes out with the next ones. */
const UNTOLD_BATCH = 1000;
/** Largest changes a digest lists. */
const TOP_CHANGES = 5;

export interface ChatJob extends JobPayload {
  accountId: string;
  system: ChatSystem;
  text: string;
}

export interface DigestJob extends JobPayload {
  accountId: string;
  frequency: DigestFrequency;
  /** First day of the period, YYYY-MM-DD. */
  from: string;
}

export interface NotificationDeps {
  store: Store;
  clock: Clock;
  metrics: MetricsService;
  fx: FxService;
  reports: ReportsService;
  settings: SettingsService;
  mailer: Mailer;
  /** Channels besides chat that detected events go to (outbound webhooks). */
  publishers?: readonly RevenueEventPublisher[];
  /** Where failures nobody awaits are told; the console by default. */
  report?: (error: unknown) => void;
  /** The job runner's sender; without one every send calls its entry point in this process. */
  jobs?: JobSender | undefined;
  /** Which addresses chat webhooks may reach; private ones are refused by default. */
  outbound?: OutboundPolicy;
}

const compact = (day: number) => dayString(day).replaceAll('-', '');
const range = (from: number, to: number) => `${compact(from)}-${compact(to)}`;
const INTERVALS = { daily: 'day', weekly: 'week', monthly: 'month' } as const;
const detectKey = (accountId: string, version: number) => `detect:${accountId}:${version}`;
const movementId = (item: MovementItem) => `${item.customer_id}:${item.date}:${item.type}`;

/** Who email goes to: the recipients, when email is on and SMTP configured; else nobody. */
function emailTargets(settings: NotificationSettings, mailer: Mailer): readonly string[] {
  return settings.email.enabled && mailer.configured ? settings.email.recipients : [];
}

/**
 * Detection of revenue events and their delivery by chat, email digests and alerts. Each entry
 * point takes a job's JSON payload, so the job runner calls them as they are; until a runner
 * is given (`jobs`), every send calls its entry point directly.
 */
export function createNotificationsService(deps: NotificationDeps) {
  const { store, clock, mailer } = deps;
  const report = deps.report ?? ((error: unknown) => console.error('Notification failed:', error));

  const chatPublisher: RevenueEventPublisher = {
    async publish(events) {
      const settings = new Map<string, NotificationSettings>();
      for (const event of events) {
        const { accountId } = event;
        if (!settings.has(accountId)) settings.set(accountId, await deps.settings.notifications(accountId));
        const account = settings.get(accountId)!;
        if (!account.chat.events.includes(event.kind)) continue;
        for (const system of chatTargets(account)) {
          const job: ChatJob = { accountId, system, text: eventText(event) };
          await sender.send(NOTIFY_QUEUES.chat, job, { key: `chat:${system}:${accountId}:${event.key}` });
        }
      }
    },
  };
  const publishers = [chatPublisher, ...(deps.publishers ?? [])];

  async function detectAndPublish(accountId: string): Promise<RevenueEvent[]> {
    const account = await store.accounts.get(accountId);
    if (!account) return [];
    const snapshot = await deps.metrics.snapshot(accountId);
    const day = today(clock);
    const from = day - DETECTION_LOOKBACK_DAYS;
    const detected = detectRevenueEvents(
      snapshot,
      await failingInvoicesTable(store, accountId, snapshot, from),
      { accountId, baseCurrency: account.base_currency, today: day, from },
      await deps.fx.table(),
    );
    const sources = [...new Set(snapshot.customers.map((customer) => customer.dataSourceId))];
    const watchedSince = await store.notifications.watchSources(accountId, sources, dayString(day));
    const rule = { today: day, maxAgeDays: NEWS_MAX_AGE_DAYS, watchedSince };
    const rows: RevenueEventRow[] = detected.map((found) => ({
      key: found.event.key,
      dataSourceId: found.dataSourceId,
      kind: found.event.kind,
      occurredOn: found.event.occurredAt.slice(0, 10),
      event: found.event,
      published: isNews(found, rule),
    }));
    await store.notifications.insertEvents(accountId, rows, clock.now());
    // Every event to tell that is not told yet, this detection's and any an earlier one failed
    // to hand over: the channels' sends are keyed, so handing one over twice sends it once.
    const news = (await store.notifications.untold(accountId, UNTOLD_BATCH)) as RevenueEvent[];
    for (const publisher of publishers) await publisher.publish(news);
    await store.notifications.markTold(
      accountId,
      news.map((event) => event.key),
      clock.now(),
    );
    await store.notifications.setDetectedVersion(accountId, snapshot.version);
    return news;
  }

  async function deliverChat(job: ChatJob): Promise<void> {
    await postToChat(
      await deps.settings.notifications(job.accountId),
      job.system,
      job.text,
      deps.outbound ?? STRICT_OUTBOUND,
    );
  }

  /** The period's figures, from the MRR report and the movement table, so they equal them. */
  async function digestFigures(accountId: string, period: DigestPeriod): Promise<DigestFigures> {
    const date = range(period.from, period.to);
    const mrr = await deps.reports.mrr(accountId, { date, interval: INTERVALS[period.frequency] });
    const row = mrr.result[0]!;
    // The largest gains and the largest losses, then the largest of both by size.
    const largest = async (order: 'asc' | 'desc') =>
      (
        await deps.reports.movementTable(
          accountId,
          { date },
          { sort: 'mrr_change', order, limit: TOP_CHANGES, offset: 0 },
        )
      ).result.list;
    const top = [...(await largest('desc')), ...(await largest('asc'))]
      // A list shorter than both pages holds some movements twice.
      .filter(
        (item, index, all) => all.findIndex((other) => movementId(other) === movementId(item)) === index,
      )
      .sort(
        (a, b) =>
          Math.abs(b.mrr_change_base_currency) - Math.abs(a.mrr_change_base_currency) ||
          a.customer_id.localeCompare(b.customer_id),
      )
      .slice(0, TOP_CHANGES);
    const account = await store.accounts.get(accountId);
    return {
      accountName: account?.name ?? accountId,
      currency: mrr.currency,
      period,
      mrrStart: row.total_mrr - row.mrr_diff,
      mrrEnd: row.total_mrr,
      movements: Object.fromEntries(
        MOVEMENT_KINDS.map((kind) => [kind, { amount: row[kind], customers: row[`${kind}_customers`] }]),
      ) as DigestFigures['movements'],
      top: top.map((item) => ({
        customer: item.customer_name ?? item.customer_email ?? item.customer_id,
        kind: item.type,
        amount: item.mrr_change_base_currency,
        description: item.description,
      })),
    };
  }

  async function sendDigest(job: DigestJob): Promise<boolean> {
    const settings = await deps.settings.notifications(job.accountId);
    const to = emailTargets(settings, mailer);
    if (to.length === 0 || settings.email.frequency !== job.frequency) return false;
    const period = periodStarting(job.frequency, dayNumber(job.from));
    return store.sendOnce(job.accountId, `digest:${job.frequency}:${job.from}`, clock.now(), async () => {
      await mailer.send({ to, ...digestEmail(await digestFigures(job.accountId, period)) });
    });
  }

  /**
   * The account's time zone, which digests keep: its owner's profile time zone, or UTC when the
   * account has no owner, the owner set none, or the one stored is not a zone this Node knows.
   */
  async function accountTimeZone(accountId: string): Promise<string> {
    const owner = await store.team.owner(accountId);
    const zone =
      owner === undefined ? null : ((await store.team.profile(accountId, owner))?.time_zone ?? null);
    return zone !== null && isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
  }

  /**
   * Queues the digest each account is due by its own clock: the last period's from DIGEST_HOUR
   * on the day after it. A digest queued or sent before is not sent again (keyed job, claim).
   */
  async function sendDueDigests(): Promise<void> {
    const now = clock.now();
    for (const account of await store.accounts.list()) {
      const settings = await deps.settings.notifications(account.account_id);
      if (emailTargets(settings, mailer).length === 0) continue;
      const local = wallClock(now, await accountTimeZone(account.account_id));
      const period = dueDigestPeriod(settings.email.frequency, local, DIGEST_HOUR);
      const job: DigestJob = {
        accountId: account.account_id,
        frequency: settings.email.frequency,
        from: dayString(period.from),
      };
      await sender.send(NOTIFY_QUEUES.digest, job, {
        key: `digest:${job.accountId}:${job.frequency}:${job.from}`,
      });
    }
  }

  /**
   * Sends the alert by each channel it was not sent by yet: the email, and one chat job per chat system,
   * each claimed on its own, so that when one fails the retry sends that one alone. Every channel
   * is tried before the first failure is thrown. True when this call sent by any channel.
   */
  async function sendAlert(
    accountId: string,
    settings: NotificationSettings,
    alert: Alert,
    currency: string,
  ): Promise<boolean> {
    const text = alertText(alert, currency);
    // The email keeps the key the whole alert was claimed by before channels were claimed apart.
    const key = `alert:${alert.kind}:${alert.date}`;
    const to = emailTargets(settings, mailer);
    const channels: { key: string; send: () => Promise<void> }[] = [
      ...(to.length > 0
        ? [{ key, send: () => mailer.send({ to, ...lineEmail(ALERT_TITLES[alert.kind], text) }) }]
        : []),
      ...chatTargets(settings).map((system) => {
        const job: ChatJob = { accountId, system, text };
        return {
          key: `${key}:chat:${system}`,
          send: () => sender.send(NOTIFY_QUEUES.chat, job, { key: `chat:${system}:${accountId}:${key}` }),
        };
      }),
    ];
    let sent = false;
    const failures: unknown[] = [];
    for (const channel of channels) {
      try {
        if (await store.sendOnce(accountId, channel.key, clock.now(), channel.send)) sent = true;
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
    return sent;
  }

  /**
   * Judges yesterday and today on the daily MRR report; each alert whose measure crossed its
   * threshold is sent once by each channel. Returns the alerts this call sent by any channel.
   */
  async function evaluateAlerts(accountId: string): Promise<Alert[]> {
    const settings = await deps.settings.notifications(accountId);
    if (settings.alerts.churn_threshold === 0 && settings.alerts.mrr_drop_threshold === 0) return [];
    const day = today(clock);
    const report = await deps.reports.mrr(accountId, { date: range(day - 3, day), interval: 'day' });
    const days: AlertDay[] = report.result;
    const sent: Alert[] = [];
    for (let last = 2; last < days.length; last++) {
      const window = [days[last - 2]!, days[last - 1]!, days[last]!] as const;
      for (const alert of crossedAlerts(window, settings.alerts)) {
        if (await sendAlert(accountId, settings, alert, report.currency)) sent.push(alert);
      }
    }
    return sent;
  }

  // Until the job runner is attached, a send runs its job now. Detection is not awaited by
  // the write that asked for it; `settled` waits for it.
  const pending = new Set<Promise<unknown>>();
  const detectChains = new Map<string, Promise<unknown>>();
  const detectQueued = new Set<string>();

  /** Counts the work in `settled` from this moment on. */
  function track<T>(work: Promise<T>): Promise<T> {
    pending.add(work);
    const done = () => pending.delete(work);
    work.then(done, done);
    return work;
  }

  /**
   * One detection per account at a time, DETECT_DELAY_MS after the write that asked for it;
   * writes meanwhile ask for nothing more, and writes during one ask for one more, not one each.
   */
  function detectInline(accountId: string): Promise<void> {
    if (detectQueued.has(accountId)) return Promise.resolve();
    detectQueued.add(accountId);
    const previous = detectChains.get(accountId) ?? Promise.resolve();
    const next = previous
      .catch(() => {})
      // Writes until then join this detection: an import's many requests make one.
      .then(() => new Promise((resolve) => setTimeout(resolve, DETECT_DELAY_MS)))
      .then(() => {
        detectQueued.delete(accountId);
        return afterDataChange(accountId);
      });
    detectChains.set(accountId, next);
    return track(next);
  }

  const direct: JobSender = {
    async send(queue: string, payload: JobPayload, _options?: JobOptions) {
      const accountId = payload.accountId as string;
      if (queue === NOTIFY_QUEUES.detect) return detectInline(accountId);
      // Without a runner nothing retries: a chat that fails loses this message, and the
      // detection or alert that sent it carries on.
      if (queue === NOTIFY_QUEUES.chat) return deliverChat(payload as ChatJob).catch(report);
      if (queue === NOTIFY_QUEUES.digest) return sendDigest(payload as DigestJob).then(() => {});
      throw new Error(`No notification job on queue ${queue}`);
    },
  };
  const sender: JobSender = deps.jobs ?? direct;

  /** A write changed the account's data: detection runs soon (a burst of writes, once). */
  function dataChanged(accountId: string): Promise<void> {
    return track(
      store.changes.dataVersion(accountId).then((version) =>
        sender.send(
          NOTIFY_QUEUES.detect,
          { accountId, version },
          {
            key: detectKey(accountId, version),
            startAfter: new Date(clock.now().getTime() + DETECT_DELAY_MS),
          },
        ),
      ),
    );
  }

  /** When this process last detected each account (ms since the epoch). */
  const lastDetected = new Map<string, number>();

  /**
   * Whether the job for `version` leaves detection to a later one: the data moved on since and
   * this process detected the account lately. The job of the newest version is then sent, to
   * run when DETECT_EVERY_MS have passed since that detection; a write's own job for it (keyed
   * alike) may run sooner, and a write that sent none (a connector's) is covered too. Each
   * detection builds the account's newest snapshot: one per version of an import competed with
   * the import for the store.
   */
  async function leftToLaterJob(accountId: string, version: number): Promise<boolean> {
    const last = lastDetected.get(accountId);
    if (last === undefined || Date.now() - last >= DETECT_EVERY_MS) return false;
    const newest = await store.changes.dataVersion(accountId);
    if (newest <= version) return false;
    await sender.send(
      NOTIFY_QUEUES.detect,
      { accountId, version: newest },
      { key: detectKey(accountId, newest), startAfter: new Date(last + DETECT_EVERY_MS) },
    );
    return true;
  }

  /**
   * Detection and alerts after a write. A job for a data version an earlier detection already
   * covered does nothing: a burst of writes queues one job per version, and the first that runs
   * sees them all. While writes go on, detection waits for them to pause, for at most
   * DETECT_EVERY_MS.
   */
  async function afterDataChange(accountId: string, version?: number): Promise<void> {
    if (version !== undefined) {
      if ((await store.notifications.detectedVersion(accountId)) >= version) return;
      if (await leftToLaterJob(accountId, version)) return;
    }
    lastDetected.set(accountId, Date.now());
    await detectAndPublish(accountId);
    await evaluateAlerts(accountId);
  }

  return {
    detectAndPublish,
    evaluateAlerts,
    afterDataChange,
    deliverChat,
    digestFigures,
    sendDigest,
    sendDueDigests,

    dataChanged,

    /** Queues detection for every account written since its last one: writes no request made (imports). */
    async detectChanged(): Promise<void> {
      for (const accountId of await store.notifications.changedAccounts()) await dataChanged(accountId);
    },

    /** Alerts of every account, for the hourly sweep. */
    async evaluateAllAlerts(): Promise<void> {
      for (const account of await store.accounts.list()) await evaluateAlerts(account.account_id);
    },

    /** Waits for the detections asked for so far, which run in this process without a runner (tests, shutdown). */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },

    /** The account's recorded events, newest first. */
    recordedEvents: (accountId: string, limit = 1000) => store.notifications.events(accountId, limit),
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
