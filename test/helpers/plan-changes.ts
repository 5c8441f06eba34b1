import type { Customer } from './stripe-account.js';

// Changes of plan that Chargebee and Recurly hold and Stripe's form of the generated account
// (stripe-account.ts) does not: each adds them to some customers of a copy of the account, in
// the neutral form that dataRecords posts and chargebee-account.ts / recurly-account.ts serve.

/** A live subscription: running, not paused, not ending. */
function live(customer: Customer): boolean {
  const sub = customer.subscription;
  return !customer.deleted && sub.status === 'active' && !sub.cancelAtPeriodEnd && !sub.paused;
}

/**
 * Every fourth live subscription changes at the end of its current term: a Basic one moves to
 * Pro yearly and drops its extra items, any other gains a unit of its plan.
 */
export function withTermEndChanges(customers: readonly Customer[]): Customer[] {
  const copy = structuredClone(customers) as Customer[];
  copy.filter(live).forEach((customer, index) => {
    if (index % 4 !== 1) return;
    const [main, ...extras] = customer.subscription.items;
    customer.subscription.termEndChange =
      main!.planId === 'price_basic'
        ? {
            at: main!.periodEnd,
            planId: 'price_pro_year',
            quantity: main!.quantity,
            removed: extras.map((item) => item.id),
          }
        : { at: main!.periodEnd, planId: main!.planId, quantity: main!.quantity + 1, removed: [] };
  });
  return copy;
}

/**
 * Every second live subscription with seats (and no change pending) had them removed at its
 * second-to-last renewal: the seat lines stop there. The payments stay as generated (this is a
 * fixture for MRR, which invoices' lines decide, not for cash).
 */
export function withRemovedSeats(customers: readonly Customer[]): Customer[] {
  const copy = structuredClone(customers) as Customer[];
  const withSeats = copy.filter(
    (customer) =>
      live(customer) &&
      customer.subscription.termEndChange === undefined &&
      customer.invoices.length >= 3 &&
      customer.subscription.items.some((item) => item.planId === 'price_seat'),
  );
  withSeats.forEach((customer, index) => {
    if (index % 2 !== 0) return;
    const seat = customer.subscription.items.find((item) => item.planId === 'price_seat')!;
    const from = customer.invoices.length - 2;
    seat.endedAt = customer.invoices[from]!.created;
    for (const invoice of customer.invoices.slice(from))
      invoice.lines = invoice.lines.filter((line) => line.itemId !== seat.id);
  });
  return copy;
}
