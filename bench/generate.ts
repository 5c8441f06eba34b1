import { dayNumber, dayString } from '../src/engine/days.js';
import { shiftMonths } from '../src/engine/periods.js';
import {
  ADD_ON,
  CANCEL_REASONS,
  CURRENCIES,
  CUSTOM_VARIABLES,
  FREQUENCIES,
  FREQUENCY_FACTOR,
  type Frequency,
  MARKETS,
  type Market,
  MONTHS_PER_PERIOD,
  NAME_WORDS,
  PAYMENT_METHODS,
  PER_US_CENT,
  SETUP_FEE_US_CENTS,
  TIERS,
} from './catalog.js';
import type {
  CustomerPayload,
  CustomerRecords,
  InvoicePayload,
  LinePayload,
  PlanPayload,
  SubscriptionPayload,
  TransactionPayload,
} from './payloads.js';
import { Random } from './random.js';

export interface GeneratorOptions {
  customers: number;
  seed: number;
  /** The last day with data (YYYY-MM-DD); the server's clock should read the same day. */
  today: string;
  /** How far back the oldest sign-ups go. */
  historyYears: number;
}

/** Monthly chances of each event for a paying customer. */
const MONTHLY = { churn: 0.015, upgrade: 0.03, downgrade: 0.01, yearlySwitch: 0.01 };
const SHARE = {
  lead: 0.22,
  trialOnly: 0.1,
  trialFirst: 0.45,
  coupon: 0.15,
  addOn: 0.4,
  setupFee: 0.3,
  metered: 0.4,
  subscriptionRecords: 0.7,
  immediateCancel: 0.15,
  reactivation: 0.12,
  cancelKnownAhead: 0.5,
  pendingCancel: 0.03,
  goodwillRefund: 0.01,
};
const PAYMENT = { recovered: 0.05, lost: 0.005 };
const TRIAL_DAYS = 14;
const DUNNING_DAYS = 21;
const COUPON = { share: 0.2, invoices: 3 };

const price = (usCents: number, currency: string) =>
  Math.max(100, Math.round((usCents * (PER_US_CENT[currency] ?? 1)) / 100) * 100);

function periodPrice(monthlyUsCents: number, freq: Frequency, currency: string): number {
  return price(monthlyUsCents * MONTHS_PER_PERIOD[freq] * FREQUENCY_FACTOR[freq], currency);
}

const planId = (product: string, freq: Frequency, currency: string) => `${product}-${freq}-${currency}`;

/** Every plan: each tier and the add-on, monthly, quarterly and yearly, in each currency. */
export function generatePlans(): PlanPayload[] {
  const products = [...TIERS.map((tier) => ({ id: tier.id, name: tier.name })), ADD_ON];
  return CURRENCIES.flatMap((currency) =>
    products.flatMap((product) =>
      FREQUENCIES.map(([freq]) => ({
        id: planId(product.id, freq, currency),
        name: `${product.name} (${freq}ly, ${currency.toUpperCase()})`,
        billing_freq: freq,
        billing_freq_count: 1,
        product_name: product.name,
        currency,
      })),
    ),
  );
}

/** Chance that an event with monthly chance `monthly` happens within `months` months. */
const within = (monthly: number, months: number) => 1 - (1 - monthly) ** months;

const instant = (day: number, random: Random) =>
  `${dayString(day)}T${String(random.int(0, 23)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}:00Z`;

interface Holding {
  tier: number;
  seats: number;
  freq: Frequency;
  addOn: boolean;
}

/** One customer's life, walked period by period from its first payment to today. */
class CustomerLife {
  readonly invoices: InvoicePayload[] = [];
  readonly subscriptions: SubscriptionPayload[] = [];
  private invoiceCount = 0;
  private subscriptionCount = 0;
  private couponLeft: number;
  private readonly paymentMethod: string;
  /** Billed for usage beyond the plan on top of the subscription. */
  private readonly metered: boolean;
  /** The day the customer's last subscription ended, or null while one runs. */
  churnDay: number | null = null;

  constructor(
    private readonly random: Random,
    private readonly id: string,
    private readonly market: Market,
    private readonly today: number,
    private readonly withRecords: boolean,
  ) {
    this.couponLeft = random.chance(SHARE.coupon) ? COUPON.invoices : 0;
    this.paymentMethod = random.weighted(PAYMENT_METHODS);
    this.metered = random.chance(SHARE.metered);
  }

  private overage(): LinePayload {
    const amount = price(this.random.int(5, 60) * 100, this.currency);
    return {
      type: 'one_time',
      description: 'API calls over the plan allowance',
      amount,
      quantity: 1,
      discount: 0,
      tax: Math.round(amount * this.market.taxRate),
      prorated: false,
    };
  }

  private get currency() {
    return this.market.currency;
  }

  private periodLines(
    holding: Holding,
    subscription: string,
    from: number,
    to: number,
    share: number,
  ): LinePayload[] {
    const tier = TIERS[holding.tier]!;
    const main = {
      plan: planId(tier.id, holding.freq, this.currency),
      gross: periodPrice(tier.monthlyUsCents, holding.freq, this.currency) * holding.seats,
      quantity: holding.seats,
      description: `${tier.name} x ${holding.seats}`,
    };
    const addOn = {
      plan: planId(ADD_ON.id, holding.freq, this.currency),
      gross: periodPrice(ADD_ON.monthlyUsCents, holding.freq, this.currency),
      quantity: 1,
      description: ADD_ON.name,
    };
    return (holding.addOn ? [main, addOn] : [main]).map((item) => {
      const gross = Math.round(item.gross * share);
      const discount = share === 1 && this.couponLeft > 0 ? Math.round(gross * COUPON.share) : 0;
      const amount = gross - discount;
      return {
        type: 'subscription',
        subscription_id: subscription,
        plan_id: item.plan,
        description: item.description,
        amount,
        quantity: item.quantity,
        period_start: dayString(from),
        period_end: dayString(to),
        discount,
        tax: Math.round(amount * this.market.taxRate),
        prorated: share !== 1,
      };
    });
  }

  private invoice(day: number, lines: LinePayload[]): InvoicePayload {
    this.invoiceCount += 1;
    const amount = lines.reduce((sum, line) => sum + line.amount + line.tax, 0);
    return {
      id: `in_${this.id}_${this.invoiceCount}`,
      customer_id: this.id,
      date: dayString(day),
      due_date: dayString(day + 14),
      currency: this.currency,
      status: 'paid',
      number: `INV-${this.id.slice(4)}-${this.invoiceCount}`,
      amount,
      lines,
      transactions: [],
    };
  }

  private transaction(
    invoice: InvoicePayload,
    day: number,
    type: TransactionPayload['type'],
    result: TransactionPayload['result'],
    amount: number,
  ) {
    invoice.transactions.push({
      id: `${type === 'payment' ? 'ch' : 're'}_${invoice.transactions.length + 1}`,
      date: instant(day, this.random),
      type,
      result,
      amount,
      payment_method: this.paymentMethod,
    });
  }

  /** Charges the invoice: paid at once, paid after failed attempts, or never (the customer is lost). */
  private collect(invoice: InvoicePayload, day: number): 'paid' | 'pending' | 'lost' {
    if (invoice.amount <= 0) return 'paid';
    const outcome = this.random.next();
    const failures = outcome < PAYMENT.recovered + PAYMENT.lost ? this.random.int(1, 3) : 0;
    for (let attempt = 0; attempt < failures; attempt++) {
      const attemptDay = day + attempt * 4;
      if (attemptDay <= this.today)
        this.transaction(invoice, attemptDay, 'payment', 'failed', invoice.amount);
    }
    if (outcome < PAYMENT.lost) {
      const settled = day + DUNNING_DAYS <= this.today;
      invoice.status = settled ? 'uncollectible' : 'open';
      return settled ? 'lost' : 'pending';
    }
    const paidDay = day + failures * 4;
    if (paidDay > this.today) {
      invoice.status = 'open';
      return 'pending';
    }
    this.transaction(invoice, paidDay, 'payment', 'successful', invoice.amount);
    invoice.payment_date = dayString(paidDay);
    if (this.random.chance(SHARE.goodwillRefund)) {
      const refundDay = paidDay + this.random.int(5, 20);
      if (refundDay <= this.today)
        this.transaction(invoice, refundDay, 'refund', 'successful', Math.round(invoice.amount / 2));
    }
    return 'paid';
  }

  /** A mid-period plan change: credit for the old plan's unused days, charge for the new one's. */
  private changePlan(
    holding: Holding,
    next: Holding,
    subscription: string,
    day: number,
    from: number,
    to: number,
  ) {
    const share = (to - day) / (to - from);
    const credit = this.periodLines(holding, subscription, day, to, share).map((line) => ({
      ...line,
      amount: -line.amount,
      tax: -line.tax,
      description: `Unused time on ${line.description}`,
    }));
    const invoice = this.invoice(day, [...credit, ...this.periodLines(next, subscription, day, to, share)]);
    this.invoices.push(invoice);
    this.collect(invoice, day);
  }

  private nextHolding(holding: Holding): Holding | null {
    const tier = TIERS[holding.tier]!;
    if (this.random.chance(MONTHLY.upgrade / (MONTHLY.upgrade + MONTHLY.downgrade))) {
      if (holding.seats < tier.maxSeats && this.random.chance(0.5))
        return { ...holding, seats: Math.min(tier.maxSeats, holding.seats + this.random.int(1, 3)) };
      if (holding.tier + 1 < TIERS.length) return { ...holding, tier: holding.tier + 1 };
      return holding.addOn ? null : { ...holding, addOn: true };
    }
    if (holding.seats > 1) return { ...holding, seats: holding.seats - 1 };
    return holding.tier > 0 ? { ...holding, tier: holding.tier - 1, seats: 1 } : null;
  }

  /** One subscription from `start` until it ends or today passes; returns the day it ended, or null. */
  subscribe(start: number, holding: Holding): number | null {
    this.subscriptionCount += 1;
    const subscription = `sub_${this.id}_${this.subscriptionCount}`;
    const record: SubscriptionPayload = {
      id: subscription,
      customer_id: this.id,
      plan_id: '',
      quantity: holding.seats,
      status: 'active',
      started_at: dayString(start),
      currency: this.currency,
    };
    let ended: number | null = null;
    let from = start;
    let first = true;
    while (from <= this.today && ended === null) {
      const months = MONTHS_PER_PERIOD[holding.freq];
      const to = shiftMonths(from, months);
      const lines = this.periodLines(holding, subscription, from, to, 1);
      if (first && this.random.chance(SHARE.setupFee)) {
        lines.push({
          type: 'one_time',
          description: 'Onboarding',
          amount: price(SETUP_FEE_US_CENTS, this.currency),
          quantity: 1,
          discount: 0,
          tax: Math.round(price(SETUP_FEE_US_CENTS, this.currency) * this.market.taxRate),
          prorated: false,
        });
      }
      first = false;
      if (this.metered && this.random.chance(0.8)) lines.push(this.overage());
      const invoice = this.invoice(from, lines);
      this.invoices.push(invoice);
      this.couponLeft = Math.max(0, this.couponLeft - 1);
      const paid = this.collect(invoice, from);
      if (paid === 'lost') {
        ended = from + DUNNING_DAYS;
        record.status = 'canceled';
        record.ended_at = dayString(ended);
        break;
      }
      if (paid === 'pending') record.status = 'past_due';

      if (to - from > 2 && this.random.chance(within(MONTHLY.upgrade + MONTHLY.downgrade, months))) {
        const day = from + this.random.int(1, to - from - 1);
        const next = this.nextHolding(holding);
        if (next && day <= this.today) {
          this.changePlan(holding, next, subscription, day, from, to);
          holding = next;
        }
      }

      if (this.random.chance(within(MONTHLY.churn, months))) {
        const immediate = this.random.chance(SHARE.immediateCancel);
        const day = immediate ? from + this.random.int(1, Math.max(1, to - from - 1)) : to;
        const requested = immediate ? day : day - this.random.int(1, Math.min(30, to - from));
        if (day <= this.today) {
          ended = day;
          record.status = 'canceled';
          record.cancel_requested_at = dayString(requested);
          record.ended_at = dayString(day);
          record.cancel_at = dayString(day);
          if (immediate && invoice.status === 'paid') {
            const unused = Math.round((invoice.amount * (to - day)) / (to - from));
            this.transaction(invoice, day, 'refund', 'successful', unused);
          }
        } else if (requested <= this.today && this.random.chance(SHARE.cancelKnownAhead)) {
          record.cancel_requested_at = dayString(requested);
          record.cancel_at = dayString(day);
        }
        break;
      }
      if (to > this.today && this.random.chance(SHARE.pendingCancel)) {
        // Asked to cancel at the end of the running period: scheduled churn.
        record.cancel_requested_at = dayString(this.random.int(from, this.today));
        record.cancel_at = dayString(to);
        break;
      }
      if (holding.freq === 'month' && this.random.chance(MONTHLY.yearlySwitch)) {
        holding = { ...holding, freq: 'year' };
      }
      from = to;
    }
    record.plan_id = planId(TIERS[holding.tier]!.id, holding.freq, this.currency);
    record.quantity = holding.seats;
    if (this.withRecords) this.subscriptions.push(record);
    return ended;
  }

  /** A trial that is still running, as the billing system would state it. */
  trialRecord(start: number, holding: Holding) {
    if (!this.withRecords) return;
    this.subscriptions.push({
      id: `sub_${this.id}_trial`,
      customer_id: this.id,
      plan_id: planId(TIERS[holding.tier]!.id, holding.freq, this.currency),
      quantity: holding.seats,
      status: 'trialing',
      started_at: dayString(start),
      currency: this.currency,
    });
  }
}

function customerName(random: Random, number: number): string {
  return `${random.pick(NAME_WORDS.first)} ${random.pick(NAME_WORDS.second)} ${random.pick(NAME_WORDS.suffix)} ${number}`;
}

function customVariables(random: Random): Record<string, string> {
  return Object.fromEntries(
    Object.entries(CUSTOM_VARIABLES).map(([key, choices]) => [key, random.weighted(choices)]),
  );
}

/** Customer `index` (from 0) of the account: the same records for the same options, in any order. */
export function generateCustomer(index: number, options: GeneratorOptions): CustomerRecords {
  const random = Random.forItem(options.seed, index);
  const today = dayNumber(options.today);
  const first = dayNumber(options.today) - Math.round(options.historyYears * 365.25);
  // More sign-ups in recent months: the account grows.
  const signup = first + Math.floor((today - first) * random.next() ** 0.75);
  const market = random.weighted(MARKETS.map((m) => [m, m.weight] as const));
  const id = `cus_${String(index + 1).padStart(7, '0')}`;
  const name = customerName(random, index + 1);
  const customer: CustomerPayload = {
    id,
    name,
    email: `billing@${name.toLowerCase().replaceAll(' ', '-')}.example.com`,
    created_date: instant(signup, random),
    country: market.country,
    ...(market.states ? { state: random.pick(market.states) } : {}),
    currency: market.currency,
    custom_variables: customVariables(random),
  };
  const life = new CustomerLife(random, id, market, today, random.chance(SHARE.subscriptionRecords));
  const kind = random.weighted([
    ['lead', SHARE.lead],
    ['trial', SHARE.trialOnly],
    ['paying', 1 - SHARE.lead - SHARE.trialOnly],
  ] as const);
  if (kind === 'lead') return { customer, invoices: [], subscriptions: [] };

  const tierIndex = TIERS.indexOf(random.weighted(TIERS.map((tier) => [tier, tier.weight] as const)));
  const holding: Holding = {
    tier: tierIndex,
    seats: random.int(1, TIERS[tierIndex]!.maxSeats),
    freq: random.weighted(FREQUENCIES),
    addOn: random.chance(SHARE.addOn),
  };
  const trial = kind === 'trial' || random.chance(SHARE.trialFirst);
  const trialEnd = signup + TRIAL_DAYS;
  if (trial) {
    customer.trial_started = dayString(signup);
    customer.trial_end_date = dayString(trialEnd);
  }
  if (trial && trialEnd > today) {
    life.trialRecord(signup, holding);
    return { customer, invoices: [], subscriptions: life.subscriptions };
  }
  if (kind === 'trial') {
    customer.status = 'cancelled';
    return { customer, invoices: [], subscriptions: [] };
  }

  const paidStart = trial ? trialEnd : signup;
  customer.paid_started = dayString(paidStart);
  let ended = life.subscribe(paidStart, holding);
  while (ended !== null && random.chance(SHARE.reactivation)) {
    const back = ended + random.int(30, 240);
    if (back > today) break;
    ended = life.subscribe(back, { ...holding, tier: random.int(0, TIERS.length - 1), seats: 1 });
  }
  if (ended !== null) {
    customer.status = 'cancelled';
    customer.cancel_date = dayString(ended);
    customer.cancel_reason = random.pick(CANCEL_REASONS);
  }
  return { customer, invoices: life.invoices, subscriptions: life.subscriptions };
}

/** Every customer of the account in order, one at a time, so that a large account is never held whole. */
export function* generateAccount(options: GeneratorOptions): Generator<CustomerRecords> {
  for (let index = 0; index < options.customers; index++) yield generateCustomer(index, options);
}
