import { z } from 'zod';
import type { Store } from '../store/open-store.js';

export const EMAIL_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export const CHAT_EVENTS = ['new_customer', 'churn', 'expansion', 'contraction', 'reactivation'] as const;

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
  chat: { enabled: false, channel: '', events: [] },
  alerts: { churn_threshold: 0, mrr_drop_threshold: 0 },
};

const GROUPS = ['email', 'chat', 'alerts'] as const;

/** Group by group, fields given win; arrays are replaced, not appended to. */
export function mergeNotifications(
  base: NotificationSettings,
  patch: NotificationSettingsPatch,
): NotificationSettings {
  return {
    email: { ...base.email, ...patch.email },
    chat: { ...base.chat, ...patch.chat },
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

export function createSettingsService(store: Store) {
  return {
    async notifications(accountId: string): Promise<NotificationSettings> {
      return withDefaults(await store.settings.notifications(accountId));
    },

    updateNotifications(accountId: string, patch: NotificationSettingsPatch): Promise<NotificationSettings> {
      return store.transaction(async (tx) => {
        const current = withDefaults(await tx.settings.notifications(accountId, { forUpdate: true }));
        const next = mergeNotifications(current, patch);
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
