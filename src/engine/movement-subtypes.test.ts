import { describe, expect, it } from 'vitest';
import { customerTimeline } from './customer-timeline.js';
import { dayNumber as d, dayString } from './days.js';
import { FxTable } from './fx-table.js';
import type { CustomerHistory, InvoiceInput, LineInput, PlanInput, SubscriptionInput } from './types.js';

const plans = new Map<string, PlanInput>(
  ['basic', 'pro'].map((id) => [
    id,
    { id, billingFreq: 'month', billingFreqCount: 1, pricingModel: 'licensed' },
  ]),
);

// EUR -> USD 1.10 from 2024-01-01, 1.20 from 2024-03-01.
const fx = FxTable.build([
  { day: '2024-01-01', currency: 'usd', perEur: 1.1 },
  { day: '2024-03-01', currency: 'usd', perEur: 1.2 },
]);

const line = (amount: number, start: string, end: string, extra: Partial<LineInput> = {}): LineInput => ({
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
});

let invoiceCount = 0;
const invoice = (date: string, lines: LineInput[], extra: Partial<InvoiceInput> = {}): InvoiceInput => ({
  id: `in_${++invoiceCount}`,
  status: 'paid',
  currency: 'usd',
  date: d(date),
  lines,
  ...extra,
});

const record = (extra: Partial<SubscriptionInput>): SubscriptionInput => ({
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
});

/** The customer's movements as [day, kind, subtype, amount]. */
function subtypes(invoices: InvoiceInput[], subscriptions: SubscriptionInput[] = []) {
  const history: CustomerHistory = { currency: 'usd', invoices, subscriptions, plans };
  return customerTimeline(history, { fx }).movements.map((movement) => [
    dayString(movement.day),
    movement.kind,
    movement.subtype,
    movement.amount,
  ]);
}

describe('movement subtypes: expansion and contraction', () => {
  it('a different plan is a plan_change', () => {
    // Basic 3100 from Jan 1; on Jan 21 a prorated credit for Basic and a prorated charge for Pro 6200
    // (both scaled back to a month): Basic's line is replaced by Pro's, MRR 3100 -> 6200.
    expect(
      subtypes([
        invoice('2024-01-01', [line(3100, '2024-01-01', '2024-02-01')]),
        invoice('2024-01-21', [
          line((-3100 * 11) / 31, '2024-01-21', '2024-02-01', { prorated: true }),
          line((6200 * 11) / 31, '2024-01-21', '2024-02-01', { planId: 'pro', prorated: true }),
        ]),
      ]).slice(0, 2),
    ).toEqual([
      ['2024-01-01', 'new', 'new', 3100],
      ['2024-01-21', 'expansion', 'plan_change', 3100],
    ]);
  });

  it('more seats on the same plan are a quantity_change; fewer, a contraction of the same subtype', () => {
    // 1 seat 4900 in January, 2 seats 9800 in February, 1 seat again in March.
    expect(
      subtypes([
        invoice('2024-01-01', [line(4900, '2024-01-01', '2024-02-01')]),
        invoice('2024-02-01', [line(9800, '2024-02-01', '2024-03-01', { quantity: 2 })]),
        invoice('2024-03-01', [line(4900, '2024-03-01', '2024-04-01')]),
      ]).slice(1, 3),
    ).toEqual([
      ['2024-02-01', 'expansion', 'quantity_change', 4900],
      ['2024-03-01', 'contraction', 'quantity_change', -4900],
    ]);
  });

  it('the same plan and seats at another amount is a price_change', () => {
    expect(
      subtypes([
        invoice('2024-01-01', [line(4900, '2024-01-01', '2024-02-01')]),
        invoice('2024-02-01', [line(5900, '2024-02-01', '2024-03-01')]),
      ])[1],
    ).toEqual(['2024-02-01', 'expansion', 'price_change', 1000]);
  });

  it('a discount taking off part of the same price is a discount_change', () => {
    // 4900 in January; February gives 20% off: 980 discount, 3920 billed.
    expect(
      subtypes([
        invoice('2024-01-01', [line(4900, '2024-01-01', '2024-02-01')]),
        invoice('2024-02-01', [line(3920, '2024-02-01', '2024-03-01', { discount: 980 })]),
      ])[1],
    ).toEqual(['2024-02-01', 'contraction', 'discount_change', -980]);
  });

  it('a subscription added beside another, and later removed, is an add_on both ways', () => {
    // sub_1 4900 a month from Jan 1 (a live record keeps it); sub_2 1000 from Feb 1, ended Mar 1.
    expect(
      subtypes(
        [
          invoice('2024-01-01', [line(4900, '2024-01-01', '2024-02-01')]),
          invoice('2024-02-01', [
            line(4900, '2024-02-01', '2024-03-01'),
            line(1000, '2024-02-01', '2024-03-01', { subscriptionId: 'sub_2', planId: 'pro' }),
          ]),
        ],
        [record({}), record({ id: 'sub_2', planId: 'pro', status: 'ended', endedAt: d('2024-03-01') })],
      ),
    ).toEqual([
      ['2024-01-01', 'new', 'new', 4900],
      ['2024-02-01', 'expansion', 'add_on', 1000],
      ['2024-03-01', 'contraction', 'add_on', -1000],
    ]);
  });

  it('the same amount billed in another currency, converted at a new rate, is fx', () => {
    // 1000 EUR a month for a USD customer: 1100 USD at January's 1.10, 1200 USD at March's 1.20.
    const eur = { currency: 'eur' };
    expect(
      subtypes([
        invoice('2024-02-01', [line(1000, '2024-02-01', '2024-03-01')], eur),
        invoice('2024-03-01', [line(1000, '2024-03-01', '2024-04-01')], eur),
      ]).slice(0, 2),
    ).toEqual([
      ['2024-02-01', 'new', 'new', 1100],
      ['2024-03-01', 'expansion', 'fx', 100],
    ]);
  });

  it('a credit alone, nothing billed differently, is other', () => {
    // 6000 from Mar 1; on Mar 11 a prorated credit of 1000 a month (scaled) to the period end.
    expect(
      subtypes([
        invoice('2024-03-01', [line(6000, '2024-03-01', '2024-04-01')]),
        invoice('2024-03-11', [line((-1000 * 21) / 31, '2024-03-11', '2024-04-01', { prorated: true })]),
      ])[1],
    ).toEqual(['2024-03-11', 'contraction', 'other', -1000]);
  });

  it('plan and seats changing together are a plan_change: plan comes first', () => {
    // Basic x1 4900 in January, Pro x3 15000 in February.
    expect(
      subtypes([
        invoice('2024-01-01', [line(4900, '2024-01-01', '2024-02-01')]),
        invoice('2024-02-01', [line(15000, '2024-02-01', '2024-03-01', { planId: 'pro', quantity: 3 })]),
      ])[1],
    ).toEqual(['2024-02-01', 'expansion', 'plan_change', 10100]);
  });

  it('seats and discount changing together are a quantity_change', () => {
    // 1 seat 4900 in January; 2 seats with 10% off in February: 9800 - 980 = 8820.
    expect(
      subtypes([
        invoice('2024-01-01', [line(4900, '2024-01-01', '2024-02-01')]),
        invoice('2024-02-01', [line(8820, '2024-02-01', '2024-03-01', { quantity: 2, discount: 980 })]),
      ])[1],
    ).toEqual(['2024-02-01', 'expansion', 'quantity_change', 3920]);
  });

  it('lines of another plan with no subscription are compared with the lines they replace', () => {
    // Invoices name no subscription: a key per plan. Basic 4900 in January, Pro 9900 from February.
    const planLine = (amount: number, start: string, end: string, planId: string) =>
      line(amount, start, end, { subscriptionId: null, planId });
    expect(
      subtypes([
        invoice('2024-01-01', [planLine(4900, '2024-01-01', '2024-02-01', 'basic')]),
        invoice('2024-02-01', [planLine(9900, '2024-02-01', '2024-03-01', 'pro')]),
      ])[1],
    ).toEqual(['2024-02-01', 'expansion', 'plan_change', 5000]);
  });

  it('a scheduled change to a new amount, the discount unknown, is a price_change', () => {
    // A record at 4900 a month (no invoices) schedules 5900 from Mar 1.
    expect(
      subtypes(
        [],
        [
          record({
            mrr: 4900,
            scheduledChanges: [{ day: d('2024-03-01'), planId: 'basic', mrr: 5900, quantity: 1 }],
          }),
        ],
      )[1],
    ).toEqual(['2024-03-01', 'expansion', 'price_change', 1000]);
  });
});

describe('movement subtypes: churn, new and reactivation', () => {
  it('a cancellation asked for is voluntary, even with an unpaid invoice', () => {
    // Cancelled on request on Jan 20, effective at the period end Feb 1; the January invoice is open.
    expect(
      subtypes(
        [invoice('2024-01-01', [line(4900, '2024-01-01', '2024-02-01')], { status: 'open' })],
        [record({ status: 'canceled', cancelRequestedAt: d('2024-01-20'), endedAt: d('2024-02-01') })],
      ),
    ).toEqual([
      ['2024-01-01', 'new', 'new', 4900],
      ['2024-02-01', 'churn', 'voluntary', -4900],
    ]);
  });

  it('an end after an unpaid invoice, without a request, is delinquent', () => {
    // January paid, February uncollectible; the record ends on Mar 1 with no cancellation request.
    expect(
      subtypes(
        [
          invoice('2024-01-01', [line(4900, '2024-01-01', '2024-02-01')]),
          invoice('2024-02-01', [line(4900, '2024-02-01', '2024-03-01')], { status: 'uncollectible' }),
        ],
        [record({ status: 'canceled', endedAt: d('2024-03-01') })],
      ).at(-1),
    ).toEqual(['2024-03-01', 'churn', 'delinquent', -4900]);
  });

  it('an end after two invoices of the same day, one unpaid, is delinquent whatever their order', () => {
    // February has a paid invoice and an uncollectible one; the record ends on Mar 1.
    const paid = invoice('2024-02-01', [line(4900, '2024-02-01', '2024-03-01')]);
    const unpaid = invoice('2024-02-01', [line(100, '2024-02-01', '2024-03-01')], {
      status: 'uncollectible',
    });
    const ended = [record({ status: 'canceled', endedAt: d('2024-03-01') })];
    // 4900 + 100 = 5000 of MRR end on Mar 1.
    expect(subtypes([paid, unpaid], ended).at(-1)).toEqual(['2024-03-01', 'churn', 'delinquent', -5000]);
    expect(subtypes([unpaid, paid], ended).at(-1)).toEqual(['2024-03-01', 'churn', 'delinquent', -5000]);
  });

  it('invoices that stop after a paid one are voluntary; a return is a reactivation', () => {
    // Paid January, nothing in February (churn after 3 grace days, Feb 4), back in March.
    expect(
      subtypes([
        invoice('2024-01-01', [line(4900, '2024-01-01', '2024-02-01')]),
        invoice('2024-03-01', [line(4900, '2024-03-01', '2024-04-01')]),
      ]).slice(0, 3),
    ).toEqual([
      ['2024-01-01', 'new', 'new', 4900],
      ['2024-02-04', 'churn', 'voluntary', -4900],
      ['2024-03-01', 'reactivation', 'reactivation', 4900],
    ]);
  });
});
