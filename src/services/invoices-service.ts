import {
  INVOICE_STATUSES,
  LINE_TYPES,
  TRANSACTION_RESULTS,
  TRANSACTION_TYPES,
} from '../engine/vocabulary.js';
import { z } from 'zod';
import { invoiceEvents } from '../engine/webhook-events.js';
import { type InvoiceRow } from '../store/invoices-repo.js';
import type { Store } from '../store/open-store.js';
import type { FxService } from './fx-service.js';
import type { Page } from '../store/records-repo.js';
import {
  cents,
  currency,
  dataSourceRef,
  day,
  externalId,
  instant,
  shortText,
  storedCount,
} from './record-fields.js';
import { type RecordType, recordUseCases } from './record-import.js';
import { checkReferences } from './reference-checks.js';
import type { RecordEventSink } from './webhooks-service.js';

function oneOf<T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(', ')}` });
}

const nonNegative = cents.min(0, 'must not be negative');

export const invoiceLineSchema = z
  .strictObject({
    id: externalId.optional().describe('Line id; default: its position, "line_1", "line_2", ...'),
    type: oneOf(LINE_TYPES).default('subscription'),
    subscription_id: externalId.nullable().default(null),
    plan_id: externalId.nullable().default(null).describe("A plan of the invoice's data source"),
    description: shortText.nullable().default(null),
    amount: cents.describe('Cents, after discount, before tax'),
    quantity: storedCount(0).default(1),
    period_start: day.nullable().default(null),
    period_end: day.nullable().default(null).describe('First day after the period: [start, end)'),
    discount: nonNegative.default(0),
    tax: cents.default(0),
    prorated: z.boolean().default(false),
  })
  .superRefine((line, ctx) => {
    if (line.type !== 'subscription') return;
    for (const field of ['period_start', 'period_end'] as const) {
      if (line[field] === null)
        ctx.addIssue({ code: 'custom', path: [field], message: 'is required on a subscription line' });
    }
    if (line.period_start !== null && line.period_end !== null && line.period_end <= line.period_start) {
      ctx.addIssue({ code: 'custom', path: ['period_end'], message: 'must be after period_start' });
    }
  });

export const invoiceTransactionSchema = z.strictObject({
  id: externalId,
  date: instant,
  type: oneOf(TRANSACTION_TYPES),
  result: oneOf(TRANSACTION_RESULTS),
  amount: nonNegative,
  payment_method: shortText.nullable().default(null),
});

function duplicateId(items: readonly { id?: string | undefined }[]): number {
  const seen = new Set<string>();
  return items.findIndex((item) => {
    if (item.id === undefined) return false;
    if (seen.has(item.id)) return true;
    seen.add(item.id);
    return false;
  });
}

export const invoiceInputSchema = z
  .strictObject({
    id: externalId.describe('External invoice id'),
    customer_id: externalId.describe("A customer of the invoice's data source"),
    data_source: dataSourceRef.optional(),
    date: day,
    due_date: day.nullable().default(null),
    currency,
    status: oneOf(INVOICE_STATUSES).default('paid'),
    number: shortText.nullable().default(null),
    description: shortText.nullable().default(null),
    payment_date: day.nullable().default(null),
    amount: cents
      .optional()
      .describe('Total in cents; required without lines, else it must equal the line amounts plus tax'),
    lines: z.array(invoiceLineSchema).default([]),
    transactions: z.array(invoiceTransactionSchema).default([]),
  })
  .superRefine((invoice, ctx) => {
    if (invoice.lines.length === 0 && invoice.amount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'is required on an invoice without lines' });
    }
    const linesTotal = invoice.lines.reduce((sum, line) => sum + line.amount + line.tax, 0);
    if (invoice.lines.length > 0 && invoice.amount !== undefined && invoice.amount !== linesTotal) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: `${invoice.amount} does not equal the line amounts plus tax, ${linesTotal}`,
      });
    }
    for (const field of ['lines', 'transactions'] as const) {
      const index = duplicateId(invoice[field]);
      if (index >= 0) ctx.addIssue({ code: 'custom', path: [field, index, 'id'], message: 'is not unique' });
    }
  })
  .transform(({ amount, lines, ...invoice }) => {
    const taken = new Set(lines.map((line) => line.id));
    const withIds = lines.map((line, index) => ({ ...line, id: line.id ?? generatedLineId(index, taken) }));
    const total = lines.length > 0 ? lines.reduce((sum, line) => sum + line.amount + line.tax, 0) : amount!;
    return { ...invoice, amount: total, lines: withIds };
  });

/** Stable across re-sends of the same body, and never equal to an id given on another line. */
function generatedLineId(index: number, taken: ReadonlySet<string | undefined>): string {
  let id = `line_${index + 1}`;
  while (taken.has(id)) id = `_${id}`;
  return id;
}

const invoiceType: RecordType<InvoiceRow> = {
  table: 'invoices',
  noun: 'Invoice',
  schema: invoiceInputSchema,
  referenceCheck: (tx, accountId, invoices) =>
    checkReferences(tx, accountId, invoices, (invoice) => ({
      customer: invoice.customer_id,
      plans: invoice.lines.flatMap((line, index) =>
        line.plan_id === null ? [] : [{ id: line.plan_id, where: ` (lines.${index}.plan_id)` }],
      ),
    })),
  async write(tx, accountId, invoices) {
    const previousOwners = await tx.invoices.upsertMany(accountId, invoices);
    const owners = invoices.map((invoice) => ({
      dataSourceId: invoice.data_source,
      id: invoice.customer_id,
    }));
    return { customers: [...previousOwners, ...owners] };
  },
  read: (tx, accountId, keys) => tx.invoices.getMany(accountId, keys),
  // New lines make a new total, unless the update gives one to check them against.
  merge: (current, patch) =>
    'lines' in patch && !('amount' in patch)
      ? { ...current, amount: undefined, ...patch }
      : { ...current, ...patch },
  events: invoiceEvents,
};

export function createInvoicesService(store: Store, fx: FxService, sink?: RecordEventSink) {
  return {
    ...recordUseCases(store, fx, invoiceType, sink),

    list(accountId: string, page: Page & { customerId?: string | undefined }): Promise<InvoiceRow[]> {
      return store.invoices.list(accountId, page);
    },
  };
}

export type InvoicesService = ReturnType<typeof createInvoicesService>;
