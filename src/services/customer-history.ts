import { dayNumber } from '../engine/days.js';
import type {
  CustomerHistory,
  InvoiceInput,
  LineInput,
  PlanInput,
  ScheduledChangeInput,
  SubscriptionInput,
} from '../engine/types.js';
import type { HistoryLineRow, HistorySubscriptionRow, PlanRow } from '../store/metrics-repo.js';

/** Plans by `data_source_id:plan_id`: plan ids are only unique within their data source. */
export function planKey(dataSourceId: string, planId: string): string {
  return `${dataSourceId}:${planId}`;
}

export function plansByKey(rows: readonly PlanRow[]): Map<string, PlanInput> {
  return new Map(
    rows.map((row) => {
      const id = planKey(row.data_source_id, row.plan_id);
      return [
        id,
        {
          id,
          billingFreq: row.billing_freq,
          billingFreqCount: row.billing_freq_count,
          pricingModel: row.pricing_model,
        },
      ];
    }),
  );
}

const day = (instant: string) => dayNumber(instant.slice(0, 10));
const optionalDay = (instant: string | null) => (instant === null ? null : day(instant));

function invoices(lines: readonly HistoryLineRow[]): InvoiceInput[] {
  const byId = new Map<string, InvoiceInput & { lines: LineInput[] }>();
  for (const row of lines) {
    let invoice = byId.get(row.invoice_id);
    if (!invoice) {
      invoice = {
        id: row.invoice_id,
        status: row.status,
        currency: row.currency,
        date: day(row.date),
        lines: [],
      };
      byId.set(row.invoice_id, invoice);
    }
    if (row.type === null) continue;
    invoice.lines.push({
      type: row.type,
      subscriptionId: row.subscription_id,
      planId: row.plan_id === null ? null : planKey(row.data_source_id, row.plan_id),
      amount: row.amount ?? 0,
      quantity: row.quantity ?? 1,
      discount: row.discount ?? 0,
      periodStart: optionalDay(row.period_start),
      periodEnd: optionalDay(row.period_end),
      prorated: row.prorated ?? false,
    });
  }
  return [...byId.values()];
}

function subscription(row: HistorySubscriptionRow): SubscriptionInput {
  const planId = (id: string | null | undefined) => (id ? planKey(row.data_source_id, id) : null);
  // A change that does not name a quantity keeps the one before it, in date order.
  let quantity = row.quantity;
  const changes = [...row.scheduled_changes].sort((a, b) => day(a.date) - day(b.date));
  return {
    id: row.subscription_id,
    planId: planId(row.plan_id),
    quantity: row.quantity,
    status: row.status,
    startedAt: day(row.started_at),
    cancelRequestedAt: optionalDay(row.cancel_requested_at),
    cancelAt: optionalDay(row.cancel_at),
    endedAt: optionalDay(row.ended_at),
    mrr: row.mrr,
    currency: row.currency,
    scheduledChanges: changes.flatMap((change): ScheduledChangeInput[] => {
      quantity = change.quantity ?? quantity;
      if (change.amount === undefined) return [];
      return [
        {
          day: day(change.date),
          planId: planId(change.plan_id) ?? planId(row.plan_id),
          mrr: change.amount,
          quantity,
        },
      ];
    }),
  };
}

/**
 * One customer's raw records in the engine's shape. Its MRR is kept in its own currency, else
 * in the currency of its first invoice, else in the account's.
 */
export function customerHistory(
  customerCurrency: string | null,
  lines: readonly HistoryLineRow[],
  subscriptions: readonly HistorySubscriptionRow[],
  plans: ReadonlyMap<string, PlanInput>,
  accountCurrency: string,
): CustomerHistory {
  const invoiceInputs = invoices(lines);
  return {
    currency: customerCurrency ?? invoiceInputs[0]?.currency ?? accountCurrency,
    invoices: invoiceInputs,
    subscriptions: subscriptions.map(subscription),
    plans,
  };
}
