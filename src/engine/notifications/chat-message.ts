import type { RevenueEvent, RevenueEventKind } from '../revenue-event.js';
import type { Alert } from './alerts.js';
import { formatChange, formatMoney } from './money-text.js';

const HEADLINES: Record<RevenueEventKind, string> = {
  new_customer: 'New customer',
  expansion: 'Expansion',
  contraction: 'Contraction',
  churn: 'Churn',
  reactivation: 'Reactivation',
  scheduled_churn: 'Cancellation scheduled',
  failed_payment: 'Payment failed',
  payment_recovered: 'Payment recovered',
};

const PAYMENT_KINDS: ReadonlySet<RevenueEventKind> = new Set(['failed_payment', 'payment_recovered']);

/** One line naming the customer, the change and the MRR it leaves, in the base currency. */
export function eventText(event: RevenueEvent): string {
  const who = event.customer.name ?? event.customer.email ?? event.customer.id;
  // A payment's amount is what was asked or paid; a movement's is a change of MRR.
  const amount = PAYMENT_KINDS.has(event.kind)
    ? formatMoney(event.amount, event.currency)
    : formatChange(event.amount, event.currency);
  return `${HEADLINES[event.kind]}: ${who}, ${amount} (MRR now ${formatMoney(event.mrr, event.currency)}) on ${event.occurredAt}`;
}

export const ALERT_TITLES: Record<Alert['kind'], string> = {
  churn: 'Churn alert',
  mrr_drop: 'MRR drop alert',
};

export function alertText(alert: Alert, currency: string): string {
  if (alert.kind === 'churn')
    return `${ALERT_TITLES.churn}: ${formatMoney(alert.value, currency)} of MRR churned on ${alert.date}, above the threshold of ${formatMoney(alert.threshold, currency)}`;
  return `${ALERT_TITLES.mrr_drop}: MRR fell ${alert.value.toFixed(1)}% on ${alert.date}, above the threshold of ${alert.threshold}%`;
}

/** A Slack incoming-webhook body: the text, and the same as a section block. */
export function slackPayload(text: string, channel: string): Record<string, unknown> {
  return {
    text,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
    // Legacy Slack webhooks honour a channel override; newer ones ignore it.
    ...(channel === '' ? {} : { channel }),
  };
}

/** A Microsoft Teams incoming-webhook body: a MessageCard, which every Teams connector accepts. */
export function teamsPayload(text: string): Record<string, unknown> {
  return {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: text,
    text,
  };
}
