import type { CreditNote, Customer, Invoice, ItemPrice, Subscription, Transaction } from 'chargebee';
import { describe, expect, it } from 'vitest';
import {
  eventCustomer,
  mapCustomer,
  mapInvoice,
  mapItemPrice,
  mapLine,
  mapSubscription,
  mapTransaction,
  type PeriodOf,
} from './mapping.js';

// Fixtures carry only the fields the mapping reads; the casts say so.
const JAN_1 = 1767225600; // 2026-01-01T00:00:00Z
const FEB_1 = 1769904000; // 2026-02-01T00:00:00Z
const JAN_16 = JAN_1 + 15 * 86_400;
const JAN_1_NOON = JAN_1 + 43_200;
const FEB_1_NOON = FEB_1 + 43_200;

type LineItem = NonNullable<Invoice['line_items']>[number];

const MONTHLY: PeriodOf = (id) =>
  id === 'pro-USD-monthly' || id === 'seat-USD-monthly' ? { period: 1, unit: 'month' } : undefined;

function line(fields: Partial<LineItem>): LineItem {
  return {
    id: 'li_1',
    subscription_id: 'sub_1',
    date_from: JAN_1,
    date_to: FEB_1,
    unit_amount: 10_000,
    quantity: 1,
    amount: 10_000,
    is_taxed: false,
    tax_amount: 0,
    discount_amount: 0,
    description: 'Pro USD Monthly',
    entity_type: 'plan_item_price',
    entity_id: 'pro-USD-monthly',
    ...fields,
  };
}

describe('mapLine', () => {
  it('keeps a plan line whole, naming the subscription, its end the first day after the period', () => {
    expect(mapLine(line({}), false, MONTHLY)).toEqual({
      id: 'li_1',
      type: 'subscription',
      subscription_id: 'sub_1',
      plan_id: 'pro-USD-monthly',
      description: 'Pro USD Monthly',
      amount: 10_000,
      quantity: 1,
      period_start: '2026-01-01',
      period_end: '2026-02-01',
      discount: 0,
      tax: 0,
      prorated: false,
    });
  });

  it('names an addon line by the subscription and the addon item price', () => {
    const seats = mapLine(
      line({ entity_type: 'addon_item_price', entity_id: 'seat-USD-monthly', quantity: 3, amount: 3000 }),
      false,
      MONTHLY,
    );
    expect(seats).toMatchObject({
      subscription_id: 'sub_1:seat-USD-monthly',
      plan_id: 'seat-USD-monthly',
      quantity: 3,
    });
  });

  it('takes discounts off, leaves exclusive tax out and takes tax out of tax-inclusive prices', () => {
    // 10,000 - 2,000 coupon = 8,000 net; exclusive tax 800 is on top.
    const exclusive = mapLine(line({ discount_amount: 2000, tax_amount: 800 }), false, MONTHLY);
    expect([exclusive.amount, exclusive.discount, exclusive.tax]).toEqual([8000, 2000, 800]);
    // 11,000 tax-inclusive with 1,000 of tax: 10,000 before tax.
    const inclusive = mapLine(line({ amount: 11_000, tax_amount: 1000 }), true, MONTHLY);
    expect([inclusive.amount, inclusive.discount, inclusive.tax]).toEqual([10_000, 0, 1000]);
  });

  it('marks a line shorter than its item price period as prorated, but not a zero (trial) line', () => {
    // Jan 16 to Feb 1 is 16 days of a 31-day month.
    expect(mapLine(line({ date_from: JAN_16, amount: 5000 }), false, MONTHLY)).toMatchObject({
      period_start: '2026-01-16',
      period_end: '2026-02-01',
      prorated: true,
    });
    expect(mapLine(line({ date_from: JAN_16, amount: 0 }), false, MONTHLY).prorated).toBe(false);
    // The same instant a month later, at noon, is a whole month.
    expect(mapLine(line({ date_from: JAN_1_NOON, date_to: FEB_1_NOON }), false, MONTHLY).prorated).toBe(
      false,
    );
    // An item price not known: no period to compare with, the line is taken whole.
    expect(mapLine(line({ date_from: JAN_16, entity_id: 'gone' }), false, MONTHLY).prorated).toBe(false);
  });

  it('makes a charge a one-time line on its day, with no plan', () => {
    const setup = mapLine(
      line({ entity_type: 'charge_item_price', entity_id: 'setup-USD', date_to: JAN_1, amount: 5000 }),
      false,
      MONTHLY,
    );
    expect(setup).toMatchObject({
      type: 'one_time',
      subscription_id: null,
      plan_id: null,
      amount: 5000,
      period_start: '2026-01-01',
      period_end: '2026-01-02',
    });
  });
});

describe('mapItemPrice', () => {
  const price = (fields: Partial<ItemPrice>) =>
    ({
      id: 'pro-GBP-quarterly',
      name: 'Pro GBP Quarterly',
      external_name: 'Pro',
      item_id: 'pro',
      item_type: 'plan',
      currency_code: 'GBP',
      period: 3,
      period_unit: 'month',
      ...fields,
    }) as ItemPrice;

  it('makes a plan or addon item price a plan with its period, metered items marked', () => {
    const item = { id: 'pro', name: 'Pro plan', metered: false } as never;
    expect(mapItemPrice(price({}), item)).toEqual({
      id: 'pro-GBP-quarterly',
      name: 'Pro',
      billing_freq: 'month',
      billing_freq_count: 3,
      pricing_model: 'licensed',
      product_name: 'Pro plan',
      currency: 'GBP',
    });
    const usage = mapItemPrice(price({ item_type: 'addon', period: 1 }), {
      id: 'api',
      name: 'API',
      metered: true,
    } as never);
    expect(usage?.pricing_model).toBe('metered');
  });

  it('makes no plan of a charge, which has no period', () => {
    expect(
      mapItemPrice(price({ item_type: 'charge', period: undefined, period_unit: undefined }), undefined),
    ).toBeUndefined();
  });
});

describe('mapSubscription', () => {
  const subscription = (fields: Partial<Subscription>) =>
    ({
      id: 'sub_1',
      customer_id: 'cus_1',
      currency_code: 'USD',
      status: 'active',
      started_at: JAN_1,
      due_invoices_count: 0,
      subscription_items: [
        { item_price_id: 'pro-USD-monthly', item_type: 'plan', quantity: 1 },
        { item_price_id: 'seat-USD-monthly', item_type: 'addon', quantity: 3 },
        { item_price_id: 'setup-USD', item_type: 'charge', quantity: 1 },
      ],
      ...fields,
    }) as Subscription;

  it('makes one record per plan and addon item, the plan keyed by the subscription, charges left out', () => {
    expect(
      mapSubscription(subscription({})).map((record) => [record.id, record.plan_id, record.quantity]),
    ).toEqual([
      ['sub_1', 'pro-USD-monthly', 1],
      ['sub_1:seat-USD-monthly', 'seat-USD-monthly', 3],
    ]);
  });

  it('ends an addon billed on the invoices and no longer on the subscription at the end of its last period', () => {
    const MAR_1 = FEB_1 + 28 * 86_400;
    type Line = NonNullable<Invoice['line_items']>[number];
    const billed = (fields: Partial<Line>) =>
      ({
        subscription_id: 'sub_1',
        entity_type: 'addon_item_price',
        entity_id: 'extra-USD-monthly',
        quantity: 2,
        amount: 1000,
        date_from: JAN_1,
        date_to: FEB_1,
        ...fields,
      }) as Line;
    const records = mapSubscription(subscription({}), undefined, [
      billed({}),
      billed({ date_from: FEB_1, date_to: MAR_1 }),
      // Still on the subscription, the plan's own line, another subscription's addon, a charge.
      billed({ entity_id: 'seat-USD-monthly', date_to: MAR_1 }),
      billed({ entity_type: 'plan_item_price', entity_id: 'pro-USD-monthly', date_to: MAR_1 }),
      billed({ subscription_id: 'sub_2', entity_id: 'other-USD-monthly', date_to: MAR_1 }),
      billed({ entity_type: 'charge_item_price', entity_id: 'setup-USD', date_to: MAR_1 }),
    ]);
    expect(
      records.map((record) => [record.id, record.plan_id, record.quantity, record.status, record.ended_at]),
    ).toEqual([
      ['sub_1', 'pro-USD-monthly', 1, 'active', null],
      ['sub_1:seat-USD-monthly', 'seat-USD-monthly', 3, 'active', null],
      // Last billed Feb 1 to Mar 1: the invoices carry it to Mar 1, the record ends it there.
      ['sub_1:extra-USD-monthly', 'extra-USD-monthly', 2, 'canceled', '2026-03-01T00:00:00.000Z'],
    ]);
    expect(records[2]).toMatchObject({
      customer_id: 'cus_1',
      started_at: '2026-01-01T00:00:00.000Z',
      currency: 'USD',
    });
  });

  it('schedules the end of a non-renewing subscription at cancelled_at, requested at cancel_schedule_created_at', () => {
    const [record] = mapSubscription(
      subscription({ status: 'non_renewing', cancelled_at: FEB_1, cancel_schedule_created_at: JAN_16 }),
    );
    expect(record).toMatchObject({
      status: 'active',
      cancel_at: '2026-02-01T00:00:00.000Z',
      cancel_requested_at: '2026-01-16T00:00:00.000Z',
      ended_at: null,
    });
  });

  it('ends a cancelled subscription at cancelled_at', () => {
    const [record] = mapSubscription(subscription({ status: 'cancelled', cancelled_at: FEB_1 }));
    expect(record).toMatchObject({
      status: 'canceled',
      cancel_at: null,
      ended_at: '2026-02-01T00:00:00.000Z',
    });
  });

  it('gives each record whose item changes at changes_scheduled_at that change, from the next term', () => {
    const current = subscription({
      has_scheduled_changes: true,
      changes_scheduled_at: FEB_1,
      subscription_items: [
        { item_price_id: 'pro-USD-monthly', item_type: 'plan', quantity: 1 },
        { item_price_id: 'seat-USD-monthly', item_type: 'addon', quantity: 3 },
        { item_price_id: 'calls-USD-monthly', item_type: 'addon', quantity: 1 },
        { item_price_id: 'support-USD-monthly', item_type: 'addon', quantity: 1 },
      ],
    });
    const next = subscription({
      subscription_items: [
        // Pro yearly, 2 units of 30000: 60000 a year.
        { item_price_id: 'pro-USD-yearly', item_type: 'plan', quantity: 2, unit_price: 30000, amount: 60000 },
        { item_price_id: 'calls-USD-monthly', item_type: 'addon', quantity: 2, unit_price: 0 },
        { item_price_id: 'support-USD-monthly', item_type: 'addon', quantity: 1, unit_price: 900 },
        { item_price_id: 'extra-USD-monthly', item_type: 'addon', quantity: 1, unit_price: 500 },
      ],
    });
    const periodOf: PeriodOf = (id) =>
      id === 'pro-USD-yearly' ? { period: 1, unit: 'year' } : { period: 1, unit: 'month' };
    const records = mapSubscription(current, {
      subscription: next,
      periodOf,
      metered: (id) => id === 'calls-USD-monthly',
    });
    expect(records.map((record) => [record.id, record.scheduled_changes])).toEqual([
      // The plan item becomes Pro yearly x2 on Feb 1: 60000 / 12 = 5000 a month.
      ['sub_1', [{ date: '2026-02-01', plan_id: 'pro-USD-yearly', quantity: 2, amount: 5000 }]],
      // The seats are gone from the next term: nothing from Feb 1.
      ['sub_1:seat-USD-monthly', [{ date: '2026-02-01', quantity: 0, amount: 0 }]],
      // Metered: the new quantity, the amount left to the usage invoiced.
      ['sub_1:calls-USD-monthly', [{ date: '2026-02-01', quantity: 2 }]],
      // Unchanged; the extra addon of the next term has no record before it starts.
      ['sub_1:support-USD-monthly', undefined],
    ]);
    expect(mapSubscription(current)[0]).not.toHaveProperty('scheduled_changes');
  });

  it('maps statuses: trial, dues as past due, paused ends, future ones wait', () => {
    expect(mapSubscription(subscription({ status: 'in_trial' }))[0]?.status).toBe('trialing');
    expect(mapSubscription(subscription({ due_invoices_count: 2 }))[0]?.status).toBe('past_due');
    expect(mapSubscription(subscription({ status: 'paused' }))[0]?.status).toBe('ended');
    expect(mapSubscription(subscription({ status: 'future' }))).toEqual([]);
  });
});

describe('mapTransaction, mapInvoice and mapCustomer', () => {
  const payment = {
    id: 'txn_1',
    type: 'payment',
    status: 'success',
    date: JAN_1,
    amount: 15_000,
    payment_method: 'card',
    linked_invoices: [
      { invoice_id: 'inv_1', applied_amount: 10_000 },
      { invoice_id: 'inv_2', applied_amount: 5000 },
    ],
    linked_refunds: [{ txn_id: 'txn_r', txn_status: 'success', txn_date: JAN_16, txn_amount: 2000 }],
  } as unknown as Transaction;

  it('counts what a shared payment paid of each invoice, under an id per invoice, and its refunds', () => {
    expect(mapTransaction(payment, 'inv_1')).toEqual([
      {
        id: 'txn_1:inv_1',
        date: '2026-01-01T00:00:00.000Z',
        type: 'payment',
        result: 'successful',
        amount: 10_000,
        payment_method: 'card',
      },
      {
        id: 'txn_r',
        date: '2026-01-16T00:00:00.000Z',
        type: 'refund',
        result: 'successful',
        amount: 2000,
        payment_method: 'card',
      },
    ]);
  });

  it('makes a failed attempt a failed payment of its amount; pending ones wait', () => {
    const failed = {
      ...payment,
      status: 'failure',
      linked_invoices: [{ invoice_id: 'inv_1', applied_amount: 0 }],
    };
    expect(mapTransaction(failed as Transaction, 'inv_1')).toMatchObject([
      { id: 'txn_1', result: 'failed', amount: 15_000 },
    ]);
    expect(mapTransaction({ ...payment, status: 'in_progress' }, 'inv_1')).toEqual([]);
  });

  it('maps invoice statuses and adds the credit notes against an invoice as credit lines', () => {
    const invoice = {
      id: 'inv_1',
      customer_id: 'cus_1',
      status: 'not_paid',
      price_type: 'tax_exclusive',
      date: JAN_16,
      currency_code: 'USD',
    } as Invoice;
    const note = {
      id: 'cn_1',
      status: 'adjusted',
      price_type: 'tax_exclusive',
      // A credit of 5,000 for Jan 16 to Feb 1 with 500 of exclusive tax and 300 of discount.
      line_items: [line({ date_from: JAN_16, amount: 5000, tax_amount: 500, discount_amount: 300 })],
    } as unknown as CreditNote;
    const voided = { ...note, id: 'cn_2', status: 'voided' } as CreditNote;
    const record = mapInvoice(invoice, [line({})], [note, voided], [], MONTHLY);
    expect(record).toMatchObject({
      status: 'uncollectible',
      number: 'inv_1',
      date: '2026-01-16',
      payment_date: null,
    });
    // The credit: -(5000 - 300) = -4700, its tax -500, no discount of its own.
    expect(
      record.lines.map((item) => [item.id, item.amount, item.tax, item.discount, item.prorated]),
    ).toEqual([
      ['li_1', 10_000, 0, 0, false],
      ['cn_1:li_1', -4700, -500, 0, true],
    ]);
    expect(mapInvoice({ ...invoice, status: 'payment_due' }, [], [], [], MONTHLY).status).toBe('open');
    expect(mapInvoice({ ...invoice, status: 'voided' }, [], [], [], MONTHLY).status).toBe('void');
  });

  it('names a customer by first and last name, else company, else (without email) the id', () => {
    const bare = { id: 'cus_1', created_at: JAN_1 } as Customer;
    expect(mapCustomer({ ...bare, first_name: 'Ada', last_name: 'Lovelace' }).name).toBe('Ada Lovelace');
    expect(mapCustomer({ ...bare, company: 'ACME' }).name).toBe('ACME');
    expect(mapCustomer(bare).name).toBe('cus_1');
    expect(mapCustomer({ ...bare, email: 'a@b.co' }).name).toBeNull();
  });

  it("finds an event's customer in its content", () => {
    expect(eventCustomer({ customer: { id: 'cus_1' }, subscription: { customer_id: 'cus_2' } })).toBe(
      'cus_1',
    );
    expect(eventCustomer({ transaction: { customer_id: 'cus_3' } })).toBe('cus_3');
    expect(eventCustomer({ coupon: { id: 'SPRING' } })).toBeNull();
  });
});
