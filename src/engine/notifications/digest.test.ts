import { describe, expect, it } from 'vitest';
import { dayNumber as d, dayString } from '../days.js';
import {
  type DigestFigures,
  digestEmail,
  dueDigestPeriod,
  lastWholePeriod,
  lineEmail,
  periodStarting,
} from './digest.js';

const span = (period: { from: number; to: number }) => [dayString(period.from), dayString(period.to)];

describe('lastWholePeriod', () => {
  // 2026-11-25 is a Wednesday.
  const today = d('2026-11-25');

  it('is yesterday, last Monday to Sunday, or last month', () => {
    expect(span(lastWholePeriod('daily', today))).toEqual(['2026-11-24', '2026-11-24']);
    expect(span(lastWholePeriod('weekly', today))).toEqual(['2026-11-16', '2026-11-22']);
    expect(span(lastWholePeriod('monthly', today))).toEqual(['2026-10-01', '2026-10-31']);
  });

  it('on the first day of a period, is the period just ended', () => {
    expect(span(lastWholePeriod('weekly', d('2026-11-23')))).toEqual(['2026-11-16', '2026-11-22']);
    expect(span(lastWholePeriod('monthly', d('2026-03-01')))).toEqual(['2026-02-01', '2026-02-28']);
  });

  it('is the same period as the one starting on its first day', () => {
    expect(periodStarting('monthly', d('2026-10-01'))).toEqual(lastWholePeriod('monthly', today));
  });
});

describe('dueDigestPeriod', () => {
  const at = (day: string, hour: number) => ({ day: d(day), hour });

  it('turns to the period just ended at the hour of the day after it, not before', () => {
    expect(span(dueDigestPeriod('daily', at('2026-11-24', 7), 8))).toEqual(['2026-11-22', '2026-11-22']);
    expect(span(dueDigestPeriod('daily', at('2026-11-24', 8), 8))).toEqual(['2026-11-23', '2026-11-23']);
    expect(span(dueDigestPeriod('daily', at('2026-11-24', 23), 8))).toEqual(['2026-11-23', '2026-11-23']);
  });

  it('for a week on the Monday after it, for a month on the 1st after it', () => {
    // 2026-11-23 is a Monday.
    expect(span(dueDigestPeriod('weekly', at('2026-11-23', 7), 8))).toEqual(['2026-11-09', '2026-11-15']);
    expect(span(dueDigestPeriod('weekly', at('2026-11-23', 8), 8))).toEqual(['2026-11-16', '2026-11-22']);
    expect(span(dueDigestPeriod('weekly', at('2026-11-29', 23), 8))).toEqual(['2026-11-16', '2026-11-22']);
    expect(span(dueDigestPeriod('monthly', at('2026-12-01', 7), 8))).toEqual(['2026-10-01', '2026-10-31']);
    expect(span(dueDigestPeriod('monthly', at('2026-12-01', 8), 8))).toEqual(['2026-11-01', '2026-11-30']);
  });
});

describe('digestEmail', () => {
  const figures: DigestFigures = {
    accountName: 'Acme <Labs>',
    currency: 'usd',
    period: periodStarting('weekly', d('2026-11-16')),
    mrrStart: 100_000,
    mrrEnd: 112_550,
    movements: {
      new: { amount: 15_000, customers: 2 },
      expansion: { amount: 2_550, customers: 1 },
      contraction: { amount: 0, customers: 0 },
      churn: { amount: -5_000, customers: 1 },
      reactivation: { amount: 0, customers: 0 },
    },
    top: [{ customer: 'Big Co', kind: 'new', amount: 10_000, description: '' }],
  };
  const email = digestEmail(figures);

  it('tells the period, MRR at its start and end, movements by kind and the largest changes', () => {
    expect(email.subject).toBe('Revenue digest for Acme <Labs>: 2026-11-16 to 2026-11-22');
    expect(email.text).toBe(
      [
        'Acme <Labs>: revenue weekly digest, 2026-11-16 to 2026-11-22',
        '',
        'MRR at start: $1,000.00',
        'MRR at end: $1,125.50',
        // 112550 - 100000 = 12550.
        'Change: +$125.50',
        '',
        'Movements (amount, customers):',
        '  New: +$150.00, 2',
        '  Expansion: +$25.50, 1',
        '  Contraction: $0.00, 0',
        '  Churn: -$50.00, 1',
        '  Reactivation: $0.00, 0',
        '',
        'Largest changes:',
        '  Big Co: New +$100.00',
        '',
      ].join('\n'),
    );
  });

  it('gives the same figures as HTML, escaped', () => {
    expect(email.html).toContain('Acme &#60;Labs&#62;: revenue weekly digest');
    expect(email.html).toContain('<tr><td>MRR at end</td><td>$1,125.50</td></tr>');
    expect(email.html).toContain('<tr><td>Churn</td><td>-$50.00</td><td>1</td></tr>');
    expect(email.html).toContain('<tr><td>Big Co</td><td>New</td><td>+$100.00</td></tr>');
  });

  it('says so when no customer changed', () => {
    const quiet = digestEmail({ ...figures, top: [] });
    expect(quiet.text).toContain('No customer changed.');
    expect(quiet.html).toContain('<p>No customer changed.</p>');
  });

  it('sends a one-line message as text and as escaped HTML', () => {
    expect(lineEmail('Alert', 'a < b')).toEqual({
      subject: 'Alert',
      text: 'a < b\n',
      html: '<!doctype html><html><body style="font-family: sans-serif"><p>a &#60; b</p></body></html>',
    });
  });
});
