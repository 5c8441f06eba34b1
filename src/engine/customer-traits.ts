import type { CustomerHistory, PlanInput } from './types.js';

/**
 * Whether the customer's latest counted invoice with subscription lines gives a discount: a
 * filter on what a customer pays now, so an introductory discount long past does not count.
 */
export function hasCurrentDiscount(history: CustomerHistory): boolean {
  let latest: CustomerHistory['invoices'][number] | undefined;
  for (const invoice of history.invoices) {
    if (invoice.status === 'draft' || invoice.status === 'void') continue;
    if (!invoice.lines.some((line) => line.type === 'subscription')) continue;
    if (!latest || invoice.date >= latest.date) latest = invoice;
  }
  return latest?.lines.some((line) => line.discount > 0) ?? false;
}

/** The pricing models of the plans a customer was billed on, sorted. */
export function pricingModels(planIds: readonly string[], plans: ReadonlyMap<string, PlanInput>): string[] {
  return [...new Set(planIds.flatMap((id) => plans.get(id)?.pricingModel ?? []))].sort();
}
