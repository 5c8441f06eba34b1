import type { RecurlyData, RecurlyObject } from '../fakes/recurly-server.js';
import { type Customer, dataRecords, type Invoice, type Line, stripeData } from './stripe-account.js';

// The generated account of stripe-account.ts (generateAccount) as Recurly serves it, for the
// fake Recurly; its /data/* twin is dataRecords, unchanged. In Recurly terms:
// - each customer is an account whose code is the customer id; the customer Stripe "deleted" is
//   left out (Recurly closes accounts, never deletes them), as dataRecords leaves it out;
// - the first item of a subscription is the subscription's plan, the others (seats, metered API
//   calls) are add-ons of that plan (`fixed` and `usage`);
// - a renewal's credit for unused time is a line of a credit invoice beside the charge invoice,
//   and a refund is a credit invoice with a refund transaction;
// - amounts are in major units, currency codes upper-case.

const DAY = 86_400;
const iso = (s: number) => new Date(s * 1000).toISOString();
const major = (cents: number) => cents / 100;

interface PlanInfo {
  id: string;
  name: string;
  billing_freq: string;
  billing_freq_count: number;
  pricing_model: string;
  currency: string;
  amount: number;
}

/** The plans of the generated account, from its /data/* and Stripe forms (the list is not exported). */
function plansOf(customers: readonly Customer[]): Map<string, PlanInfo> {
  const prices = new Map(stripeData(customers).prices.map((price) => [price.id, price]));
  return new Map(
    dataRecords(customers).plans.map((plan) => [
      plan.id,
      { ...plan, amount: prices.get(plan.id)!.unit_amount as number },
    ]),
  );
}

function accountMini(customer: Customer) {
  return { id: `a-${customer.id}`, object: 'account_mini', code: customer.id, email: customer.email };
}

function lineOf(
  customer: Customer,
  invoice: Invoice,
  line: Line,
  plans: Map<string, PlanInfo>,
  trial: boolean,
): RecurlyObject {
  const sub = customer.subscription;
  const item = line.itemId === null ? undefined : sub.items.find((each) => each.id === line.itemId);
  const addOn = item !== undefined && item !== sub.items[0];
  const planCode = sub.items[0]!.planId;
  const plan = plans.get(planCode)!;
  const months = plan.billing_freq === 'year' ? 12 * plan.billing_freq_count : plan.billing_freq_count;
  const fullPeriod = (months * 365.25 * DAY) / 12;
  let origin = 'one_time';
  if (item !== undefined)
    origin = addOn ? (trial ? 'add_on_trial' : 'add_on') : trial ? 'plan_trial' : 'plan';
  return {
    id: line.id,
    object: 'line_item',
    uuid: `uuid-${line.id}`,
    type: line.gross < 0 ? 'credit' : 'charge',
    state: 'invoiced',
    account: accountMini(customer),
    subscription_id: item === undefined ? null : sub.id,
    plan_code: item === undefined ? null : planCode,
    add_on_code: addOn ? item.planId : null,
    invoice_id: invoice.id,
    origin,
    currency: invoice.currency.toUpperCase(),
    description: line.description,
    quantity: line.quantity,
    unit_amount: major(line.gross / line.quantity),
    tax_inclusive: line.inclusive,
    subtotal: major(line.gross),
    discount: major(line.discount),
    tax: major(line.tax),
    amount: major(line.gross - line.discount + (line.inclusive ? 0 : line.tax)),
    proration_rate: line.proration
      ? Math.round(((line.end - line.start) / fullPeriod) * 10000) / 10000
      : null,
    refund: false,
    start_date: iso(line.start),
    end_date: item === undefined ? null : iso(line.end),
    created_at: iso(invoice.created),
    updated_at: iso(invoice.created),
  };
}

function transaction(customer: Customer, invoice: RecurlyObject, fields: Record<string, unknown>) {
  return {
    object: 'transaction',
    account: accountMini(customer),
    invoice: { id: invoice.id, object: 'invoice_mini', number: invoice.number, type: invoice.type },
    currency: invoice.currency,
    payment_method: { object: 'credit_card', card_type: 'Visa', last_four: '4242' },
    ...fields,
  };
}

/** The account as Recurly serves it. */
export function recurlyData(customers: readonly Customer[]): RecurlyData {
  const created = iso(Date.parse('2025-10-01T00:00:00Z') / 1000);
  const plans = plansOf(customers);
  const live = customers.filter((customer) => !customer.deleted);
  // The plans subscriptions are on or change to.
  const mainCodes = new Set(
    live.flatMap((customer) => {
      const sub = customer.subscription;
      return [sub.items[0]!.planId, ...(sub.termEndChange ? [sub.termEndChange.planId] : [])];
    }),
  );
  const addOnsOf = new Map<string, Set<string>>();
  for (const customer of live) {
    const [main, ...others] = customer.subscription.items;
    for (const other of others) {
      const set = addOnsOf.get(main!.planId) ?? new Set<string>();
      set.add(other.planId);
      addOnsOf.set(main!.planId, set);
    }
  }
  const wirePlan = (code: string): RecurlyObject => {
    const plan = plans.get(code)!;
    return {
      id: `p-${code}`,
      object: 'plan',
      code,
      name: plan.name,
      state: 'active',
      pricing_model: 'fixed',
      interval_unit: 'months',
      interval_length: plan.billing_freq === 'year' ? 12 * plan.billing_freq_count : plan.billing_freq_count,
      currencies: [{ currency: plan.currency.toUpperCase(), unit_amount: major(plan.amount), setup_fee: 0 }],
      auto_renew: true,
      created_at: created,
      updated_at: created,
    };
  };
  const wireAddOn = (planCode: string, code: string): RecurlyObject => {
    const addOn = plans.get(code)!;
    return {
      id: `ao-${planCode}-${code}`,
      object: 'add_on',
      plan_id: `p-${planCode}`,
      code,
      name: addOn.name,
      state: 'active',
      add_on_type: addOn.pricing_model === 'metered' ? 'usage' : 'fixed',
      usage_type: addOn.pricing_model === 'metered' ? 'price' : null,
      currencies: [{ currency: addOn.currency.toUpperCase(), unit_amount: major(addOn.amount) }],
      created_at: created,
      updated_at: created,
    };
  };

  const accounts: RecurlyObject[] = [];
  const subscriptions: RecurlyObject[] = [];
  const invoices: RecurlyObject[] = [];
  for (const customer of live) {
    const sub = customer.subscription;
    const [main, ...others] = sub.items;
    accounts.push({
      id: `a-${customer.id}`,
      object: 'account',
      code: customer.id,
      state: 'active',
      email: customer.email,
      first_name: null,
      last_name: null,
      company: customer.name,
      address: { country: customer.country },
      created_at: iso(customer.created),
      updated_at: iso(customer.created),
    });

    // The current period: the last invoice's line of the plan.
    const current = customer.invoices
      .flatMap((invoice) => invoice.lines)
      .filter((line) => line.itemId === main!.id && !line.proration)
      .at(-1)!;
    let state = 'active';
    let canceledAt: number | null = null;
    let expiresAt: number | null = null;
    if (sub.endedAt !== null) {
      state = 'expired';
      canceledAt = sub.canceledAt;
      expiresAt = sub.endedAt;
    } else if (sub.cancelAtPeriodEnd) {
      state = 'canceled';
      canceledAt = sub.canceledAt;
      expiresAt = main!.periodEnd;
    } else if (sub.paused) {
      state = 'paused';
    }
    const updated = Math.max(sub.start, canceledAt ?? 0, customer.invoices.at(-1)?.created ?? 0);
    const change = sub.termEndChange;
    // An add-on removed from the subscription stays listed, with when it expired.
    const subscriptionAddOn = (item: (typeof others)[number]) => ({
      id: `sao-${item.id}`,
      object: 'subscription_add_on',
      subscription_id: sub.id,
      add_on: {
        id: `ao-${main!.planId}-${item.planId}`,
        object: 'add_on_mini',
        code: item.planId,
        name: plans.get(item.planId)!.name,
        add_on_type: plans.get(item.planId)!.pricing_model === 'metered' ? 'usage' : 'fixed',
      },
      quantity: item.quantity,
      unit_amount: major(plans.get(item.planId)!.amount),
      created_at: iso(sub.start),
      updated_at: iso(item.endedAt ?? sub.start),
      expired_at: item.endedAt === undefined ? null : iso(item.endedAt),
    });
    subscriptions.push({
      id: sub.id,
      object: 'subscription',
      uuid: `uuid-${sub.id}`,
      account: accountMini(customer),
      plan: {
        id: `p-${main!.planId}`,
        object: 'plan_mini',
        code: main!.planId,
        name: plans.get(main!.planId)!.name,
      },
      state,
      current_period_started_at: iso(current.start),
      current_period_ends_at: iso(current.end),
      trial_started_at: sub.trialEnd === null ? null : iso(sub.start),
      trial_ends_at: sub.trialEnd === null ? null : iso(sub.trialEnd),
      paused_at: sub.paused ? iso(current.end) : null,
      currency: customer.currency.toUpperCase(),
      unit_amount: major(plans.get(main!.planId)!.amount),
      quantity: main!.quantity,
      add_ons: others.map(subscriptionAddOn),
      ...(change === undefined
        ? {}
        : {
            pending_change: {
              id: `sc-${sub.id}`,
              object: 'subscription_change',
              subscription_id: sub.id,
              activate_at: iso(change.at),
              activated: false,
              plan: {
                id: `p-${change.planId}`,
                object: 'plan_mini',
                code: change.planId,
                name: plans.get(change.planId)!.name,
              },
              unit_amount: major(plans.get(change.planId)!.amount),
              quantity: change.quantity,
              add_ons: others.filter((item) => !change.removed.includes(item.id)).map(subscriptionAddOn),
              created_at: iso(updated),
              updated_at: iso(updated),
            },
          }),
      auto_renew: true,
      collection_method: 'automatic',
      activated_at: iso(sub.start),
      canceled_at: canceledAt === null ? null : iso(canceledAt),
      expires_at: expiresAt === null ? null : iso(expiresAt),
      created_at: iso(sub.start),
      updated_at: iso(updated),
    });

    customer.invoices.forEach((invoice, index) => {
      const trial = index === 0 && sub.trialEnd !== null;
      const charges = invoice.lines.filter((line) => line.gross >= 0);
      const credits = invoice.lines.filter((line) => line.gross < 0);
      const state = { paid: 'paid', open: 'past_due', void: 'voided' }[invoice.status];
      const wire: RecurlyObject = {
        id: invoice.id,
        object: 'invoice',
        uuid: `uuid-${invoice.id}`,
        type: 'charge',
        origin: index === 0 ? 'purchase' : 'renewal',
        state,
        account: accountMini(customer),
        subscription_ids: [sub.id],
        number: invoice.id.toUpperCase(),
        collection_method: 'automatic',
        currency: invoice.currency.toUpperCase(),
        line_items: charges.map((line) => lineOf(customer, invoice, line, plans, trial)),
        created_at: iso(invoice.created),
        updated_at: iso(invoice.created),
        due_at: null,
        closed_at: null,
      };
      wire.transactions = invoice.charges.map((charge) =>
        transaction(customer, wire, {
          id: charge.id,
          uuid: `uuid-${charge.id}`,
          type: 'purchase',
          origin: 'recurring',
          amount: major(charge.amount),
          status: charge.ok ? 'success' : 'declined',
          success: charge.ok,
          created_at: iso(charge.created),
          updated_at: iso(charge.created),
          collected_at: charge.ok ? iso(charge.created) : null,
        }),
      );
      invoices.push(wire);
      if (credits.length > 0) {
        invoices.push({
          ...wire,
          id: `${invoice.id}-credit`,
          uuid: `uuid-${invoice.id}-credit`,
          type: 'credit',
          origin: 'immediate_change',
          state: invoice.status === 'void' ? 'voided' : 'closed',
          number: `${invoice.id.toUpperCase()}-C`,
          line_items: credits.map((line) => lineOf(customer, invoice, line, plans, false)),
          transactions: [],
        });
      }
      for (const charge of invoice.charges.filter((each) => each.refund > 0)) {
        const at = charge.created + 5 * DAY;
        const refund: RecurlyObject = {
          id: `${charge.id}-refund`,
          object: 'invoice',
          uuid: `uuid-${charge.id}-refund`,
          type: 'credit',
          origin: 'refund',
          state: 'closed',
          account: accountMini(customer),
          subscription_ids: [],
          number: `${invoice.id.toUpperCase()}-R`,
          collection_method: 'automatic',
          currency: invoice.currency.toUpperCase(),
          line_items: [
            {
              id: `${charge.id}-refund-line`,
              object: 'line_item',
              type: 'credit',
              state: 'invoiced',
              origin: 'credit',
              refund: true,
              currency: invoice.currency.toUpperCase(),
              description: `Refund of ${charge.id}`,
              quantity: 1,
              unit_amount: major(-charge.refund),
              subtotal: major(-charge.refund),
              discount: 0,
              tax: 0,
              amount: major(-charge.refund),
              start_date: iso(at),
              end_date: null,
              created_at: iso(at),
              updated_at: iso(at),
            },
          ],
          created_at: iso(at),
          updated_at: iso(at),
          due_at: null,
          closed_at: iso(at),
        };
        refund.transactions = [
          transaction(customer, refund, {
            id: `re_${charge.id}`,
            uuid: `uuid-re_${charge.id}`,
            type: 'refund',
            origin: 'merchant',
            original_transaction_id: charge.id,
            amount: major(charge.refund),
            status: 'success',
            success: true,
            created_at: iso(at),
            updated_at: iso(at),
            collected_at: iso(at),
          }),
        ];
        invoices.push(refund);
      }
    });
  }

  return {
    site: {
      id: 'site-fake',
      object: 'site',
      subdomain: 'fake-books',
      mode: 'sandbox',
      created_at: created,
      updated_at: created,
    },
    accounts,
    plans: [...plans.keys()].filter((code) => mainCodes.has(code)).map(wirePlan),
    addOns: new Map(
      [...addOnsOf].map(([planCode, codes]) => [
        `p-${planCode}`,
        [...codes].map((code) => wireAddOn(planCode, code)),
      ]),
    ),
    subscriptions,
    invoices,
  };
}

/** How many invoices (charge and credit) the Recurly form of `customers` holds. */
export function recurlyInvoiceCount(customers: readonly Customer[]): number {
  return recurlyData(customers).invoices.length;
}
