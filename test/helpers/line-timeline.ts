import { customerTimeline } from '../../src/engine/customer-timeline.js';
import type { CurrencyConverter, CustomerTimeline } from '../../src/engine/types.js';

/** A generated subscription line: `start` days after the base day, `length` days long. */
export interface GeneratedLine {
  amount: number;
  start: number;
  length: number;
}

/**
 * The engine's own timeline of a customer billed by plan-less lines, one paid invoice per line,
 * for property tests of the reports that read timelines.
 */
export function lineTimeline(
  id: string,
  currency: string,
  lines: readonly GeneratedLine[],
  base: number,
  fx: CurrencyConverter,
): CustomerTimeline {
  return customerTimeline(
    {
      currency,
      plans: new Map(),
      subscriptions: [],
      invoices: lines.map((line, n) => ({
        id: `${id}-${n}`,
        status: 'paid' as const,
        currency,
        date: base + line.start,
        lines: [
          {
            type: 'subscription' as const,
            subscriptionId: null,
            planId: null,
            amount: line.amount,
            quantity: 1,
            discount: 0,
            periodStart: base + line.start,
            periodEnd: base + line.start + line.length,
            prorated: false,
          },
        ],
      })),
    },
    { fx },
  );
}
