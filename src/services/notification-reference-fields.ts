import { z } from 'zod';
import { InvalidInputError } from './errors.js';
import {
  EMAIL_FREQUENCIES,
  type NotificationSettings,
  type NotificationSettingsPatch,
} from './settings-service.js';

/**
 * The hosted service's clients read and write notification settings as flat fields. They are a
 * second view of the same settings, answered beside the nested ones and accepted in a PUT, where
 * a nested field given in the same body wins over the flat one (docs/decisions.md).
 */
const REPORT_FIELDS = { daily: 'daily_report', weekly: 'weekly_report', monthly: 'monthly_report' } as const;
const EVENT_FIELDS = {
  notify_scheduled_churn: 'scheduled_churn',
  notify_failed_payment: 'failed_payment',
} as const;
const THRESHOLD_FIELDS = ['expansion_alert_threshold', 'contraction_alert_threshold'] as const;

const flag = z.boolean().nullable();
const noThreshold = z
  .null()
  .describe('Always null: alerts are on churned MRR and on MRR drops (alerts.*), not on single movements');

export const referenceFieldsSchema = z.object({
  daily_report: flag.describe('email.enabled with email.frequency daily'),
  weekly_report: flag.describe('email.enabled with email.frequency weekly'),
  monthly_report: flag.describe('email.enabled with email.frequency monthly'),
  expansion_alert_threshold: noThreshold,
  contraction_alert_threshold: noThreshold,
  notify_scheduled_churn: flag.describe('chat.events includes scheduled_churn'),
  notify_failed_payment: flag.describe('chat.events includes failed_payment'),
});

export type ReferenceFields = z.infer<typeof referenceFieldsSchema>;

/** What a PUT may send of them; a threshold other than null is refused with a reason. */
export const referenceFieldsPatchSchema = referenceFieldsSchema
  .extend({
    expansion_alert_threshold: z.number().nullable(),
    contraction_alert_threshold: z.number().nullable(),
  })
  .partial();

export type ReferenceFieldsPatch = z.infer<typeof referenceFieldsPatchSchema>;

export function referenceFields(settings: NotificationSettings): ReferenceFields {
  const { email, chat } = settings;
  const report = (frequency: (typeof EMAIL_FREQUENCIES)[number]) =>
    email.enabled && email.frequency === frequency;
  return {
    daily_report: report('daily'),
    weekly_report: report('weekly'),
    monthly_report: report('monthly'),
    expansion_alert_threshold: null,
    contraction_alert_threshold: null,
    notify_scheduled_churn: chat.events.includes('scheduled_churn'),
    notify_failed_payment: chat.events.includes('failed_payment'),
  };
}

/**
 * The nested patch the flat fields of a PUT body mean, for settings now `current`, with the
 * body's nested fields laid over it. A true report flag turns email on at that frequency; a
 * false one turns email off only when it names the frequency in effect.
 */
export function withReferenceFields(
  current: NotificationSettings,
  flat: ReferenceFieldsPatch,
  nested: NotificationSettingsPatch,
): NotificationSettingsPatch {
  const chosen = EMAIL_FREQUENCIES.filter((frequency) => flat[REPORT_FIELDS[frequency]] === true);
  if (chosen.length > 1)
    throw new InvalidInputError(
      'Email digests go out at one frequency: set at most one of daily_report, weekly_report, monthly_report to true',
    );
  const frequency = nested.email?.frequency ?? chosen[0] ?? current.email.frequency;
  const email: NotificationSettingsPatch['email'] =
    chosen.length === 1
      ? { enabled: true, frequency: chosen[0]! }
      : flat[REPORT_FIELDS[frequency]] === false
        ? { enabled: false }
        : {};
  let events = nested.chat?.events ?? current.chat.events;
  for (const [field, kind] of Object.entries(EVENT_FIELDS) as [keyof typeof EVENT_FIELDS, string][]) {
    if (nested.chat?.events !== undefined || typeof flat[field] !== 'boolean') continue;
    events = flat[field]
      ? [...new Set([...events, kind as (typeof events)[number]])]
      : events.filter((e) => e !== kind);
  }
  for (const field of THRESHOLD_FIELDS)
    if (flat[field] !== undefined && flat[field] !== null)
      throw new InvalidInputError(
        `${field} is not supported: set alerts.churn_threshold or alerts.mrr_drop_threshold`,
      );
  return {
    ...nested,
    email: { ...email, ...nested.email },
    chat: { ...nested.chat, ...(events !== current.chat.events && { events }) },
  };
}
