import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { mapCharge, mapCustomer, mapLine, mapPrice, mapSubscription } from './mapping.js';

// Fixtures carry only the fields the mapping reads; the casts say so.
const JAN_1 = 1767225600; // 2026-01-01T00:00:00Z
const FEB_1 = 1769904000; // 2026-02-01T00:00:00Z
const JAN_16 = JAN_1 + 15 * 86_400;

function line(fields: Partial<Stripe.InvoiceLineItem>): Stripe.InvoiceLineItem {
  return {
    id: 'il_1',
    amount: 10_000,
    description: 'Pro',
    discount_amounts: [],
    taxes: [],
    period: { start: JAN_1, end: FEB_1 },
    quantity: 1,
    subscription: 'sub_1',
    parent: {
      type: 'subscription_item_details',
      subscription_item_details: {
        subscription_item: 'si_1',
        proration: false,
        subscription: 'sub_1',
        invoice_item: null,
        proration_details: null,
      },
      invoice_item_details: null,
    },
    pricing: {
      type: 'price_details',
      price_details: { price: 'price_pro', product: 'prod_pro' },
      unit_amount_decimal: null,
    },
    ...fields,
  } as Stripe.InvoiceLineItem;
}

const tax = (amount: number, behavior: 'inclusive' | 'exclusive') =>
  ({ amount, tax_behavior: behavior }) as Stripe.InvoiceLineItem.Tax;

describe('mapLine', () => {
  it('keeps a subscription item line whole, its period end as the first day after it', () => {
    expect(mapLine(line({}))).toEqual({
      id: 'il_1',
      type: 'subscription',
      subscription_id: 'si_1',
      plan_id: 'price_pro',
      description: 'Pro',
      amount: 10_000,
      quantity: 1,
      period_start: '2026-01-01',
      period_end: '2026-02-01',
      discount: 0,
      tax: 0,
      prorated: false,
    });
  });

  it('takes discounts off, leaves exclusive tax out and takes inclusive tax out', () => {
    // 10,000 - 2,000 discount = 8,000 net; exclusive tax 800 is on top.
    const exclusive = mapLine(
      line({ discount_amounts: [{ amount: 2000, discount: 'di_1' }], taxes: [tax(800, 'exclusive')] }),
    );
    expect([exclusive.amount, exclusive.discount, exclusive.tax]).toEqual([8000, 2000, 800]);
    // 11,000 includes 1,000 of tax: 10,000 before tax.
    const inclusive = mapLine(line({ amount: 11_000, taxes: [tax(1000, 'inclusive')] }));
    expect([inclusive.amount, inclusive.discount, inclusive.tax]).toEqual([10_000, 0, 1000]);
  });

  it('marks prorations, credits included', () => {
    const credit = mapLine(
      line({
        amount: -5000,
        period: { start: JAN_16, end: FEB_1 },
        parent: {
          type: 'subscription_item_details',
          subscription_item_details: {
            subscription_item: 'si_1',
            proration: true,
            subscription: 'sub_1',
            invoice_item: null,
            proration_details: null,
          },
          invoice_item_details: null,
        },
      }),
    );
    expect(credit).toMatchObject({
      amount: -5000,
      prorated: true,
      period_start: '2026-01-16',
      period_end: '2026-02-01',
    });
  });

  it('makes an invoice item a one-time line on its day, with no plan', () => {
    const setup = mapLine(
      line({
        subscription: null,
        period: { start: JAN_1, end: JAN_1 },
        parent: {
          type: 'invoice_item_details',
          invoice_item_details: {
            invoice_item: 'ii_1',
            proration: false,
            subscription: null,
            proration_details: null,
          },
          subscription_item_details: null,
        },
      }),
    );
    expect(setup).toMatchObject({
      type: 'one_time',
      subscription_id: null,
      plan_id: null,
      period_start: '2026-01-01',
      period_end: '2026-01-02',
    });
  });
});

describe('mapPrice', () => {
  const price = (fields: Partial<Stripe.Price>) =>
    ({
      id: 'price_q',
      currency: 'gbp',
      nickname: null,
      product: { id: 'prod_q', name: 'Quarterly' },
      recurring: { interval: 'month', interval_count: 3, usage_type: 'licensed' },
      ...fields,
    }) as Stripe.Price;

  it('makes a recurring price a plan with its interval and count, metered ones marked', () => {
    expect(mapPrice(price({}))).toEqual({
      id: 'price_q',
      name: 'Quarterly',
      billing_freq: 'month',
      billing_freq_count: 3,
      pricing_model: 'licensed',
      product_name: 'Quarterly',
      currency: 'gbp',
    });
    const metered = price({
      recurring: { interval: 'month', interval_count: 1, usage_type: 'metered' } as Stripe.Price.Recurring,
    });
    expect(mapPrice(metered)?.pricing_model).toBe('metered');
  });

  it('makes no plan of a one-time price', () => {
    expect(mapPrice(price({ recurring: null }))).toBeUndefined();
  });
});

describe('mapSubscription', () => {
  const item = (id: string, price: string, quantity: number) =>
    ({
      id,
      price: { id: price, recurring: { interval: 'month' } },
      quantity,
      current_period_end: FEB_1,
    }) as Stripe.SubscriptionItem;
  const subscription = (fields: Partial<Stripe.Subscription>) =>
    ({
      id: 'sub_1',
      customer: 'cus_1',
      currency: 'usd',
      status: 'active',
      start_date: JAN_1,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      pause_collection: null,
      items: { data: [item('si_1', 'price_pro', 1), item('si_2', 'price_seat', 3)] },
      ...fields,
    }) as unknown as Stripe.Subscription;

  it('makes one record per item, each with its plan and quantity', () => {
    expect(
      mapSubscription(subscription({})).map((record) => [record.id, record.plan_id, record.quantity]),
    ).toEqual([
      ['si_1', 'price_pro', 1],
      ['si_2', 'price_seat', 3],
    ]);
  });

  it('schedules the end of a cancel at period end, known from canceled_at', () => {
    const [record] = mapSubscription(subscription({ cancel_at_period_end: true, canceled_at: JAN_16 }));
    expect(record).toMatchObject({
      status: 'active',
      cancel_at: '2026-02-01T00:00:00.000Z',
      cancel_requested_at: '2026-01-16T00:00:00.000Z',
    });
  });

  it('maps statuses: unpaid is past due, paused ends, incomplete is skipped', () => {
    expect(mapSubscription(subscription({ status: 'unpaid' }))[0]?.status).toBe('past_due');
    expect(mapSubscription(subscription({ status: 'paused' }))[0]?.status).toBe('ended');
    expect(
      mapSubscription(subscription({ pause_collection: { behavior: 'void', resumes_at: null } }))[0]?.status,
    ).toBe('ended');
    expect(mapSubscription(subscription({ status: 'incomplete' }))).toEqual([]);
  });
});

describe('mapCustomer and mapCharge', () => {
  it('names a customer without name or email by its description, else its id', () => {
    const bare = {
      id: 'cus_1',
      name: null,
      email: null,
      description: null,
      created: JAN_1,
    } as Stripe.Customer;
    expect(mapCustomer(bare).name).toBe('cus_1');
    expect(mapCustomer({ ...bare, description: 'ACME' }).name).toBe('ACME');
    expect(mapCustomer({ ...bare, email: 'a@b.co' }).name).toBeNull();
  });

  it('makes a failed charge a failed payment and each refund a refund; pending ones wait', () => {
    const charge = {
      id: 'ch_1',
      created: JAN_1,
      amount: 2900,
      status: 'succeeded',
      payment_method_details: { type: 'card' },
      refunds: { data: [{ id: 're_1', created: JAN_16, amount: 1000, status: 'succeeded' }] },
    } as unknown as Stripe.Charge;
    expect(mapCharge(charge)).toEqual([
      {
        id: 'ch_1',
        date: '2026-01-01T00:00:00.000Z',
        type: 'payment',
        result: 'successful',
        amount: 2900,
        payment_method: 'card',
      },
      {
        id: 're_1',
        date: '2026-01-16T00:00:00.000Z',
        type: 'refund',
        result: 'successful',
        amount: 1000,
        payment_method: 'card',
      },
    ]);
    expect(mapCharge({ ...charge, status: 'failed', refunds: null })).toMatchObject([{ result: 'failed' }]);
    expect(mapCharge({ ...charge, status: 'pending' })).toEqual([]);
  });
});
