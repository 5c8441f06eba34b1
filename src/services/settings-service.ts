import { z } from 'zod';
import { REVENUE_EVENT_KINDS } from '../engine/revenue-event.js';
import type { Store } from '../store/open-store.js';
import { InvalidInputError } from './errors.js';
import { type OutboundPolicy, refusedUrl, STRICT_OUTBOUND } from './outbound-http.js';

export const EMAIL_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
/** Every revenue event kind can be posted; the first five are the movement kinds. */
export const CHAT_EVENTS = REVENUE_EVENT_KINDS;

/** An incoming-webhook address of a chat system, or '' for none. */
const webhookUrl = z
  .union([z.literal(''), z.url({ protocol: /^https?$/, error: 'must be an http(s) URL or empty' })])
  .describe('Incoming-webhook URL; answered masked, and a masked value sent back leaves it unchanged');

export const notificationSettingsSchema = z.object({
  email: z.object({
    enabled: z.boolean(),
    recipients: z.array(z.email()),
    frequency: z.enum(EMAIL_FREQUENCIES),
  }),
  chat: z.object({
    enabled: z.boolean(),
    channel: z.string().max(200),
    events: z.array(z.enum(CHAT_EVENTS)),
    slack_webhook_url: webhookUrl,
    teams_webhook_url: webhookUrl,
  }),
  alerts: z.object({
    /** Churned MRR in one day, in base-currency cents, above which an alert is sent; 0 turns it off. */
    churn_threshold: z.number().min(0),
    /** Percentage fall of MRR from one day to the next above which an alert is sent; 0 turns it off. */
    mrr_drop_threshold: z.number().min(0).max(100),
  }),
});

export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** A PUT body: any subset of groups, and of fields inside a group. Unknown fields are errors. */
export const notificationSettingsPatchSchema = z.strictObject({
  email: notificationSettingsSchema.shape.email.partial().strict().optional(),
  chat: notificationSettingsSchema.shape.chat.partial().strict().optional(),
  alerts: notificationSettingsSchema.shape.alerts.partial().strict().optional(),
});

export type NotificationSettingsPatch = z.infer<typeof notificationSettingsPatchSchema>;

export const DEFAULT_NOTIFICATIONS: NotificationSettings = {
  email: { enabled: false, recipients: [], frequency: 'weekly' },
  chat: { enabled: false, channel: '', events: [], slack_webhook_url: '', teams_webhook_url: '' },
  alerts: { churn_threshold: 0, mrr_drop_threshold: 0 },
};

const GROUPS = ['email', 'chat', 'alerts'] as const;

export const CHAT_URL_FIELDS = ['slack_webhook_url', 'teams_webhook_url'] as const;

/**
 * A webhook URL as answered: its origin and last four characters. The rest of the path is the
 * secret that lets anyone post to the channel.
 */
export function maskUrl(url: string): string {
  if (url === '') return '';
  return `${new URL(url).origin}/…${url.slice(-4)}`;
}

/** The settings as answered: chat webhook URLs masked. */
export function maskedNotifications(settings: NotificationSettings): NotificationSettings {
  const chat = { ...settings.chat };
  for (const field of CHAT_URL_FIELDS) chat[field] = maskUrl(chat[field]);
  return { ...settings, chat };
}

/** A chat patch without the URLs that only echo the stored one masked (a form sending back what it read). */
function withoutEchoedUrls(
  base: NotificationSettings['chat'],
  patch: NotificationSettingsPatch['chat'],
): NotificationSettingsPatch['chat'] {
  if (!patch) return patch;
  const kept = { ...patch };
  for (const field of CHAT_URL_FIELDS) {
    if (kept[field] !== undefined && kept[field] !== '' && kept[field] === maskUrl(base[field]))
      delete kept[field];
  }
  return kept;
}

/** Group by group, fields given win; arrays are replaced, not appended to. */
export function mergeNotifications(
  base: NotificationSettings,
  patch: NotificationSettingsPatch,
): NotificationSettings {
  return {
    email: { ...base.email, ...patch.email },
    chat: { ...base.chat, ...withoutEchoedUrls(base.chat, patch.chat) },
    alerts: { ...base.alerts, ...patch.alerts },
  };
}

function withDefaults(stored: unknown): NotificationSettings {
  const patch = notificationSettingsPatchSchema.safeParse(stored);
  return mergeNotifications(DEFAULT_NOTIFICATIONS, patch.success ? patch.data : {});
}

export interface ProcessorConnection {
  connected: boolean;
  account_id: string | null;
  account_name: string | null;
  livemode: boolean;
  connected_at: string | null;
  last_sync: string | null;
  sync_status: 'syncing' | 'complete' | 'error' | null;
  customers_imported: number;
  invoices_imported: number;
}

export interface CrmSettings {
  connected: boolean;
  provider: string | null;
  connected_at: string | null;
  last_sync: string | null;
  sync_status: 'syncing' | 'complete' | 'error' | null;
}

/** Refuses a chat URL the patch changes to one the server may not call (docs/operations.md). */
function checkChatUrls(
  current: NotificationSettings,
  next: NotificationSettings,
  policy: OutboundPolicy,
): void {
  for (const field of CHAT_URL_FIELDS) {
    const url = next.chat[field];
    if (url === '' || url === current.chat[field]) continue;
    const refusal = refusedUrl(url, policy);
    if (refusal !== null) throw new InvalidInputError(`Invalid body field "chat.${field}": ${refusal}`);
  }
}

export function createSettingsService(store: Store, policy: OutboundPolicy = STRICT_OUTBOUND) {
  return {
    async notifications(accountId: string): Promise<NotificationSettings> {
      return withDefaults(await store.settings.notifications(accountId));
    },

    /** `patch`, or a function of the settings now that gives it, read under the same lock. */
    updateNotifications(
      accountId: string,
      patch: NotificationSettingsPatch | ((current: NotificationSettings) => NotificationSettingsPatch),
    ): Promise<NotificationSettings> {
      return store.transaction(async (tx) => {
        const current = withDefaults(await tx.settings.notifications(accountId, { forUpdate: true }));
        const next = mergeNotifications(current, typeof patch === 'function' ? patch(current) : patch);
        checkChatUrls(current, next, policy);
        await tx.settings.saveNotifications(
          accountId,
          Object.fromEntries(GROUPS.map((group) => [group, next[group]])),
        );
        return next;
      });
    },

    async processorA(accountId: string): Promise<ProcessorConnection> {
      const row = await store.dataSources.connection(accountId, 'processor-a');
      return {
        connected: row !== undefined,
        account_id: row?.external_account_id ?? null,
        account_name: row?.external_account_name ?? null,
        livemode: row?.livemode ?? false,
        connected_at: row?.connected_at ?? null,
        last_sync: row?.last_sync_at ?? null,
        sync_status: row?.sync_status ?? null,
        customers_imported: row?.customers_imported ?? 0,
        invoices_imported: row?.invoices_imported ?? 0,
      };
    },

    /** No CRM connector exists yet, so every account reads as not connected. */
    crm(): CrmSettings {
      return { connected: false, provider: null, connected_at: null, last_sync: null, sync_status: null };
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
