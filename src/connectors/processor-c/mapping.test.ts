import type { Account, Invoice, LineItem, Plan, Subscription, Transaction } from 'recurly';
import { describe, expect, it } from 'vitest';
import {
  billingFrequency,
  mapAccount,
  mapAddOn,
  mapInvoice,
  mapLine,
  mapPlan,
  mapSubscription,
  mapTransaction,
  minorUnits,
} from './mapping.js';

// Objects as the recurly package casts them: camelCase fields, Date instants, major units.
const at = (text: string) => new Date(text);
const account = (fields: Partial<Account>) =>
  ({ code: 'acme', createdAt: at('2026-01-05T10:00:00Z'), ...fields }) as Account;
const plan = (fields: Partial<Plan>) =>
  ({ id: 'p1', code: 'gold', name: 'Gold', intervalUnit: 'months', intervalLength: 1, ...fields }) as Plan;

describe('minorUnits', () => {
  it('turns major units into cents, whole yen and thousandths of a dinar', () => {
    expect(minorUnits(29.99, 'USD')).toBe(2999);
    // 0.1 + 0.2 style float noise rounds away: 19.99 x 100 = 1998.9999...
    expect(minorUnits(19.99, 'EUR')).toBe(1999);
    expect(minorUnits(-12.5, 'GBP')).toBe(-1250);
    expect(minorUnits(1500, 'JPY')).toBe(1500);
    expect(minorUnits(1.234, 'KWD')).toBe(1234);
    expect(minorUnits(null, 'USD')).toBe(0);
  });
});

describe('mapAccount', () => {
  it('keys the customer by account code and names it by company, else person, else code', () => {
    expect(
      mapAccount(
        account({
          company: 'Acme Ltd',
          firstName: 'Ada',
          email: 'ada@acme.test',
          address: { country: 'DE' },
        }),
      ),
    ).toEqual({
      id: 'acme',
      name: 'Acme Ltd',
      email: 'ada@acme.test',
      created_date: '2026-01-05T10:00:00.000Z',
      country: 'DE',
      currency: null,
    });
    expect(mapAccount(account({ firstName: 'Ada', lastName: 'Lovelace' })).name).toBe('Ada Lovelace');
    // An email alone is enough; with neither, the code stands in.
    expect(mapAccount(account({ email: 'x@y.test' })).name).toBeNull();
    expect(mapAccount(account({})).name).toBe('acme');
  });
});

describe('plans and add-ons', () => {
  it('names the largest whole unit of interval_length x interval_unit', () => {
    expect(billingFrequency('months', 1)).toEqual({ billing_freq: 'month', billing_freq_count: 1 });
    expect(billingFrequency('months', 3)).toEqual({ billing_freq: 'month', billing_freq_count: 3 });
    expect(billingFrequency('months', 12)).toEqual({ billing_freq: 'year', billing_freq_count: 1 });
    expect(billingFrequency('months', 24)).toEqual({ billing_freq: 'year', billing_freq_count: 2 });
    expect(billingFrequency('days', 14)).toEqual({ billing_freq: 'week', billing_freq_count: 2 });
    expect(billingFrequency('days', 10)).toEqual({ billing_freq: 'day', billing_freq_count: 10 });
  });

  it('keys a plan by code, with its one currency', () => {
    expect(mapPlan(plan({ intervalLength: 12, currencies: [{ currency: 'USD', unitAmount: 290 }] }))).toEqual(
      {
        id: 'gold',
        name: 'Gold',
        billing_freq: 'year',
        billing_freq_count: 1,
        pricing_model: 'licensed',
        product_name: 'Gold',
        currency: 'usd',
      },
    );
    // Priced in two currencies: the invoices carry theirs.
    expect(mapPlan(plan({ currencies: [{ currency: 'USD' }, { currency: 'EUR' }] })).currency).toBeNull();
  });

  it('gives each add-on a plan record billed like its plan, metered for usage', () => {
    const gold = plan({ intervalLength: 3 });
    expect(mapAddOn(gold, { code: 'seat', name: 'Seat', addOnType: 'fixed' })).toEqual({
      id: 'gold:seat',
      name: 'Seat',
      billing_freq: 'month',
      billing_freq_count: 3,
      pricing_model: 'licensed',
      product_name: 'Gold',
      currency: null,
    });
    expect(mapAddOn(gold, { code: 'api', addOnType: 'usage' })).toMatchObject({
      id: 'gold:api',
      name: 'api',
      pricing_model: 'metered',
    });
  });
});

describe('mapSubscription', () => {
  const base = {
    id: 'sub1',
    account: { code: 'acme' },
    plan: { code: 'gold' },
    currency: 'USD',
    quantity: 2,
    activatedAt: at('2026-01-05T10:00:00Z'),
    createdAt: at('2026-01-05T10:00:00Z'),
    currentPeriodStartedAt: at('2026-03-05T10:00:00Z'),
    currentPeriodEndsAt: at('2026-04-05T10:00:00Z'),
  };
  const sub = (fields: Partial<Subscription>) => ({ ...base, ...fields }) as Subscription;

  it('is one record for the plan and one per add-on, an expired add-on ended at expired_at', () => {
    const records = mapSubscription(
      sub({
        state: 'active',
        addOns: [
          { addOn: { code: 'seat' }, quantity: 3 },
          { addOn: { code: 'old' }, quantity: 1, expiredAt: at('2026-02-01T00:00:00Z') },
        ],
      }),
    );
    expect(records).toEqual([
      {
        id: 'sub1',
        customer_id: 'acme',
        plan_id: 'gold',
        quantity: 2,
        status: 'active',
        started_at: '2026-01-05T10:00:00.000Z',
        cancel_requested_at: null,
        cancel_at: null,
        ended_at: null,
        currency: 'usd',
      },
      expect.objectContaining({ id: 'sub1:seat', plan_id: 'gold:seat', quantity: 3, status: 'active' }),
      expect.objectContaining({
        id: 'sub1:old',
        plan_id: 'gold:old',
        quantity: 1,
        status: 'canceled',
        cancel_at: null,
        ended_at: '2026-02-01T00:00:00.000Z',
      }),
    ]);
  });

  it('ends an add-on billed on the invoices and gone from the subscription at the end of its last period', () => {
    const billed = (fields: Partial<LineItem>) =>
      ({ subscriptionId: 'sub1', planCode: 'gold', origin: 'add_on', refund: false, ...fields }) as LineItem;
    const records = mapSubscription(
      sub({ state: 'active', addOns: [{ addOn: { code: 'seat' }, quantity: 3 }] }),
      {
        billed: [
          billed({
            addOnCode: 'extra',
            quantity: 2,
            startDate: at('2026-01-05T10:00:00Z'),
            endDate: at('2026-02-05T10:00:00Z'),
          }),
          billed({
            addOnCode: 'extra',
            quantity: 2,
            startDate: at('2026-02-05T10:00:00Z'),
            endDate: at('2026-03-05T10:00:00Z'),
          }),
          // Still on the subscription: its record stays as it is.
          billed({
            addOnCode: 'seat',
            quantity: 3,
            startDate: at('2026-03-05T10:00:00Z'),
            endDate: at('2026-04-05T10:00:00Z'),
          }),
          // Another subscription's add-on, and the plan's own line.
          billed({ subscriptionId: 'sub2', addOnCode: 'other', endDate: at('2026-04-05T10:00:00Z') }),
          billed({ origin: 'plan', endDate: at('2026-04-05T10:00:00Z') }),
        ],
      },
    );
    expect(records.map((record) => [record.id, record.status, record.ended_at, record.quantity])).toEqual([
      ['sub1', 'active', null, 2],
      ['sub1:seat', 'active', null, 3],
      // Last billed Feb 5 to Mar 5: the invoices carry it to Mar 5, the record ends it there.
      ['sub1:extra', 'canceled', '2026-03-05T10:00:00.000Z', 2],
    ]);
  });

  it('gives the records a pending change alters their scheduled change at activate_at', () => {
    // Gold monthly x2 at 10.00 with 3 seats at 5.00, usage calls and support at 9.00; the change
    // at the renewal on Apr 5: Platinum yearly x2 at 240.00, seats down to 1 at 6.00, calls
    // dropped, support kept at 9.00.
    const addOns = [
      { addOn: { code: 'seat', addOnType: 'fixed' }, quantity: 3, unitAmount: 5 },
      { addOn: { code: 'calls', addOnType: 'usage' }, quantity: 1, unitAmount: 0 },
      { addOn: { code: 'support', addOnType: 'fixed' }, quantity: 1, unitAmount: 9 },
    ];
    const pending = sub({
      state: 'active',
      unitAmount: 10,
      addOns,
      pendingChange: {
        activateAt: at('2026-04-05T10:00:00Z'),
        activated: false,
        plan: { code: 'platinum' },
        quantity: 2,
        unitAmount: 240,
        addOns: [
          { addOn: { code: 'seat', addOnType: 'fixed' }, quantity: 1, unitAmount: 6 },
          { addOn: { code: 'support', addOnType: 'fixed' }, quantity: 1, unitAmount: 9 },
        ],
      },
    });
    const yearly = plan({ code: 'platinum', intervalUnit: 'months', intervalLength: 12 });
    const records = mapSubscription(pending, {
      planOf: (code) => (code === 'platinum' ? yearly : undefined),
    });
    expect(
      records.map((record) => [record.id, (record as { scheduled_changes?: unknown }).scheduled_changes]),
    ).toEqual([
      // 2 x 240.00 = 48000 cents a year: 4000 a month.
      ['sub1', [{ date: '2026-04-05', plan_id: 'platinum', quantity: 2, amount: 4000 }]],
      // 1 x 6.00 = 600 cents a year: 50 a month, on the new plan's add-on.
      ['sub1:seat', [{ date: '2026-04-05', plan_id: 'platinum:seat', quantity: 1, amount: 50 }]],
      ['sub1:calls', [{ date: '2026-04-05', quantity: 0, amount: 0 }]],
      // Same quantity and price, but billed yearly now: 900 cents a year, 75 a month.
      ['sub1:support', [{ date: '2026-04-05', plan_id: 'platinum:support', quantity: 1, amount: 75 }]],
    ]);
    // Already activated: nothing more to come.
    const done = { ...pending, pendingChange: { ...pending.pendingChange, activated: true } } as Subscription;
    expect(
      mapSubscription(done, { planOf: () => yearly }).some((record) => 'scheduled_changes' in record),
    ).toBe(false);
  });

  it('is trialing while the current period starts before the trial ends', () => {
    const trial = { trialStartedAt: at('2026-03-05T10:00:00Z'), trialEndsAt: at('2026-03-19T10:00:00Z') };
    expect(mapSubscription(sub({ state: 'active', ...trial }))[0]!.status).toBe('trialing');
    // Trial over: the current period starts at (or after) its end.
    expect(
      mapSubscription(
        sub({ state: 'active', ...trial, currentPeriodStartedAt: at('2026-03-19T10:00:00Z') }),
      )[0]!.status,
    ).toBe('active');
  });

  it('keeps a canceled subscription active until it expires, and ends an expired one', () => {
    const canceled = mapSubscription(
      sub({
        state: 'canceled',
        canceledAt: at('2026-03-10T00:00:00Z'),
        expiresAt: at('2026-04-05T10:00:00Z'),
      }),
    )[0]!;
    expect(canceled).toMatchObject({
      status: 'active',
      cancel_requested_at: '2026-03-10T00:00:00.000Z',
      cancel_at: '2026-04-05T10:00:00.000Z',
      ended_at: null,
    });
    const expired = mapSubscription(
      sub({
        state: 'expired',
        canceledAt: at('2026-03-10T00:00:00Z'),
        expiresAt: at('2026-04-05T10:00:00Z'),
      }),
    )[0]!;
    expect(expired).toMatchObject({
      status: 'canceled',
      cancel_requested_at: '2026-03-10T00:00:00.000Z',
      cancel_at: null,
      ended_at: '2026-04-05T10:00:00.000Z',
    });
  });

  it('ends a paused one and leaves out future and failed ones', () => {
    expect(mapSubscription(sub({ state: 'paused', pausedAt: at('2026-04-05T10:00:00Z') }))[0]).toMatchObject({
      status: 'ended',
      ended_at: null,
    });
    expect(mapSubscription(sub({ state: 'future' }))).toEqual([]);
    expect(mapSubscription(sub({ state: 'failed' }))).toEqual([]);
  });
});

describe('mapLine', () => {
  const line = (fields: Partial<LineItem>) =>
    ({
      id: 'li1',
      type: 'charge',
      origin: 'plan',
      currency: 'USD',
      subscriptionId: 'sub1',
      planCode: 'gold',
      quantity: 2,
      startDate: at('2026-03-05T10:00:00Z'),
      endDate: at('2026-04-05T10:00:00Z'),
      createdAt: at('2026-03-05T10:00:00Z'),
      ...fields,
    }) as LineItem;

  it('is after discount and before tax, with Recurly end instant as our first day after', () => {
    // 2 x 29.00 = 58.00, a 20 % coupon takes 11.60, 10 % tax on 46.40 is 4.64.
    expect(
      mapLine(line({ subtotal: 58, discount: 11.6, tax: 4.64, amount: 51.04, description: '2 x Gold' })),
    ).toEqual({
      id: 'li1',
      type: 'subscription',
      subscription_id: 'sub1',
      plan_id: 'gold',
      description: '2 x Gold',
      amount: 4640,
      quantity: 2,
      period_start: '2026-03-05',
      period_end: '2026-04-05',
      discount: 1160,
      tax: 464,
      prorated: false,
    });
  });

  it('takes an inclusive tax out of the subtotal', () => {
    // 55.00 including 10 % tax: 5.00 tax, 50.00 revenue.
    expect(mapLine(line({ subtotal: 55, tax: 5, taxInclusive: true, amount: 55 }))).toMatchObject({
      amount: 5000,
      tax: 500,
    });
  });

  it('names the add-on subscription record and plan for an add-on line', () => {
    expect(mapLine(line({ origin: 'add_on', addOnCode: 'seat', subtotal: 30 }))).toMatchObject({
      type: 'subscription',
      subscription_id: 'sub1:seat',
      plan_id: 'gold:seat',
      amount: 3000,
    });
  });

  it('marks a partial period prorated; a credit for unused time is negative', () => {
    const credit = mapLine(
      line({
        type: 'credit',
        origin: 'plan',
        quantity: 1,
        subtotal: -14.5,
        prorationRate: 0.5,
        startDate: at('2026-03-20T10:00:00Z'),
        endDate: at('2026-04-05T10:00:00Z'),
      }),
    );
    expect(credit).toMatchObject({ type: 'subscription', amount: -1450, prorated: true, quantity: 1 });
  });

  it('makes one-time charges and refunds one_time lines of one day', () => {
    const setup = mapLine(
      line({ origin: 'one_time', subscriptionId: null, planCode: null, subtotal: 50, endDate: null }),
    );
    expect(setup).toMatchObject({
      type: 'one_time',
      subscription_id: null,
      plan_id: null,
      amount: 5000,
      period_start: '2026-03-05',
      period_end: '2026-03-06',
    });
    expect(mapLine(line({ type: 'credit', origin: 'plan', refund: true, subtotal: -29 }))).toMatchObject({
      type: 'one_time',
      subscription_id: null,
      amount: -2900,
    });
    // A line of a refund credit invoice is never revenue, whatever it copies.
    expect(mapLine(line({ subtotal: -29 }), true).type).toBe('one_time');
  });
});

describe('mapTransaction and mapInvoice', () => {
  const tx = (fields: Partial<Transaction>) =>
    ({
      id: 't1',
      currency: 'EUR',
      amount: 49,
      createdAt: at('2026-03-05T11:00:00Z'),
      paymentMethod: { object: 'credit_card' },
      ...fields,
    }) as Transaction;

  it('keeps purchases and refunds that succeeded or failed', () => {
    expect(
      mapTransaction(tx({ type: 'purchase', status: 'success', collectedAt: at('2026-03-05T11:00:05Z') })),
    ).toEqual([
      {
        id: 't1',
        date: '2026-03-05T11:00:05.000Z',
        type: 'payment',
        result: 'successful',
        amount: 4900,
        payment_method: 'card',
      },
    ]);
    expect(mapTransaction(tx({ type: 'purchase', status: 'declined' }))[0]).toMatchObject({
      result: 'failed',
    });
    expect(mapTransaction(tx({ type: 'refund', status: 'success' }))[0]).toMatchObject({ type: 'refund' });
    expect(mapTransaction(tx({ type: 'purchase', status: 'pending' }))).toEqual([]);
    expect(mapTransaction(tx({ type: 'verify', status: 'success' }))).toEqual([]);
  });

  const invoice = (fields: Partial<Invoice>) =>
    ({
      id: 'inv1',
      type: 'charge',
      origin: 'renewal',
      account: { code: 'acme' },
      currency: 'EUR',
      number: '1001',
      createdAt: at('2026-03-05T10:00:00Z'),
      dueAt: at('2026-03-05T10:00:00Z'),
      ...fields,
    }) as Invoice;

  it('maps states and dates the payment by its first successful payment', () => {
    const mapped = mapInvoice(
      invoice({
        state: 'paid',
        transactions: [
          tx({ id: 't2', type: 'purchase', status: 'success', createdAt: at('2026-03-08T09:00:00Z') }),
          tx({ id: 't1', type: 'purchase', status: 'declined' }),
        ],
      }),
      [],
    );
    expect(mapped).toMatchObject({
      id: 'inv1',
      customer_id: 'acme',
      date: '2026-03-05',
      due_date: '2026-03-05',
      currency: 'eur',
      status: 'paid',
      number: '1001',
      payment_date: '2026-03-08',
    });
    expect(mapped.transactions.map((item) => item.id)).toEqual(['t1', 't2']);
    const status = (state: string) => mapInvoice(invoice({ state }), []).status;
    expect(['past_due', 'pending', 'processing', 'open', 'closed', 'failed', 'voided'].map(status)).toEqual([
      'open',
      'open',
      'open',
      'open',
      'paid',
      'uncollectible',
      'void',
    ]);
  });

  it('makes the lines of a refund credit invoice one-time, and keeps a proration credit recurring', () => {
    const credit = {
      id: 'c1',
      type: 'credit',
      origin: 'plan',
      currency: 'EUR',
      subscriptionId: 'sub1',
      planCode: 'gold',
      subtotal: -10,
      startDate: at('2026-03-20T00:00:00Z'),
      endDate: at('2026-04-05T00:00:00Z'),
    } as LineItem;
    expect(
      mapInvoice(invoice({ type: 'credit', origin: 'refund', state: 'closed' }), [credit]).lines[0]!.type,
    ).toBe('one_time');
    expect(
      mapInvoice(invoice({ type: 'credit', origin: 'immediate_change', state: 'closed' }), [credit]).lines[0]!
        .type,
    ).toBe('subscription');
  });
});
