import { describe, expect, it } from 'vitest';
import { customerTimeline } from './customer-timeline.js';
import { dayNumber as d, dayString } from './days.js';
import { FxTable } from './fx-table.js';
import type {
  BillingFreq,
  CustomerHistory,
  InvoiceInput,
  LineInput,
  PlanInput,
  SubscriptionInput,
} from './types.js';

const plans = new Map<string, PlanInput>(
  (
    [
      ['basic', 'month', 1],
      ['pro', 'month', 1],
      ['quarterly', 'quarter', 1],
      ['annual', 'year', 1],
      ['weekly', 'week', 1],
    ] as [string, BillingFreq, number][]
  ).map(([id, billingFreq, billingFreqCount]) => [
    id,
    { id, billingFreq, billingFreqCount, pricingModel: 'licensed' },
  ]),
);

// EUR -> USD 1.10 on 2024-01-01, 1.20 from 2024-03-01; GBP 0.85 throughout.
const fx = FxTable.build([
  { day: '2024-01-01', currency: 'usd', perEur: 1.1 },
  { day: '2024-03-01', currency: 'usd', perEur: 1.2 },
  { day: '2024-01-01', currency: 'gbp', perEur: 0.85 },
]);

let invoiceCount = 0;
function line(amount: number, start: string, end: string, extra: Partial<LineInput> = {}): LineInput {
  return {
    type: 'subscription',
    subscriptionId: 'sub_1',
    planId: 'basic',
    amount,
    quantity: 1,
    discount: 0,
    periodStart: d(start),
    periodEnd: d(end),
    prorated: false,
    ...extra,
  };
}
function invoice(date: string, lines: LineInput[], extra: Partial<InvoiceInput> = {}): InvoiceInput {
  invoiceCount += 1;
  return { id: `in_${invoiceCount}`, status: 'paid', currency: 'usd', date: d(date), lines, ...extra };
}
function record(extra: Partial<SubscriptionInput>): SubscriptionInput {
  return {
    id: 'sub_1',
    planId: 'basic',
    quantity: 1,
    status: 'active',
    startedAt: d('2024-01-01'),
    cancelRequestedAt: null,
    cancelAt: null,
    endedAt: null,
    mrr: null,
    currency: null,
    scheduledChanges: [],
    ...extra,
  };
}
function timeline(invoices: InvoiceInput[], subscriptions: SubscriptionInput[] = [], currency = 'usd') {
  const history: CustomerHistory = { currency, invoices, subscriptions, plans };
  const result = customerTimeline(history, { fx });
  return {
    points: result.points.map((point) => [dayString(point.day), point.mrr]),
    movements: result.movements.map((movement) => [
      dayString(movement.day),
      movement.kind,
      movement.amount,
      ...(movement.scheduled ? ['scheduled'] : []),
    ]),
    segments: result.segments,
  };
}
const monthly = (amount: number, months: string[], extra: Partial<LineInput> = {}) =>
  months.slice(0, -1).map((start, index) => invoice(start, [line(amount, start, months[index + 1]!, extra)]));

describe('customerTimeline: plans of every interval', () => {
  it('a monthly plan renewed twice, then not renewed, churns after the grace days', () => {
    // 4900 a month from Jan 1; the last period ends Apr 1, so MRR counts until Apr 4 (3 grace days).
    const result = timeline(monthly(4900, ['2024-01-01', '2024-02-01', '2024-03-01', '2024-04-01']));
    expect(result.points).toEqual([
      ['2024-01-01', 4900],
      ['2024-04-04', 0],
    ]);
    expect(result.movements).toEqual([
      ['2024-01-01', 'new', 4900],
      ['2024-04-04', 'churn', -4900],
    ]);
  });

  it('a quarterly plan counts a third of its amount each month', () => {
    // 15000 a quarter / 3 = 5000 a month.
    const result = timeline([
      invoice('2024-01-01', [line(15000, '2024-01-01', '2024-04-01', { planId: 'quarterly' })]),
    ]);
    expect(result.points).toEqual([
      ['2024-01-01', 5000],
      ['2024-04-04', 0],
    ]);
  });

  it('a yearly plan counts a twelfth, rounded once to the cent', () => {
    // 100000 a year / 12 = 8333.33 -> 8333.
    const result = timeline([
      invoice('2024-01-01', [line(100000, '2024-01-01', '2025-01-01', { planId: 'annual' })]),
    ]);
    expect(result.points[0]).toEqual(['2024-01-01', 8333]);
  });

  it('a weekly plan counts 52/12 of its amount', () => {
    // 1000 a week x 52 / 12 = 4333.33 -> 4333; four weekly invoices back to back.
    const weeks = ['2024-01-01', '2024-01-08', '2024-01-15', '2024-01-22', '2024-01-29'];
    const result = timeline(monthly(1000, weeks, { planId: 'weekly' }));
    expect(result.points).toEqual([
      ['2024-01-01', 4333],
      ['2024-02-01', 0], // Jan 29 + 3 grace days
    ]);
  });

  it('two yearly lines that each round down sum before rounding', () => {
    // 100000 / 12 = 8333.333 twice = 16666.67 -> 16667, not 8333 + 8333 = 16666.
    const result = timeline([
      invoice('2024-01-01', [
        line(100000, '2024-01-01', '2025-01-01', { planId: 'annual' }),
        line(100000, '2024-01-01', '2025-01-01', { planId: 'annual', subscriptionId: 'sub_2' }),
      ]),
    ]);
    expect(result.points[0]).toEqual(['2024-01-01', 16667]);
  });
});

describe('customerTimeline: proration, discounts, taxes, one-time and void lines', () => {
  it('a mid-cycle upgrade with proration lines is one expansion on the day of the change', () => {
    // Basic 3100 a month, period Jan 1 .. Feb 1 (31 days). Upgrade to Pro (6200) on Jan 21:
    // credit for the 11 unused days of Basic: -3100 x 11/31 = -1100; charge for Pro: 6200 x 11/31 = 2200.
    // Scaled to the whole month: -1100 x 31/11 = -3100 and 2200 x 31/11 = 6200.
    // MRR from Jan 21: 3100 - 3100 + 6200 = 6200. Renewal on Pro from Feb 1.
    const result = timeline([
      invoice('2024-01-01', [line(3100, '2024-01-01', '2024-02-01')]),
      invoice('2024-01-21', [
        line(-1100, '2024-01-21', '2024-02-01', { prorated: true }),
        line(2200, '2024-01-21', '2024-02-01', { planId: 'pro', prorated: true }),
      ]),
      invoice('2024-02-01', [line(6200, '2024-02-01', '2024-03-01', { planId: 'pro' })]),
    ]);
    expect(result.points).toEqual([
      ['2024-01-01', 3100],
      ['2024-01-21', 6200],
      ['2024-03-04', 0],
    ]);
    expect(result.movements).toEqual([
      ['2024-01-01', 'new', 3100],
      ['2024-01-21', 'expansion', 3100],
      ['2024-03-04', 'churn', -6200],
    ]);
  });

  it('a downgrade with proration lines is a contraction', () => {
    // Pro 6000 from Mar 1 (31 days); on Mar 11 down to Basic 3000: credit -6000 x 21/31, charge 3000 x 21/31.
    // Scaled back up: -6000 + 3000 -> MRR 3000 from Mar 11.
    const result = timeline([
      invoice('2024-03-01', [line(6000, '2024-03-01', '2024-04-01', { planId: 'pro' })]),
      invoice('2024-03-11', [
        line((-6000 * 21) / 31, '2024-03-11', '2024-04-01', { planId: 'pro', prorated: true }),
        line((3000 * 21) / 31, '2024-03-11', '2024-04-01', { prorated: true }),
      ]),
    ]);
    expect(result.movements).toEqual([
      ['2024-03-01', 'new', 6000],
      ['2024-03-11', 'contraction', -3000],
      ['2024-04-04', 'churn', -3000],
    ]);
  });

  it('counts line amounts after discount, never taxes, never one-time lines', () => {
    // A 5000 plan with a 20% discount is invoiced at 4000 (tax 800 is on the invoice, not in the amount);
    // a 10000 setup fee is one-time.
    const result = timeline([
      invoice('2024-01-01', [
        line(4000, '2024-01-01', '2024-02-01'),
        { ...line(10000, '2024-01-01', '2024-02-01'), type: 'one_time' },
      ]),
    ]);
    expect(result.points[0]).toEqual(['2024-01-01', 4000]);
  });

  it('ignores void and draft invoices', () => {
    const result = timeline([
      invoice('2024-01-01', [line(4900, '2024-01-01', '2024-02-01')], { status: 'void' }),
      invoice('2024-01-01', [line(9900, '2024-01-01', '2024-02-01')], { status: 'draft' }),
      invoice('2024-01-01', [line(2500, '2024-01-01', '2024-02-01')], { status: 'open' }),
    ]);
    expect(result.points).toEqual([
      ['2024-01-01', 2500],
      ['2024-02-04', 0],
    ]);
  });
});

describe('customerTimeline: churn, grace and reactivation', () => {
  it('a late renewal inside the grace window causes no churn', () => {
    // Period ends Feb 1; the renewal period only starts Feb 3 (2 days late, grace is 3): no gap in MRR.
    const result = timeline([
      invoice('2024-01-01', [line(4900, '2024-01-01', '2024-02-01')]),
      invoice('2024-02-03', [line(4900, '2024-02-03', '2024-03-03')]),
    ]);
    expect(result.movements).toEqual([
      ['2024-01-01', 'new', 4900],
      ['2024-03-06', 'churn', -4900],
    ]);
  });

  it('a renewal after the grace window is a churn and then a reactivation', () => {
    // Period ends Feb 1, grace runs to Feb 4; the next period starts Feb 10.
    const result = timeline([
      invoice('2024-01-01', [line(4900, '2024-01-01', '2024-02-01')]),
      invoice('2024-02-10', [line(5900, '2024-02-10', '2024-03-10')]),
    ]);
    expect(result.movements).toEqual([
      ['2024-01-01', 'new', 4900],
      ['2024-02-04', 'churn', -4900],
      ['2024-02-10', 'reactivation', 5900],
      ['2024-03-13', 'churn', -5900],
    ]);
  });

  it('moving from one plan to another on the same day is no churn', () => {
    const result = timeline([
      invoice('2024-01-01', [line(3000, '2024-01-01', '2024-02-01')]),
      invoice('2024-02-01', [
        line(5000, '2024-02-01', '2024-03-01', { planId: 'pro', subscriptionId: 'sub_2' }),
      ]),
    ]);
    expect(result.movements).toEqual([
      ['2024-01-01', 'new', 3000],
      ['2024-02-01', 'expansion', 2000],
      ['2024-03-04', 'churn', -5000],
    ]);
  });
});

describe('customerTimeline: subscription records', () => {
  it('an active record keeps the subscription in MRR past its last period', () => {
    const result = timeline([invoice('2024-01-01', [line(4900, '2024-01-01', '2024-02-01')])], [record({})]);
    expect(result.points).toEqual([['2024-01-01', 4900]]);
  });

  it('a cancellation at period end ends MRR on that day, without grace', () => {
    // cancel_at Mar 1, the end of the paid period; requested Feb 10.
    const result = timeline(monthly(4900, ['2024-01-01', '2024-02-01', '2024-03-01']), [
      record({ status: 'active', cancelAt: d('2024-03-01'), cancelRequestedAt: d('2024-02-10') }),
    ]);
    expect(result.movements).toEqual([
      ['2024-01-01', 'new', 4900],
      ['2024-03-01', 'churn', -4900, 'scheduled'],
    ]);
  });

  it('an immediate cancellation ends MRR on the ended day, inside a paid period', () => {
    const result = timeline(
      [invoice('2024-01-01', [line(4900, '2024-01-01', '2024-02-01')])],
      [record({ status: 'canceled', endedAt: d('2024-01-15') })],
    );
    expect(result.movements).toEqual([
      ['2024-01-01', 'new', 4900],
      ['2024-01-15', 'churn', -4900],
    ]);
  });

  it('a scheduled change is a scheduled movement on its day', () => {
    // Basic 4900 a month; from Apr 1 a scheduled change to Pro at 9900 a month.
    const result = timeline(
      [invoice('2024-03-01', [line(4900, '2024-03-01', '2024-04-01')])],
      [record({ scheduledChanges: [{ day: d('2024-04-01'), planId: 'pro', mrr: 9900, quantity: 1 }] })],
    );
    expect(result.movements).toEqual([
      ['2024-03-01', 'new', 4900],
      ['2024-04-01', 'expansion', 5000, 'scheduled'],
    ]);
  });

  it('a record without invoice lines counts its own MRR', () => {
    // 10000 a month from Jun 1 until the scheduled end.
    const result = timeline(
      [],
      [record({ planId: 'annual', mrr: 10000, startedAt: d('2024-06-01'), cancelAt: d('2025-06-01') })],
    );
    expect(result.points).toEqual([
      ['2024-06-01', 10000],
      ['2025-06-01', 0],
    ]);
  });
});

describe('customerTimeline: currencies', () => {
  it("converts an invoice in another currency to the customer's at the invoice day's rate, once", () => {
    // A USD customer billed 10000 EUR cents on Jan 1 (1.10): 11000; on Mar 1 (1.20): 12000.
    // The Jan line keeps Jan's rate for its whole period: rates moving later are no movement.
    const result = timeline(
      [
        invoice('2024-01-01', [line(10000, '2024-01-01', '2024-03-01', { planId: null })], {
          currency: 'eur',
        }),
        invoice('2024-03-01', [line(10000, '2024-03-01', '2024-04-01')], { currency: 'eur' }),
      ],
      [],
      'usd',
    );
    // The first line has no plan and covers 60 days: nearest interval is a month (30.4 days away
    // from a quarter's 31.3), so 11000 a month.
    expect(result.points).toEqual([
      ['2024-01-01', 11000],
      ['2024-03-01', 12000],
      ['2024-04-04', 0],
    ]);
  });
});
