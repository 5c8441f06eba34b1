import type Stripe from 'stripe';

// Stripe objects in, `/data/*` records out; pure functions, so each rule has a test. The rules
// and their reasons are in docs/connectors.md ("processor-a: Stripe").

const DAY_SECONDS = 86_400;

function instant(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

function day(seconds: number): string {
  return instant(seconds).slice(0, 10);
}

function idOf(value: string | { id: string } | null): string | null {
  return typeof value === 'string' || value === null ? value : value.id;
}

/** A customer needs a name or an email; Stripe requires neither, so the description or id stands in. */
export function mapCustomer(customer: Stripe.Customer) {
  const name = customer.name ?? (customer.email ? null : (customer.description ?? customer.id));
  return {
    id: customer.id,
    name,
    email: customer.email,
    created_date: instant(customer.created),
    country: customer.address?.country ?? null,
    currency: customer.currency ?? null,
  };
}

/** A recurring price is a plan; a one-time price is not (its lines are one-time revenue). */
export function mapPrice(price: Stripe.Price) {
  if (!price.recurring) return undefined;
  const product = typeof price.product === 'string' ? undefined : price.product;
  const productName = product && !('deleted' in product && product.deleted) ? product.name : null;
  return {
    id: price.id,
    name: price.nickname ?? productName ?? price.id,
    billing_freq: price.recurring.interval,
    billing_freq_count: price.recurring.interval_count,
    pricing_model: price.recurring.usage_type === 'metered' ? 'metered' : 'licensed',
    product_name: productName,
    currency: price.currency,
  };
}

const STATUS: Partial<Record<Stripe.Subscription.Status, string>> = {
  active: 'active',
  trialing: 'trialing',
  past_due: 'past_due',
  unpaid: 'past_due',
  canceled: 'canceled',
  // Paused by Stripe (a trial ended without a payment method): the record stops carrying
  // revenue, and what the invoices say decides.
  paused: 'ended',
};

/**
 * One record per subscription item, keyed by the item's id, which is also what the item's
 * invoice lines name: a multi-item subscription is several of ours, each with its plan and
 * quantity. Incomplete subscriptions (never paid) are not subscriptions yet.
 */
export function mapSubscription(subscription: Stripe.Subscription) {
  const status = subscription.pause_collection ? 'ended' : STATUS[subscription.status];
  if (status === undefined) return [];
  return subscription.items.data.map((item) => {
    const cancelAt =
      subscription.cancel_at ?? (subscription.cancel_at_period_end ? item.current_period_end : null);
    return {
      id: item.id,
      customer_id: idOf(subscription.customer),
      plan_id: item.price.recurring ? item.price.id : null,
      quantity: item.quantity ?? 1,
      status,
      started_at: instant(subscription.start_date),
      cancel_requested_at:
        cancelAt !== null && subscription.canceled_at !== null ? instant(subscription.canceled_at) : null,
      cancel_at: cancelAt === null ? null : instant(cancelAt),
      ended_at: subscription.ended_at === null ? null : instant(subscription.ended_at),
      currency: subscription.currency,
    };
  });
}

function sum(amounts: readonly { amount: number }[] | null | undefined): number {
  return (amounts ?? []).reduce((total, { amount }) => total + amount, 0);
}

/** Which subscription item a line bills, if any, and whether it is a proration. */
function lineOrigin(line: Stripe.InvoiceLineItem): { subscriptionItem: string | null; proration: boolean } {
  const parent = line.parent;
  if (parent?.subscription_item_details) {
    return {
      subscriptionItem: parent.subscription_item_details.subscription_item,
      proration: parent.subscription_item_details.proration,
    };
  }
  return { subscriptionItem: null, proration: parent?.invoice_item_details?.proration ?? false };
}

/**
 * Our line amount is after discounts and before tax; Stripe's line amount is before discounts
 * and includes tax when the price is tax-inclusive. Stripe's period end is the instant the
 * period ends, which is the first day after it in our half-open days.
 */
export function mapLine(line: Stripe.InvoiceLineItem) {
  const { subscriptionItem, proration } = lineOrigin(line);
  const discount = sum(line.discount_amounts);
  const inclusiveTax = sum(line.taxes?.filter((tax) => tax.tax_behavior === 'inclusive'));
  const price = line.pricing?.price_details?.price ?? null;
  const recurring = subscriptionItem !== null || (proration && line.subscription !== null);
  const start = day(line.period.start);
  const end = day(line.period.end);
  return {
    id: line.id,
    type: recurring ? 'subscription' : 'one_time',
    subscription_id: subscriptionItem,
    plan_id: recurring ? idOf(price) : null,
    description: line.description,
    amount: line.amount - discount - inclusiveTax,
    quantity: line.quantity ?? 1,
    period_start: start,
    // A one-time item's period is an instant; as days it is the day it falls on.
    period_end: end > start ? end : day(line.period.start + DAY_SECONDS),
    discount,
    tax: sum(line.taxes),
    prorated: proration,
  };
}

/** A charge is a payment attempt, failed ones included; each refund of it is a refund. */
export function mapCharge(charge: Stripe.Charge) {
  if (charge.status === 'pending') return [];
  const payment = {
    id: charge.id,
    date: instant(charge.created),
    type: 'payment',
    result: charge.status === 'succeeded' ? 'successful' : 'failed',
    amount: charge.amount,
    payment_method: charge.payment_method_details?.type ?? null,
  };
  const refunds = (charge.refunds?.data ?? [])
    .filter((refund) => refund.status === 'succeeded' || refund.status === 'failed')
    .map((refund) => ({
      id: refund.id,
      date: instant(refund.created),
      type: 'refund',
      result: refund.status === 'succeeded' ? 'successful' : 'failed',
      amount: refund.amount,
      payment_method: payment.payment_method,
    }));
  return [payment, ...refunds];
}

/** An invoice with all its lines and the charges of its payments. */
export function mapInvoice(
  invoice: Stripe.Invoice,
  lines: readonly Stripe.InvoiceLineItem[],
  charges: readonly Stripe.Charge[],
) {
  return {
    id: invoice.id,
    customer_id: idOf(invoice.customer),
    date: day(invoice.created),
    due_date: invoice.due_date === null ? null : day(invoice.due_date),
    currency: invoice.currency,
    status: invoice.status ?? 'draft',
    number: invoice.number,
    description: invoice.description,
    payment_date:
      invoice.status_transitions.paid_at === null ? null : day(invoice.status_transitions.paid_at),
    lines: lines.map(mapLine),
    transactions: charges.flatMap(mapCharge),
  };
}
