import type { StripeData, WireObject } from '../fakes/stripe-server.js';

// One generated billing history, written two ways: as Stripe serves it (for the fake) and as
// the same records posted through /data/*. An import of the first must report what the second does.

const DAY = 86_400;

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const seconds = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
const dayOf = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);
const iso = (s: number) => new Date(s * 1000).toISOString();

/** The same day `months` later (clamped to the month's end). */
function addMonths(s: number, months: number): number {
  const date = new Date(s * 1000);
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), last));
  return target.getTime() / 1000;
}

export interface Plan {
  id: string;
  name: string;
  currency: string;
  interval: 'month' | 'year';
  count: number;
  amount: number;
  metered?: boolean;
}

const PLANS: Plan[] = [
  { id: 'price_basic', name: 'Basic', currency: 'usd', interval: 'month', count: 1, amount: 2900 },
  { id: 'price_team', name: 'Team', currency: 'eur', interval: 'month', count: 1, amount: 4900 },
  { id: 'price_pro_year', name: 'Pro yearly', currency: 'usd', interval: 'year', count: 1, amount: 29000 },
  { id: 'price_quarter', name: 'Quarterly', currency: 'gbp', interval: 'month', count: 3, amount: 12000 },
  { id: 'price_seat', name: 'Extra seat', currency: 'usd', interval: 'month', count: 1, amount: 1000 },
  {
    id: 'price_api',
    name: 'API calls',
    currency: 'usd',
    interval: 'month',
    count: 1,
    amount: 0,
    metered: true,
  },
];
const ONE_TIME_PRICE = { id: 'price_setup', name: 'Setup fee', currency: 'usd', amount: 5000 };
const plan = (id: string) => PLANS.find((p) => p.id === id)!;

export interface Line {
  id: string;
  itemId: string | null;
  planId: string | null;
  /** Before discount; includes the tax when `inclusive`. */
  gross: number;
  discount: number;
  tax: number;
  inclusive: boolean;
  quantity: number;
  start: number;
  end: number;
  proration: boolean;
  description: string;
}

export interface Charge {
  id: string;
  created: number;
  amount: number;
  ok: boolean;
  refund: number;
}

/** A line of a credit note: part of an invoice line (`credits`), or a custom one-time credit. */
export interface CreditLine {
  id: string;
  credits: Line | null;
  /** Before discount; includes the tax when `inclusive`. */
  gross: number;
  discount: number;
  tax: number;
  inclusive: boolean;
  description: string;
}

export interface CreditNote {
  id: string;
  created: number;
  voided: boolean;
  lines: CreditLine[];
  /** The refund of the invoice's charge that paid the credit back. */
  refundId: string;
}

export interface Invoice {
  id: string;
  created: number;
  status: 'paid' | 'open' | 'void';
  currency: string;
  lines: Line[];
  charges: Charge[];
  /** Only in an account given them by withSchedulesAndCreditNotes. */
  creditNotes?: CreditNote[];
}

/** A scheduled change of one subscription item, as /data/subscriptions takes it. */
export interface ItemChange {
  date: string;
  plan_id: string;
  quantity: number;
  amount: number;
}

/**
 * A subscription schedule: its current phase is the subscription as it is, up to the items'
 * period end; the next phase runs from there to `nextEnd` with `next` as its items.
 */
export interface Schedule {
  id: string;
  endBehavior: 'release' | 'cancel';
  currentStart: number;
  nextStart: number;
  nextEnd: number;
  next: { planId: string; quantity: number }[];
  /** What the next phase is for each item id, as the /data twin says it. */
  changes: Record<string, ItemChange>;
}

/**
 * A change the billing system holds for the end of the current term (Chargebee's scheduled
 * changes, Recurly's pending change; Stripe's form leaves it out): from `at` on, the first item
 * is `planId` x `quantity`, and the `removed` items are gone.
 */
export interface TermEndChange {
  at: number;
  planId: string;
  quantity: number;
  removed: string[];
}

export interface Customer {
  id: string;
  name: string;
  email: string;
  country: string;
  currency: string;
  created: number;
  /** Deleted at Stripe: not listed, but its invoices and subscription still name it. */
  deleted: boolean;
  subscription: {
    id: string;
    /** `endedAt`: an extra item removed then, billed no more after it (Recurly's form only). */
    items: { id: string; planId: string; quantity: number; periodEnd: number; endedAt?: number }[];
    status: 'active' | 'trialing' | 'past_due' | 'canceled';
    start: number;
    trialEnd: number | null;
    cancelAtPeriodEnd: boolean;
    canceledAt: number | null;
    endedAt: number | null;
    paused: boolean;
    /** Only in an account given them by withSchedulesAndCreditNotes. */
    schedule?: Schedule;
    /** Only in an account given them by withTermEndChanges. */
    termEndChange?: TermEndChange;
  };
  invoices: Invoice[];
}

const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'NL'];

/** A seeded account of `count` customers billed up to `today`. */
export function generateAccount(count: number, today: string, seed = 15): Customer[] {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const chance = (p: number) => random() < p;
  const now = seconds(today);
  const first = seconds('2025-11-01');
  const customers: Customer[] = [];
  let serial = 0;
  const next = (prefix: string) => `${prefix}_${(++serial).toString(36).padStart(6, '0')}`;

  for (let i = 0; i < count; i++) {
    const main = plan(pick(['price_basic', 'price_basic', 'price_team', 'price_pro_year', 'price_quarter']));
    const created = first + Math.floor((random() * (now - 20 * DAY - first)) / DAY) * DAY;
    const trialEnd = chance(0.2) ? created + 14 * DAY : null;
    const items = [{ id: next('si'), planId: main.id, quantity: chance(0.15) ? 2 : 1, periodEnd: 0 }];
    if (main.currency === 'usd' && main.interval === 'month') {
      if (chance(0.2)) items.push({ id: next('si'), planId: 'price_seat', quantity: 3, periodEnd: 0 });
      if (chance(0.2)) items.push({ id: next('si'), planId: 'price_api', quantity: 1, periodEnd: 0 });
    }
    const discountRate = chance(0.15) ? 0.2 : 0;
    const tax = pick(['none', 'none', 'exclusive', 'inclusive'] as const);
    const churnAfter = chance(0.25) ? 1 + Math.floor(random() * 4) : null;
    const scheduledCancel = churnAfter === null && chance(0.1);
    const paused = churnAfter === null && !scheduledCancel && chance(0.03);
    const pastDue = churnAfter === null && !paused && chance(0.05);
    const upgradeAt = main.id === 'price_basic' && chance(0.15) ? 1 : null;
    const customer: Customer = {
      id: next('cus'),
      name: `Customer ${i}`,
      email: `customer${i}@example.com`,
      country: pick(COUNTRIES),
      currency: main.currency,
      created,
      deleted: i === count - 1,
      subscription: {
        id: next('sub'),
        items,
        status: 'active',
        start: created,
        trialEnd,
        cancelAtPeriodEnd: scheduledCancel,
        canceledAt: null,
        endedAt: null,
        paused,
      },
      invoices: [],
    };

    const lineFor = (
      itemId: string | null,
      p: { id: string | null; amount: number; name: string },
      quantity: number,
      start: number,
      end: number,
      proration = false,
      gross = p.amount * quantity,
    ): Line => {
      // Stripe's discount amounts are what a coupon takes off a charge; a credit gets none.
      const discount = itemId === null || gross <= 0 ? 0 : Math.round(gross * discountRate);
      const net = gross - discount;
      const taxAmount =
        tax === 'none' ? 0 : tax === 'exclusive' ? Math.round(net * 0.1) : Math.round(net / 11);
      return {
        id: next('il'),
        itemId,
        planId: p.id,
        gross,
        discount,
        tax: taxAmount,
        inclusive: tax === 'inclusive',
        quantity,
        start,
        end,
        proration,
        description: `${quantity} × ${p.name}`,
      };
    };

    let periodStart = created;
    let period = 0;
    if (trialEnd !== null) {
      customer.invoices.push(
        invoiceOf(
          customer,
          periodStart,
          items.map((item) =>
            lineFor(item.id, { ...plan(item.planId), amount: 0 }, item.quantity, created, trialEnd),
          ),
        ),
      );
      periodStart = trialEnd;
    }
    while (periodStart <= now) {
      const months = main.interval === 'year' ? 12 : main.count;
      const periodEnd = addMonths(periodStart, months);
      const lines = items.map((item) => {
        const p = plan(item.planId);
        const usage = p.metered ? 100 + Math.floor(random() * 5000) : undefined;
        return lineFor(item.id, p, item.quantity, periodStart, periodEnd, false, usage);
      });
      if (period === 0 && chance(0.1)) {
        lines.push(lineFor(null, ONE_TIME_PRICE, 1, periodStart, periodStart));
      }
      if (upgradeAt !== null && period === upgradeAt) {
        // Last period's quantity 1 became 2 fifteen days before its end: credit and charge for the rest.
        const item = items[0]!;
        const half = Math.round(main.amount / 2);
        const mid = periodStart - 15 * DAY;
        lines.push(lineFor(item.id, main, 1, mid, periodStart, true, -half));
        lines.push(lineFor(item.id, main, 2, mid, periodStart, true, 2 * half));
        item.quantity = 2;
        lines[0] = lineFor(item.id, main, 2, periodStart, periodEnd);
      }
      const invoice = invoiceOf(customer, periodStart, lines);
      if (paused && period >= 1) invoice.status = 'void';
      customer.invoices.push(invoice);
      for (const item of items) item.periodEnd = periodEnd;
      period++;
      if (churnAfter !== null && period >= churnAfter && periodEnd <= now) {
        customer.subscription.status = 'canceled';
        customer.subscription.canceledAt = periodStart + DAY;
        customer.subscription.endedAt = periodEnd;
        break;
      }
      periodStart = periodEnd;
    }
    if (scheduledCancel) customer.subscription.canceledAt = now - DAY;
    if (trialEnd !== null && trialEnd > now) customer.subscription.status = 'trialing';
    pay(customer, random, next, pastDue);
    if (pastDue && customer.invoices.at(-1)!.status === 'open') customer.subscription.status = 'past_due';
    customers.push(customer);
  }
  return customers;

  function invoiceOf(customer: Customer, created: number, lines: Line[]): Invoice {
    return { id: next('in'), created, status: 'paid', currency: customer.currency, lines, charges: [] };
  }
}

function total(invoice: Invoice): number {
  return invoice.lines.reduce(
    (sum, line) => sum + line.gross - line.discount + (line.inclusive ? 0 : line.tax),
    0,
  );
}

/** Charges for each paid invoice: some fail first, some are partly refunded; the last may stay unpaid. */
function pay(
  customer: Customer,
  random: () => number,
  next: (prefix: string) => string,
  lastUnpaid: boolean,
) {
  customer.invoices.forEach((invoice, index) => {
    if (invoice.status === 'void') return;
    const amount = total(invoice);
    if (amount <= 0) return;
    if (random() < 0.1)
      invoice.charges.push({ id: next('ch'), created: invoice.created, amount, ok: false, refund: 0 });
    if (lastUnpaid && index === customer.invoices.length - 1) {
      invoice.status = 'open';
      invoice.charges.push({ id: next('ch'), created: invoice.created + 3600, amount, ok: false, refund: 0 });
      return;
    }
    const refund = random() < 0.05 ? Math.round(amount / 2) : 0;
    invoice.charges.push({ id: next('ch'), created: invoice.created + 7200, amount, ok: true, refund });
  });
}

/** A plan's amount for `quantity` as MRR in whole cents. */
function monthly(p: Plan, quantity: number): number {
  return Math.round((p.amount * quantity) / (p.interval === 'year' ? 12 * p.count : p.count));
}

/**
 * A copy of a generated account where some active subscriptions have a schedule changing them
 * at their period end (one more of the main item, an add-on dropped, Basic switched to Pro
 * yearly, or the same items then a cancellation), and some refunded invoices a credit note
 * (half a subscription line and a goodwill credit, sometimes a voided one beside it). Drawn
 * from their own seed, so the account is otherwise the one generateAccount made.
 */
export function withSchedulesAndCreditNotes(generated: readonly Customer[], seed = 5): Customer[] {
  const random = mulberry32(seed);
  const customers = structuredClone(generated) as Customer[];
  customers.forEach((customer, index) => {
    const sub = customer.subscription;
    const draw = random();
    const kind = Math.floor(random() * 4);
    if (sub.status === 'active' && !sub.paused && !sub.cancelAtPeriodEnd && draw < 0.15) {
      sub.schedule = scheduleOf(customer, index, kind);
    }
    for (const invoice of customer.invoices) {
      const refunded = invoice.charges.find((charge) => charge.refund > 0);
      const line = invoice.lines.find((item) => item.itemId !== null && item.gross > 0);
      if (refunded && line) invoice.creditNotes = creditNotesOf(invoice, line, `re_${refunded.id}`, random);
    }
  });
  return customers;
}

function scheduleOf(customer: Customer, index: number, kind: number): Schedule {
  const sub = customer.subscription;
  const [main, ...addOns] = sub.items;
  const p = plan(main!.planId);
  const nextStart = main!.periodEnd;
  const months = p.interval === 'year' ? 12 * p.count : p.count;
  const next = sub.items.map((item) => ({ planId: item.planId, quantity: item.quantity }));
  const changes: Record<string, ItemChange> = {};
  const date = dayOf(nextStart);
  if (kind === 1 && addOns.length > 0) {
    const dropped = addOns.at(-1)!;
    next.pop();
    changes[dropped.id] = { date, plan_id: dropped.planId, quantity: 0, amount: 0 };
  } else if (kind === 2 && p.id === 'price_basic' && addOns.length === 0) {
    const pro = plan('price_pro_year');
    next[0] = { planId: pro.id, quantity: main!.quantity };
    changes[main!.id] = {
      date,
      plan_id: pro.id,
      quantity: main!.quantity,
      amount: monthly(pro, main!.quantity),
    };
  } else if (kind !== 3) {
    next[0]!.quantity++;
    changes[main!.id] = {
      date,
      plan_id: p.id,
      quantity: main!.quantity + 1,
      amount: monthly(p, main!.quantity + 1),
    };
  }
  return {
    id: `sub_sched_${index}`,
    endBehavior: kind === 3 ? 'cancel' : 'release',
    currentStart: addMonths(nextStart, -months),
    nextStart,
    nextEnd: addMonths(nextStart, 3),
    next,
    changes,
  };
}

function creditNotesOf(invoice: Invoice, line: Line, refundId: string, random: () => number): CreditNote[] {
  const half = (amount: number) => Math.round(amount / 2);
  const created = invoice.created + 5 * DAY;
  const credit: CreditNote = {
    id: `cn_${invoice.id}`,
    created,
    voided: false,
    refundId,
    lines: [
      {
        id: `cnli_${invoice.id}_1`,
        credits: line,
        gross: half(line.gross),
        discount: half(line.discount),
        tax: half(line.tax),
        inclusive: line.inclusive,
        description: `Half of ${line.description}`,
      },
    ],
  };
  if (random() < 0.5) {
    credit.lines.push({
      id: `cnli_${invoice.id}_2`,
      credits: null,
      gross: 500,
      discount: 0,
      tax: 0,
      inclusive: false,
      description: 'Goodwill credit',
    });
  }
  if (random() >= 0.3) return [credit];
  const voided: CreditNote = {
    ...credit,
    id: `cn_${invoice.id}_void`,
    voided: true,
    lines: credit.lines.map((item) => ({ ...item, id: `${item.id}_void`, gross: line.gross })),
  };
  return [credit, voided];
}

/** What a credit note line credits: its gross less discount, plus exclusive tax. */
function creditTotal(line: CreditLine): number {
  return line.gross - line.discount + (line.inclusive ? 0 : line.tax);
}

/** The account as Stripe serves it. */
export function stripeData(customers: readonly Customer[]): StripeData {
  const created = seconds('2025-10-01');
  const product = (id: string, name: string) => ({
    id: `prod_${id}`,
    object: 'product',
    created,
    name,
    active: true,
  });
  const products: WireObject[] = [...PLANS, ONE_TIME_PRICE].map((p) => product(p.id, p.name));
  const prices: WireObject[] = PLANS.map((p) => ({
    id: p.id,
    object: 'price',
    created,
    currency: p.currency,
    nickname: null,
    product: `prod_${p.id}`,
    type: 'recurring',
    unit_amount: p.amount,
    recurring: {
      interval: p.interval,
      interval_count: p.count,
      usage_type: p.metered ? 'metered' : 'licensed',
      meter: null,
      trial_period_days: null,
    },
  }));
  prices.push({
    id: ONE_TIME_PRICE.id,
    object: 'price',
    created,
    currency: ONE_TIME_PRICE.currency,
    nickname: null,
    product: `prod_${ONE_TIME_PRICE.id}`,
    type: 'one_time',
    unit_amount: ONE_TIME_PRICE.amount,
    recurring: null,
  });
  const priceById = new Map(prices.map((price) => [price.id, price]));
  const invoicePayments = new Map<string, WireObject[]>();
  const charges: WireObject[] = [];
  const invoices: WireObject[] = [];
  const subscriptions: WireObject[] = [];
  const subscriptionSchedules: WireObject[] = [];
  const creditNotes: WireObject[] = [];

  for (const customer of customers) {
    const sub = customer.subscription;
    const cancelAt = sub.cancelAtPeriodEnd ? sub.items[0]!.periodEnd : null;
    if (sub.schedule) subscriptionSchedules.push(wireSchedule(sub.schedule, customer));
    subscriptions.push({
      id: sub.id,
      object: 'subscription',
      created: sub.start,
      customer: customer.id,
      currency: customer.currency,
      status: sub.status,
      start_date: sub.start,
      trial_start: sub.trialEnd === null ? null : sub.start,
      trial_end: sub.trialEnd,
      cancel_at: cancelAt,
      cancel_at_period_end: sub.cancelAtPeriodEnd,
      canceled_at: sub.canceledAt,
      ended_at: sub.endedAt,
      pause_collection: sub.paused ? { behavior: 'void', resumes_at: null } : null,
      schedule: sub.schedule?.id ?? null,
      items: {
        object: 'list',
        has_more: false,
        data: sub.items.map((item) => ({
          id: item.id,
          object: 'subscription_item',
          created: sub.start,
          price: priceById.get(item.planId),
          quantity: item.quantity,
          current_period_start: addMonths(item.periodEnd, -1),
          current_period_end: item.periodEnd,
          subscription: sub.id,
        })),
      },
    });
    for (const invoice of customer.invoices) {
      const paid = invoice.charges.find((charge) => charge.ok);
      const notes = invoice.creditNotes ?? [];
      creditNotes.push(...notes.map((note) => wireCreditNote(note, invoice, customer.id)));
      invoices.push({
        id: invoice.id,
        object: 'invoice',
        created: invoice.created,
        customer: customer.id,
        currency: invoice.currency,
        status: invoice.status,
        number: invoice.id.toUpperCase(),
        description: null,
        due_date: null,
        total: total(invoice),
        pre_payment_credit_notes_amount: 0,
        post_payment_credit_notes_amount: notes
          .filter((note) => !note.voided)
          .reduce((sum, note) => sum + note.lines.reduce((lines, line) => lines + creditTotal(line), 0), 0),
        status_transitions: { finalized_at: invoice.created, paid_at: paid ? paid.created : null },
        lines: invoice.lines.map((line) => wireLine(line, sub.id, invoice.currency)),
      });
      if (invoice.charges.length === 0) continue;
      const intent = `pi_${invoice.id}`;
      invoicePayments.set(invoice.id, [
        {
          id: `inpay_${invoice.id}`,
          object: 'invoice_payment',
          created: invoice.created,
          invoice: invoice.id,
          payment: { type: 'payment_intent', payment_intent: intent },
          status: paid ? 'paid' : 'open',
        },
      ]);
      for (const charge of invoice.charges) {
        charges.push({
          id: charge.id,
          object: 'charge',
          created: charge.created,
          amount: charge.amount,
          currency: invoice.currency,
          status: charge.ok ? 'succeeded' : 'failed',
          payment_intent: intent,
          payment_method_details: { type: 'card' },
          refunds:
            charge.refund > 0
              ? [
                  {
                    id: `re_${charge.id}`,
                    object: 'refund',
                    created: charge.created + 5 * DAY,
                    amount: charge.refund,
                    status: 'succeeded',
                  },
                ]
              : [],
        });
      }
    }
  }
  return {
    account: {
      id: 'acct_fake',
      object: 'account',
      created,
      settings: { dashboard: { display_name: 'Fake Books Ltd' } },
    },
    customers: customers
      .filter((customer) => !customer.deleted)
      .map((customer) => ({
        id: customer.id,
        object: 'customer',
        created: customer.created,
        name: customer.name,
        email: customer.email,
        description: null,
        currency: customer.currency,
        address: { country: customer.country },
        livemode: false,
      })),
    products,
    prices,
    subscriptionSchedules,
    subscriptions,
    creditNotes,
    invoices,
    invoicePayments,
    charges,
  };
}

function wireSchedule(schedule: Schedule, customer: Customer): WireObject {
  const sub = customer.subscription;
  const phase = (start: number, end: number, items: { planId: string; quantity: number }[]) => ({
    start_date: start,
    end_date: end,
    currency: customer.currency,
    discounts: [],
    proration_behavior: 'create_prorations',
    trial_end: null,
    items: items.map((item) => ({
      price: item.planId,
      plan: item.planId,
      quantity: item.quantity,
      discounts: [],
      metadata: {},
      billing_thresholds: null,
    })),
  });
  return {
    id: schedule.id,
    object: 'subscription_schedule',
    created: schedule.currentStart,
    customer: customer.id,
    subscription: sub.id,
    status: 'active',
    end_behavior: schedule.endBehavior,
    current_phase: { start_date: schedule.currentStart, end_date: schedule.nextStart },
    phases: [
      phase(schedule.currentStart, schedule.nextStart, sub.items),
      phase(schedule.nextStart, schedule.nextEnd, schedule.next),
    ],
    canceled_at: null,
    completed_at: null,
    released_at: null,
    released_subscription: null,
    metadata: {},
    livemode: false,
  };
}

function wireCreditNote(note: CreditNote, invoice: Invoice, customer: string): WireObject {
  const amount = note.lines.reduce((sum, line) => sum + creditTotal(line), 0);
  return {
    id: note.id,
    object: 'credit_note',
    created: note.created,
    customer,
    invoice: invoice.id,
    currency: invoice.currency,
    number: note.id.toUpperCase(),
    status: note.voided ? 'void' : 'issued',
    type: 'post_payment',
    reason: 'order_change',
    amount,
    total: amount,
    pre_payment_amount: 0,
    post_payment_amount: amount,
    out_of_band_amount: null,
    effective_at: note.created,
    voided_at: note.voided ? note.created + DAY : null,
    refunds: [{ refund: note.refundId, amount_refunded: amount }],
    livemode: false,
    lines: note.lines.map((line) => ({
      id: line.id,
      object: 'credit_note_line_item',
      type: line.credits ? 'invoice_line_item' : 'custom_line_item',
      ...(line.credits ? { invoice_line_item: line.credits.id } : {}),
      amount: line.gross,
      unit_amount: line.gross,
      quantity: 1,
      description: line.description,
      discount_amount: line.discount,
      ...wireDeductions(line),
      livemode: false,
    })),
  };
}

/** A line's discount and tax as Stripe lists them on invoice and credit note lines alike. */
function wireDeductions(line: { discount: number; tax: number; inclusive: boolean }) {
  return {
    discount_amounts: line.discount > 0 ? [{ amount: line.discount, discount: 'di_twenty' }] : [],
    taxes:
      line.tax !== 0
        ? [
            {
              amount: line.tax,
              tax_behavior: line.inclusive ? 'inclusive' : 'exclusive',
              type: 'tax_rate_details',
            },
          ]
        : [],
  };
}

function wireLine(line: Line, subscription: string, currency: string): WireObject {
  const parent =
    line.itemId === null
      ? {
          type: 'invoice_item_details',
          invoice_item_details: { invoice_item: `ii_${line.id}`, proration: false, subscription: null },
          subscription_item_details: null,
        }
      : {
          type: 'subscription_item_details',
          subscription_item_details: {
            subscription_item: line.itemId,
            proration: line.proration,
            subscription,
            invoice_item: null,
          },
          invoice_item_details: null,
        };
  return {
    id: line.id,
    object: 'line_item',
    created: line.start,
    amount: line.gross,
    currency,
    description: line.description,
    ...wireDeductions(line),
    period: { start: line.start, end: line.end },
    quantity: line.quantity,
    parent,
    pricing: { type: 'price_details', price_details: { price: line.planId, product: `prod_${line.planId}` } },
    subscription: line.itemId === null ? null : subscription,
  };
}

/** The MRR in cents of `quantity` units of a plan: its amount for one period, monthly, rounded. */
export function planMrr(planId: string, quantity: number): number {
  const p = plan(planId);
  return Math.round((p.amount * quantity) / (p.interval === 'year' ? 12 * p.count : p.count));
}

/** The scheduled changes of a subscription item's record (the first item is the plan's). */
function scheduledChanges(sub: Customer['subscription'], item: Customer['subscription']['items'][number]) {
  const change = sub.termEndChange;
  if (change === undefined) return {};
  const date = dayOf(change.at);
  if (change.removed.includes(item.id)) return { scheduled_changes: [{ date, quantity: 0, amount: 0 }] };
  if (item !== sub.items[0]) return {};
  return {
    scheduled_changes: [
      {
        date,
        ...(change.planId === item.planId ? {} : { plan_id: change.planId }),
        quantity: change.quantity,
        amount: planMrr(change.planId, change.quantity),
      },
    ],
  };
}

/** The same account as /data/* bodies, each kind in write order. */
export function dataRecords(customers: readonly Customer[]) {
  const live = customers.filter((customer) => !customer.deleted);
  return {
    customers: live.map((customer) => ({
      id: customer.id,
      name: customer.name,
      email: customer.email,
      created_date: iso(customer.created),
      country: customer.country,
      currency: customer.currency,
    })),
    plans: PLANS.map((p) => ({
      id: p.id,
      name: p.name,
      billing_freq: p.interval,
      billing_freq_count: p.count,
      pricing_model: p.metered ? 'metered' : 'licensed',
      product_name: p.name,
      currency: p.currency,
    })),
    subscriptions: live.flatMap((customer) => {
      const sub = customer.subscription;
      const scheduledEnd = sub.schedule?.endBehavior === 'cancel' ? sub.schedule.nextEnd : null;
      return sub.items.map((item) => {
        const cancelAt = sub.cancelAtPeriodEnd ? item.periodEnd : scheduledEnd;
        const change = sub.schedule?.changes[item.id];
        const record = {
          id: item.id,
          customer_id: customer.id,
          plan_id: item.planId,
          quantity: item.quantity,
          status: sub.paused ? 'ended' : sub.status,
          started_at: iso(sub.start),
          cancel_requested_at: cancelAt !== null && sub.canceledAt !== null ? iso(sub.canceledAt) : null,
          cancel_at: cancelAt === null ? null : iso(cancelAt),
          ended_at: sub.endedAt === null ? null : iso(sub.endedAt),
          currency: customer.currency,
          // An account has Stripe's schedules or term-end changes, never both.
          scheduled_changes: change ? [change] : [],
          ...scheduledChanges(sub, item),
        };
        return item.endedAt === undefined
          ? record
          : {
              ...record,
              status: 'canceled',
              cancel_requested_at: null,
              cancel_at: null,
              ended_at: iso(item.endedAt),
            };
      });
    }),
    invoices: live.flatMap((customer) =>
      customer.invoices.map((invoice) => {
        const paid = invoice.charges.find((charge) => charge.ok);
        return {
          id: invoice.id,
          customer_id: customer.id,
          date: dayOf(invoice.created),
          currency: invoice.currency,
          status: invoice.status,
          number: invoice.id.toUpperCase(),
          payment_date: paid ? dayOf(paid.created) : null,
          lines: [
            ...invoice.lines.map((line) => ({
              id: line.id,
              type: line.itemId === null ? 'one_time' : 'subscription',
              subscription_id: line.itemId,
              plan_id: line.itemId === null ? null : line.planId,
              description: line.description,
              amount: line.gross - line.discount - (line.inclusive ? line.tax : 0),
              quantity: line.quantity,
              period_start: dayOf(line.start),
              period_end: dayOf(line.end > line.start ? line.end : line.start + DAY),
              discount: line.discount,
              tax: line.tax,
              prorated: line.proration,
            })),
            ...(invoice.creditNotes ?? [])
              .filter((note) => !note.voided)
              .flatMap((note) => note.lines.map((line) => creditRecord(note, line))),
          ],
          transactions: invoice.charges.flatMap((charge) => [
            {
              id: charge.id,
              date: iso(charge.created),
              type: 'payment',
              result: charge.ok ? 'successful' : 'failed',
              amount: charge.amount,
              payment_method: 'card',
            },
            ...(charge.refund > 0
              ? [
                  {
                    id: `re_${charge.id}`,
                    date: iso(charge.created + 5 * DAY),
                    type: 'refund',
                    result: 'successful',
                    amount: charge.refund,
                    payment_method: 'card',
                  },
                ]
              : []),
          ]),
        };
      }),
    ),
  };
}

/** A credit note line as the negative invoice line /data/* takes. */
function creditRecord(note: CreditNote, line: CreditLine) {
  const credited = line.credits;
  const start = credited ? credited.start : note.created;
  const end = credited ? credited.end : note.created + DAY;
  return {
    id: `${note.id}:${line.id}`,
    type: credited ? 'subscription' : 'one_time',
    subscription_id: credited?.itemId ?? null,
    plan_id: credited ? credited.planId : null,
    description: line.description,
    amount: -(line.gross - line.discount - (line.inclusive ? line.tax : 0)),
    quantity: 1,
    period_start: dayOf(start),
    period_end: dayOf(end),
    discount: 0,
    tax: -line.tax,
    prorated: credited?.proration ?? false,
  };
}
