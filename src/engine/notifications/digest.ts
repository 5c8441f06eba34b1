import { dayString } from '../days.js';
import { nextPeriodStart, periodStart } from '../periods.js';
import type { WallClock } from '../time-zone.js';
import type { MovementKind } from '../types.js';
import { MOVEMENT_KINDS } from '../vocabulary.js';
import { formatChange, formatMoney } from './money-text.js';

export type DigestFrequency = 'daily' | 'weekly' | 'monthly';

const INTERVALS = { daily: 'day', weekly: 'week', monthly: 'month' } as const;

export interface DigestPeriod {
  frequency: DigestFrequency;
  /** First and last day, inclusive. */
  from: number;
  to: number;
}

/** The last whole period before `today`: yesterday, last week (Monday to Sunday) or last month. */
export function lastWholePeriod(frequency: DigestFrequency, today: number): DigestPeriod {
  const interval = INTERVALS[frequency];
  return periodStarting(frequency, periodStart(periodStart(today, interval) - 1, interval));
}

/**
 * The period whose digest is due at a wall clock (the account's): the last whole one before the
 * clock's day once the clock has reached `hour`, else the last whole one before the day before.
 * A period's digest is thus due from `hour` on the day after it ends, and stays the one due until
 * the next period's turn, so a sweep missed at `hour` still finds it.
 */
export function dueDigestPeriod(frequency: DigestFrequency, local: WallClock, hour: number): DigestPeriod {
  return lastWholePeriod(frequency, local.hour >= hour ? local.day : local.day - 1);
}

/** The period of `frequency` that starts on `from`. */
export function periodStarting(frequency: DigestFrequency, from: number): DigestPeriod {
  return { frequency, from, to: nextPeriodStart(from, INTERVALS[frequency]) - 1 };
}

/** The period as people read it: one day, or its first and last day. */
export function periodLabel(period: DigestPeriod): string {
  return period.from === period.to
    ? dayString(period.from)
    : `${dayString(period.from)} to ${dayString(period.to)}`;
}

/** What a digest tells, in cents of `currency`: figures of the MRR report and the movement table. */
export interface DigestFigures {
  accountName: string;
  currency: string;
  period: DigestPeriod;
  mrrStart: number;
  mrrEnd: number;
  movements: Record<MovementKind, { amount: number; customers: number }>;
  /** The largest changes of the period, largest first. */
  top: readonly { customer: string; kind: MovementKind; amount: number; description: string }[];
}

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

const KIND_NAMES: Record<MovementKind, string> = {
  new: 'New',
  expansion: 'Expansion',
  contraction: 'Contraction',
  churn: 'Churn',
  reactivation: 'Reactivation',
};

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A one-line message (an alert) as an email. */
export function lineEmail(subject: string, line: string): EmailContent {
  return {
    subject,
    text: `${line}\n`,
    html: `<!doctype html><html><body style="font-family: sans-serif"><p>${escapeHtml(line)}</p></body></html>`,
  };
}

export function digestEmail(figures: DigestFigures): EmailContent {
  const money = (cents: number) => formatMoney(cents, figures.currency);
  const change = (cents: number) => formatChange(cents, figures.currency);
  const label = periodLabel(figures.period);
  const summary: [string, string][] = [
    ['MRR at start', money(figures.mrrStart)],
    ['MRR at end', money(figures.mrrEnd)],
    ['Change', change(figures.mrrEnd - figures.mrrStart)],
  ];
  const kinds: [string, string, string][] = MOVEMENT_KINDS.map((kind) => [
    KIND_NAMES[kind],
    change(figures.movements[kind].amount),
    String(figures.movements[kind].customers),
  ]);
  const top: [string, string, string][] = figures.top.map((item) => [
    item.customer,
    KIND_NAMES[item.kind],
    change(item.amount),
  ]);

  const text = [
    `${figures.accountName}: revenue ${figures.period.frequency} digest, ${label}`,
    '',
    ...summary.map(([name, value]) => `${name}: ${value}`),
    '',
    'Movements (amount, customers):',
    ...kinds.map(([name, amount, count]) => `  ${name}: ${amount}, ${count}`),
    '',
    top.length === 0 ? 'No customer changed.' : 'Largest changes:',
    ...top.map(([customer, kind, amount]) => `  ${customer}: ${kind} ${amount}`),
    '',
  ].join('\n');

  const row = (cells: readonly string[], tag = 'td') =>
    `<tr>${cells.map((cell) => `<${tag}>${escapeHtml(cell)}</${tag}>`).join('')}</tr>`;
  const table = (head: readonly string[], rows: readonly (readonly string[])[]) =>
    `<table border="1" cellpadding="4" cellspacing="0">${row(head, 'th')}${rows.map((cells) => row(cells)).join('')}</table>`;
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif">',
    `<h2>${escapeHtml(figures.accountName)}: revenue ${figures.period.frequency} digest</h2>`,
    `<p>${escapeHtml(label)}</p>`,
    table(['', figures.currency.toUpperCase()], summary),
    '<h3>Movements</h3>',
    table(['Kind', 'Amount', 'Customers'], kinds),
    '<h3>Largest changes</h3>',
    top.length === 0 ? '<p>No customer changed.</p>' : table(['Customer', 'Kind', 'Amount'], top),
    '</body></html>',
  ].join('\n');

  return { subject: `Revenue digest for ${figures.accountName}: ${label}`, text, html };
}
