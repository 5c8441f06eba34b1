import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { mapCharge, mapCustomer, mapInvoice, mapLine, mapPrice, mapSubscription } from './mapping.js';

// Fixtures carry only the fields the mapping reads; the casts say so.
const JAN_1 = 1767225600; // 2026-01-01T00:00:00Z
const FEB_1 = 1769904000; // 2026-02-01T00:00:00Z
const JAN_16 = JAN_1 + 15 * 86_400;
const DEC_1 = JAN_1 - 31 * 86_400; // 2025-12-01
const MAR_1 = FEB_1 + 28 * 86_400; // 2026-03-01
const APR_1 = MAR_1 + 31 * 86_400; // 2026-04-01

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

  const recurring = (interval: string, unitAmount: number, usage = 'licensed') =>
    ({
      unit_amount: unitAmount,
      recurring: { interval, interval_count: 1, usage_type: usage },
    }) as Stripe.Price;
  const PRICES = new Map([
    ['price_pro', recurring('month', 10_000)],
    ['price_seat', recurring('month', 1000)],
    ['price_pro_year', recurring('year', 96_000)],
    ['price_api', recurring('month', 0, 'metered')],
    ['price_pro_ttc', { ...recurring('month', 12_000), tax_behavior: 'inclusive' }],
    ['price_seat_pack', { ...recurring('month', 5000), transform_quantity: { divide_by: 10, round: 'up' } }],
  ]);
  const priceOf = (id: string) => PRICES.get(id);
  const phase = (start: number, end: number, items: [string, number][]) => ({
    start_date: start,
    end_date: end,
    items: items.map(([price, quantity]) => ({ price, quantity })),
  });
  const schedule = (fields: object) => ({
    id: 'sub_sched_1',
    object: 'subscription_schedule',
    status: 'active',
    end_behavior: 'release',
    current_phase: { start_date: JAN_1, end_date: FEB_1 },
    ...fields,
  });
  const records = (fields: object) => mapSubscription(subscription(fields), priceOf);

  it('makes one record per item, each with its plan and quantity', () => {
    expect(records({}).map((record) => [record.id, record.plan_id, record.quantity])).toEqual([
      ['si_1', 'price_pro', 1],
      ['si_2', 'price_seat', 3],
    ]);
  });

  it('schedules the end of a cancel at period end, known from canceled_at', () => {
    const [record] = records({ cancel_at_period_end: true, canceled_at: JAN_16 });
    expect(record).toMatchObject({
      status: 'active',
      cancel_at: '2026-02-01T00:00:00.000Z',
      cancel_requested_at: '2026-01-16T00:00:00.000Z',
    });
  });

  it('maps statuses: unpaid is past due, paused ends, incomplete is skipped', () => {
    expect(records({ status: 'unpaid' })[0]?.status).toBe('past_due');
    expect(records({ status: 'paused' })[0]?.status).toBe('ended');
    expect(records({ pause_collection: { behavior: 'void', resumes_at: null } })[0]?.status).toBe('ended');
    expect(records({ status: 'incomplete' })).toEqual([]);
  });

  it("makes the schedule's phases not started yet changes: same price first, then by position, gone is 0", () => {
    const sub = {
      schedule: schedule({
        end_behavior: 'cancel',
        phases: [
          // Started phases are the subscription as it is, whatever they held.
          phase(DEC_1, JAN_1, [['price_pro', 5]]),
          phase(JAN_1, FEB_1, [
            ['price_pro', 1],
            ['price_seat', 3],
          ]),
          // Feb: 5 seats (si_2 by its price); si_1 takes the price left over, Pro yearly.
          phase(FEB_1, MAR_1, [
            ['price_pro_year', 1],
            ['price_seat', 5],
          ]),
          // Mar: 2 of Pro yearly (si_1 by its price now); no seats, so si_2 goes to 0.
          phase(MAR_1, APR_1, [['price_pro_year', 2]]),
        ],
      }),
    };
    const [pro, seats] = records(sub);
    // si_1: 96000 a year / 12 = 8000 a month from Feb 1, twice that from Mar 1.
    expect(pro!.scheduled_changes).toEqual([
      { date: '2026-02-01', plan_id: 'price_pro_year', quantity: 1, amount: 8000 },
      { date: '2026-03-01', plan_id: 'price_pro_year', quantity: 2, amount: 16_000 },
    ]);
    // si_2: 5 x 1000 from Feb 1; dropped (quantity 0, MRR 0) from Mar 1.
    expect(seats!.scheduled_changes).toEqual([
      { date: '2026-02-01', plan_id: 'price_seat', quantity: 5, amount: 5000 },
      { date: '2026-03-01', plan_id: 'price_seat', quantity: 0, amount: 0 },
    ]);
    // end_behavior cancel: both end with the last phase; nobody said when it was asked for.
    expect(pro).toMatchObject({ cancel_at: '2026-04-01T00:00:00.000Z', cancel_requested_at: null });
    expect(seats).toMatchObject({ cancel_at: '2026-04-01T00:00:00.000Z', cancel_requested_at: null });
  });

  it('keeps unchanged items out, gives a metered price no MRR, and ignores schedules no longer active', () => {
    const phases = [
      phase(JAN_1, FEB_1, [
        ['price_pro', 1],
        ['price_seat', 3],
      ]),
      phase(FEB_1, MAR_1, [
        ['price_pro', 1],
        ['price_api', 1],
      ]),
    ];
    const [pro, seats] = records({ schedule: schedule({ phases }) });
    expect(pro!.scheduled_changes).toEqual([]);
    expect(seats!.scheduled_changes).toEqual([{ date: '2026-02-01', plan_id: 'price_api', quantity: 1 }]);
    expect(pro!.cancel_at).toBeNull();
    for (const status of ['released', 'completed', 'canceled']) {
      const ended = records({ schedule: schedule({ status, end_behavior: 'cancel', phases }) });
      expect(ended.map((record) => [record.scheduled_changes, record.cancel_at])).toEqual([
        [[], null],
        [[], null],
      ]);
    }
    // A schedule not expanded (its id) says nothing.
    expect(records({ schedule: 'sub_sched_1' }).flatMap((record) => record.scheduled_changes)).toEqual([]);
  });

  it('gives no MRR to a tax-inclusive price or a price per package of units', () => {
    const phases = [
      phase(JAN_1, FEB_1, [
        ['price_pro', 1],
        ['price_seat', 3],
      ]),
      phase(FEB_1, MAR_1, [
        ['price_pro_ttc', 1],
        ['price_seat_pack', 30],
      ]),
    ];
    const [pro, seats] = records({ schedule: schedule({ phases }) });
    // 12000 with tax included would overstate MRR; 30 seats in packs of 10 are not 30 x 5000.
    expect(pro!.scheduled_changes).toEqual([{ date: '2026-02-01', plan_id: 'price_pro_ttc', quantity: 1 }]);
    expect(seats!.scheduled_changes).toEqual([
      { date: '2026-02-01', plan_id: 'price_seat_pack', quantity: 30 },
    ]);
  });

  it('ends a deleted item, billed on the invoices and no longer listed, at the end of its last period', () => {
    const itemLine = (id: string, item: string, start: number, end: number, fields: object = {}) =>
      line({
        id,
        period: { start, end },
        quantity: 2,
        parent: {
          type: 'subscription_item_details',
          subscription_item_details: { subscription_item: item, subscription: 'sub_1', proration: false },
        },
        pricing: { price_details: { price: 'price_extra' } },
        ...fields,
      } as Partial<Stripe.InvoiceLineItem>);
    const billed = [
      itemLine('il_a', 'si_3', JAN_1, FEB_1),
      itemLine('il_b', 'si_3', FEB_1, MAR_1),
      // Deleted on Feb 16: the credit for the unused half bills no period.
      itemLine('il_c', 'si_3', JAN_16 + 31 * 86_400, MAR_1, { amount: -500 }),
      // Still listed: its record is the item's.
      itemLine('il_d', 'si_2', FEB_1, MAR_1),
      // Another subscription's item.
      line({
        id: 'il_e',
        subscription: 'sub_2',
        parent: { subscription_item_details: { subscription_item: 'si_9', subscription: 'sub_2' } },
      } as Partial<Stripe.InvoiceLineItem>),
    ];
    const mapped = mapSubscription(subscription({}), priceOf, billed);
    expect(
      mapped.map((record) => [record.id, record.plan_id, record.quantity, record.status, record.ended_at]),
    ).toEqual([
      ['si_1', 'price_pro', 1, 'active', null],
      ['si_2', 'price_seat', 3, 'active', null],
      // Last billed Feb 1 to Mar 1: the invoices carry it to Mar 1, the record ends it there.
      ['si_3', 'price_extra', 2, 'canceled', '2026-03-01T00:00:00.000Z'],
    ]);
    expect(mapped[2]).toMatchObject({
      customer_id: 'cus_1',
      started_at: '2026-01-01T00:00:00.000Z',
      currency: 'usd',
      cancel_at: null,
      scheduled_changes: [],
    });
  });
});

describe('mapInvoice with credit notes', () => {
  const invoice = {
    id: 'in_1',
    customer: 'cus_1',
    created: JAN_16,
    due_date: null,
    currency: 'usd',
    status: 'paid',
    number: 'IN-1',
    description: null,
    status_transitions: { paid_at: JAN_16 },
  } as unknown as Stripe.Invoice;
  const creditLine = (fields: object) => ({
    id: 'cnli_1',
    amount: 5000,
    description: 'Half of Pro',
    discount_amounts: [],
    taxes: [],
    quantity: 1,
    ...fields,
  });
  const note = (id: string, status: string, lines: object[]) =>
    ({
      id,
      status,
      created: JAN_16,
      effective_at: JAN_16,
      lines: { data: lines },
    }) as unknown as Stripe.CreditNote;

  it("makes a credit note's lines negative lines of the invoice, like the line they credit; voided ones left out", () => {
    const issued = note('cn_1', 'issued', [
      // Credits half of il_1: 5000 less 1000 of discount, 400 of exclusive tax.
      creditLine({
        invoice_line_item: 'il_1',
        discount_amounts: [{ amount: 1000, discount: 'di_1' }],
        taxes: [{ amount: 400, tax_behavior: 'exclusive' }],
      }),
      // A custom line: 300 with 27 of inclusive tax, one-time on the day the note takes effect.
      creditLine({
        id: 'cnli_2',
        type: 'custom_line_item',
        amount: 300,
        description: 'Goodwill',
        taxes: [{ amount: 27, tax_behavior: 'inclusive' }],
      }),
    ]);
    const voided = note('cn_2', 'void', [
      creditLine({ id: 'cnli_3', invoice_line_item: 'il_1', amount: 9999 }),
    ]);
    const record = mapInvoice(invoice, [line({})], [], [issued, voided]);
    expect(record.lines.slice(1)).toEqual([
      {
        id: 'cn_1:cnli_1',
        type: 'subscription',
        subscription_id: 'si_1',
        plan_id: 'price_pro',
        description: 'Half of Pro',
        amount: -4000, // -(5000 - 1000)
        quantity: 1,
        period_start: '2026-01-01',
        period_end: '2026-02-01',
        discount: 0,
        tax: -400,
        prorated: false,
      },
      {
        id: 'cn_1:cnli_2',
        type: 'one_time',
        subscription_id: null,
        plan_id: null,
        description: 'Goodwill',
        amount: -273, // -(300 - 27)
        quantity: 1,
        period_start: '2026-01-16',
        period_end: '2026-01-17',
        discount: 0,
        tax: -27,
        prorated: false,
      },
    ]);
    // No transaction: a credit note's refund is a refund of the charge.
    expect(record.transactions).toEqual([]);
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
