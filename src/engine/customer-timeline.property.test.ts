import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { customerTimeline } from './customer-timeline.js';
import { dayNumber } from './days.js';
import { FxTable } from './fx-table.js';
import type { BillingFreq, CustomerHistory, InvoiceInput, PlanInput, SubscriptionInput } from './types.js';

const START = dayNumber('2023-01-01');
const fx = FxTable.build([
  { day: '2023-01-02', currency: 'usd', perEur: 1.07 },
  { day: '2023-06-01', currency: 'usd', perEur: 1.09 },
  { day: '2024-02-01', currency: 'usd', perEur: 1.12 },
]);
const plans = new Map<string, PlanInput>(
  (['day', 'week', 'month', 'quarter', 'year'] as BillingFreq[]).flatMap((freq) =>
    [1, 2].map((count) => [
      `${freq}-${count}`,
      { id: `${freq}-${count}`, billingFreq: freq, billingFreqCount: count, pricingModel: 'licensed' },
    ]),
  ),
);

const lineArb = fc.record({
  type: fc.constantFrom('subscription' as const, 'subscription' as const, 'one_time' as const),
  subscriptionId: fc.constantFrom(null, 's1', 's2', 's3'),
  planId: fc.constantFrom(null, ...plans.keys()),
  amount: fc.integer({ min: -50_000, max: 500_000 }),
  start: fc.integer({ min: 0, max: 700 }),
  length: fc.integer({ min: 1, max: 400 }),
  prorated: fc.boolean(),
});
const invoiceArb = fc.record({
  status: fc.constantFrom(
    'paid' as const,
    'open' as const,
    'void' as const,
    'draft' as const,
    'uncollectible' as const,
  ),
  currency: fc.constantFrom('usd', 'eur'),
  date: fc.integer({ min: 0, max: 700 }),
  lines: fc.array(lineArb, { minLength: 1, maxLength: 4 }),
});
const recordArb = fc.record({
  id: fc.constantFrom('s1', 's2', 's3'),
  status: fc.constantFrom('active' as const, 'canceled' as const, 'past_due' as const),
  started: fc.integer({ min: 0, max: 700 }),
  cancelAt: fc.option(fc.integer({ min: 0, max: 900 })),
  endedAt: fc.option(fc.integer({ min: 0, max: 900 })),
  amount: fc.option(fc.integer({ min: 0, max: 100_000 })),
  changeAt: fc.option(fc.integer({ min: 0, max: 900 })),
});

const historyArb = fc
  .record({
    currency: fc.constantFrom('usd', 'eur'),
    invoices: fc.array(invoiceArb, { maxLength: 8 }),
    records: fc.uniqueArray(recordArb, { selector: (record) => record.id, maxLength: 2 }),
  })
  .map(({ currency, invoices, records }): CustomerHistory => ({
    currency,
    plans,
    invoices: invoices.map((invoice, index): InvoiceInput => ({
      id: `in_${index}`,
      status: invoice.status,
      currency: invoice.currency,
      date: START + invoice.date,
      lines: invoice.lines.map((line) => ({
        type: line.type,
        subscriptionId: line.subscriptionId,
        planId: line.planId,
        amount: line.amount,
        quantity: 1,
        discount: 0,
        periodStart: START + line.start,
        periodEnd: START + line.start + line.length,
        prorated: line.prorated,
      })),
    })),
    subscriptions: records.map((record): SubscriptionInput => ({
      id: record.id,
      planId: 'month-1',
      quantity: 1,
      status: record.status,
      startedAt: START + record.started,
      cancelRequestedAt: null,
      cancelAt: record.cancelAt === null ? null : START + record.cancelAt,
      endedAt: record.endedAt === null ? null : START + record.endedAt,
      mrr: record.amount,
      currency: null,
      scheduledChanges:
        record.changeAt === null
          ? []
          : [{ day: START + record.changeAt, planId: 'year-1', mrr: 5_000, quantity: 1 }],
    })),
  }));

function mrrOn(points: { day: number; mrr: number }[], day: number): number {
  let mrr = 0;
  for (const point of points) if (point.day <= day) mrr = point.mrr;
  return mrr;
}

describe('customerTimeline properties', () => {
  it('satisfies the MRR bridge over every period: MRR(end) = MRR(start) + movements between', () => {
    fc.assert(
      fc.property(
        historyArb,
        fc.integer({ min: -10, max: 1000 }),
        fc.integer({ min: 0, max: 400 }),
        (history, from, span) => {
          const { points, movements } = customerTimeline(history, { fx });
          const start = START + from;
          const end = start + span;
          const moved = movements
            .filter((movement) => movement.day > start && movement.day <= end)
            .reduce((sum, movement) => sum + movement.amount, 0);
          expect(mrrOn(points, end)).toBe(mrrOn(points, start) + moved);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps MRR whole, never negative, and never records a 0 to 0 change', () => {
    fc.assert(
      fc.property(historyArb, (history) => {
        const { points, movements } = customerTimeline(history, { fx });
        let previous = 0;
        for (const point of points) {
          expect(Number.isInteger(point.mrr)).toBe(true);
          expect(point.mrr).toBeGreaterThanOrEqual(0);
          expect(point.mrr).not.toBe(previous);
          previous = point.mrr;
        }
        for (const movement of movements) {
          expect(movement.amount).not.toBe(0);
          if (movement.kind === 'churn') expect(mrrOn(points, movement.day)).toBe(0);
          if (movement.kind === 'new' || movement.kind === 'reactivation')
            expect(movement.amount).toBeGreaterThan(0);
        }
        expect(movements.filter((movement) => movement.kind === 'new').length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it('does not depend on the order of invoices, lines or records', () => {
    fc.assert(
      fc.property(historyArb, fc.integer(), (history, seed) => {
        const shuffle = <T>(items: readonly T[]): T[] => {
          const copy = [...items];
          let state = seed;
          for (let i = copy.length - 1; i > 0; i--) {
            state = (state * 1103515245 + 12345) & 0x7fffffff;
            const j = state % (i + 1);
            [copy[i], copy[j]] = [copy[j]!, copy[i]!];
          }
          return copy;
        };
        const shuffled: CustomerHistory = {
          ...history,
          invoices: shuffle(history.invoices).map((invoice) => ({
            ...invoice,
            lines: shuffle(invoice.lines),
          })),
          subscriptions: shuffle(history.subscriptions),
        };
        const a = customerTimeline(history, { fx });
        const b = customerTimeline(shuffled, { fx });
        expect(b.points).toEqual(a.points);
        expect(b.movements).toEqual(a.movements);
      }),
      { numRuns: 200 },
    );
  });
});
