import { describe, expect, it } from 'vitest';
import type { RevenueEvent } from '../revenue-event.js';
import { alertText, eventText, slackPayload, teamsPayload } from './chat-message.js';
import { formatChange, formatMoney } from './money-text.js';

const event = (extra: Partial<RevenueEvent>): RevenueEvent => ({
  key: 'k',
  kind: 'churn',
  accountId: 'a',
  customer: { id: 'cus_1', name: 'Acme', email: 'ops@acme.test' },
  occurredAt: '2026-11-24',
  amount: -12_345,
  mrr: 0,
  currency: 'eur',
  ...extra,
});

describe('money text', () => {
  it('writes cents as the currency reads, with the sign of a change', () => {
    expect(formatMoney(123_456, 'usd')).toBe('$1,234.56');
    expect(formatMoney(-8000, 'eur')).toBe('-€80.00');
    expect(formatChange(1000, 'gbp')).toBe('+£10.00');
    expect(formatChange(-1000, 'usd')).toBe('-$10.00');
  });
});

describe('eventText', () => {
  it('names the customer, the change and the new MRR in the base currency', () => {
    expect(eventText(event({}))).toBe('Churn: Acme, -€123.45 (MRR now €0.00) on 2026-11-24');
    expect(eventText(event({ kind: 'expansion', amount: 5000, mrr: 25_000, currency: 'usd' }))).toBe(
      'Expansion: Acme, +$50.00 (MRR now $250.00) on 2026-11-24',
    );
  });

  it('gives a payment its amount without a sign, and falls back to the email, then the id', () => {
    const failed = event({
      kind: 'failed_payment',
      amount: 4900,
      mrr: 4900,
      customer: { id: 'c', name: null, email: 'x@y.test' },
    });
    expect(eventText(failed)).toBe('Payment failed: x@y.test, €49.00 (MRR now €49.00) on 2026-11-24');
    const anonymous = event({
      kind: 'new_customer',
      amount: 100,
      mrr: 100,
      customer: { id: 'c9', name: null, email: null },
    });
    expect(eventText(anonymous)).toBe('New customer: c9, +€1.00 (MRR now €1.00) on 2026-11-24');
  });
});

describe('alertText', () => {
  it('states the measure and the threshold', () => {
    expect(alertText({ kind: 'churn', date: '2026-11-24', value: 60_000, threshold: 50_000 }, 'usd')).toBe(
      'Churn alert: $600.00 of MRR churned on 2026-11-24, above the threshold of $500.00',
    );
    expect(alertText({ kind: 'mrr_drop', date: '2026-11-24', value: 6.25, threshold: 5 }, 'usd')).toBe(
      'MRR drop alert: MRR fell 6.3% on 2026-11-24, above the threshold of 5%',
    );
  });
});

describe('chat payloads', () => {
  it('gives Slack the text and a section block, with the channel when one is set', () => {
    expect(slackPayload('hi', '#rev')).toEqual({
      text: 'hi',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'hi' } }],
      channel: '#rev',
    });
    expect(slackPayload('hi', '')).not.toHaveProperty('channel');
  });

  it('gives Teams a MessageCard', () => {
    expect(teamsPayload('hi')).toEqual({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      summary: 'hi',
      text: 'hi',
    });
  });
});
