import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../services/index.js';
import {
  referenceFields,
  referenceFieldsPatchSchema,
  referenceFieldsSchema,
  withReferenceFields,
} from '../services/notification-reference-fields.js';
import {
  CHAT_EVENTS,
  maskedNotifications,
  maskUrl,
  notificationSettingsPatchSchema,
  notificationSettingsSchema,
  type NotificationSettings,
} from '../services/settings-service.js';
import { authOf, requireAdmin } from './auth.js';
import { accountProfileSchema, adminErrors, errorSchema, isoInstant } from './schemas.js';

const syncStatus = z.enum(['syncing', 'complete', 'error']).nullable();

const notificationsAnswerSchema = notificationSettingsSchema.extend(referenceFieldsSchema.shape);

/** The settings as answered: chat URLs masked, the flat fields of the same settings beside them. */
const notificationsAnswer = (settings: NotificationSettings) => ({
  ...maskedNotifications(settings),
  ...referenceFields(settings),
});

const processorSchema = z.object({
  connected: z.boolean(),
  account_id: z.string().nullable().describe('Account id at the billing system; null until connected'),
  account_name: z.string().nullable(),
  livemode: z.boolean(),
  connected_at: isoInstant.nullable(),
  last_sync: isoInstant.nullable(),
  sync_status: syncStatus,
  customers_imported: z.number().int(),
  invoices_imported: z.number().int(),
});

const crmSchema = z.object({
  connected: z.boolean(),
  provider: z.string().nullable(),
  connected_at: isoInstant.nullable(),
  last_sync: isoInstant.nullable(),
  sync_status: syncStatus,
});

const CHAT_SYSTEMS = [
  { name: 'slack', title: 'a Slack channel' },
  { name: 'teams', title: 'a Microsoft Teams channel' },
] as const;

const chatSystemSchema = z.object({
  enabled: z.boolean().describe('Chat posting is on and this system has a webhook URL'),
  webhook_url: z.string().nullable().describe('Masked: its origin and last four characters'),
  channel: z.string(),
  events: z.array(z.enum(CHAT_EVENTS)),
});

export function settingsRoutes(services: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireAdmin);
    const tags = ['Settings'];

    const allSettings = z.object({
      account: accountProfileSchema,
      notifications: notificationsAnswerSchema,
      'processor-a': processorSchema,
      crm: crmSchema,
    });
    const readAll = async (accountId: string) => ({
      account: await services.accounts.profile(accountId),
      notifications: notificationsAnswer(await services.settings.notifications(accountId)),
      'processor-a': await services.settings.processorA(accountId),
      crm: services.settings.crm(),
    });

    app.get(
      '/settings',
      {
        schema: {
          tags,
          summary: 'Every setting at once: the account, notifications and integrations',
          response: { 200: allSettings, ...adminErrors },
        },
      },
      (request) => readAll(authOf(request).accountId),
    );

    app.post(
      '/settings',
      {
        schema: {
          tags,
          summary: "Change the account's settings (its base currency); answers every setting",
          body: z.strictObject({
            base_currency: z
              .string()
              .trim()
              .min(1)
              .max(10)
              .optional()
              .describe('ISO 4217 code with exchange rates; every report converts to it by default'),
          }),
          response: { 200: allSettings, 400: errorSchema, ...adminErrors },
        },
      },
      async (request) => {
        const { accountId } = authOf(request);
        if (request.body.base_currency !== undefined)
          await services.accounts.setBaseCurrency(accountId, request.body.base_currency);
        return readAll(accountId);
      },
    );

    app.get(
      '/settings/looker-studio',
      {
        schema: {
          tags,
          summary: "Looker Studio's connector: not available; the CSV exports serve the same data",
          response: {
            200: z.object({ connected: z.literal(false), available: z.literal(false), message: z.string() }),
            ...adminErrors,
          },
        },
      },
      () => ({
        connected: false as const,
        available: false as const,
        message:
          "Looker Studio's community connector reaches only the hosted service; point a Looker Studio CSV or JSON data source at /exports/*.csv or /reports/* instead",
      }),
    );

    app.get(
      '/settings/notifications',
      {
        schema: {
          tags,
          summary: 'Notification settings, nested, with the same as flat fields beside them',
          response: { 200: notificationsAnswerSchema, ...adminErrors },
        },
      },
      async (request) =>
        notificationsAnswer(await services.settings.notifications(authOf(request).accountId)),
    );

    app.put(
      '/settings/notifications',
      {
        schema: {
          tags,
          summary: 'Change some notification settings; the rest stay as they are',
          body: notificationSettingsPatchSchema.extend(referenceFieldsPatchSchema.shape),
          response: { 200: notificationsAnswerSchema, 400: errorSchema, ...adminErrors },
        },
      },
      async (request) => {
        const { email, chat, alerts, ...flat } = request.body;
        const nested = { ...(email && { email }), ...(chat && { chat }), ...(alerts && { alerts }) };
        return notificationsAnswer(
          await services.settings.updateNotifications(authOf(request).accountId, (current) =>
            withReferenceFields(current, flat, nested),
          ),
        );
      },
    );

    // The hosted service's clients read and set each chat system on its own path.
    for (const system of CHAT_SYSTEMS) {
      const field = `${system.name}_webhook_url` as const;
      const answer = (settings: NotificationSettings) => ({
        enabled: settings.chat.enabled && settings.chat[field] !== '',
        webhook_url: settings.chat[field] === '' ? null : maskUrl(settings.chat[field]),
        channel: settings.chat.channel,
        events: settings.chat.events,
      });
      app.get(
        `/settings/${system.name}`,
        {
          schema: {
            tags,
            summary: `Posting revenue events to ${system.title}`,
            response: { 200: chatSystemSchema, ...adminErrors },
          },
        },
        async (request) => answer(await services.settings.notifications(authOf(request).accountId)),
      );
      app.post(
        `/settings/${system.name}`,
        {
          schema: {
            tags,
            summary: `Change the posting of revenue events to ${system.title}; answers the result`,
            body: z.strictObject({
              enabled: z.boolean().optional().describe('Turns chat posting on or off (every chat system)'),
              webhook_url: notificationSettingsSchema.shape.chat.shape[field].optional(),
              channel: notificationSettingsSchema.shape.chat.shape.channel.optional(),
              events: notificationSettingsSchema.shape.chat.shape.events.optional(),
            }),
            response: { 200: chatSystemSchema, 400: errorSchema, ...adminErrors },
          },
        },
        async (request) => {
          const { webhook_url, ...rest } = request.body;
          const chat = { ...rest, ...(webhook_url === undefined ? {} : { [field]: webhook_url }) };
          return answer(await services.settings.updateNotifications(authOf(request).accountId, { chat }));
        },
      );
    }

    // The hosted service's clients read the same objects under the systems' own names.
    for (const [path, summary] of [
      ['/settings/processor-a', 'Connection to billing system processor-a'],
      ['/settings/stripe', 'The same as /settings/processor-a, under the name its clients use'],
    ] as const)
      app.get(
        path,
        { schema: { tags, summary, response: { 200: processorSchema, ...adminErrors } } },
        (request) => services.settings.processorA(authOf(request).accountId),
      );

    for (const [path, summary] of [
      ['/settings/crm', 'CRM integration settings'],
      ['/settings/hubspot', 'The same as /settings/crm, under the name its clients use'],
    ] as const)
      app.get(path, { schema: { tags, summary, response: { 200: crmSchema, ...adminErrors } } }, () =>
        services.settings.crm(),
      );
  };
}
