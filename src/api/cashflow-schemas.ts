import { INVOICE_STATUSES } from '../engine/vocabulary.js';
import { z } from 'zod';
import { FAILED_OUTCOMES } from '../engine/cashflow/failed-invoice.js';
import { OUTSTANDING_AGES } from '../engine/cashflow/outstanding.js';
import { type ToDateLayout, toDateFields } from '../engine/cashflow/to-date.js';

const cents = z.number().int();
const count = z.number().int();
const day = z.string().describe('YYYY-MM-DD');
const percent = z.number().nullable().describe('Percent, two decimals; null when nothing is counted');
const period = {
  date: day.describe('First day of the period, cut to the range'),
  end_date: day.describe('Last day of the period, inclusive, cut to the range'),
};

export const transactionsRow = z.object({
  ...period,
  payments: cents.describe('Successful payments, base currency'),
  refund: cents.describe('Successful refunds, base currency, positive'),
  net_amount: cents.describe('payments - refund'),
  net_amount_change_pct: percent.describe('Change from the row before; null on the first row or from 0'),
  payment_count: count,
  refund_count: count,
});

export const transactionItem = z.object({
  date: day,
  transaction_id: z.string(),
  type: z.enum(['payment', 'refund']),
  result: z.enum(['successful', 'failed']),
  payment_method: z.string().nullable(),
  invoice_ref: z.string(),
  invoice_number: z.string().nullable(),
  customer_id: z.string(),
  customer_name: z.string().nullable(),
  customer_email: z.string().nullable(),
  currency: z.string().describe("The invoice's currency"),
  amount: cents.describe("Cents of the invoice's currency"),
  amount_base_currency: cents,
});

export const failedPaymentsRow = z.object({
  ...period,
  currency: z.string(),
  failed_amount: cents.describe('recovered + still_unpaid + churned'),
  recovered: cents,
  still_unpaid: cents,
  churned: cents,
  failed_invoices: count,
  recovered_customers: count,
  still_unpaid_customers: count,
  churned_customers: count,
  affected_customers: count,
  total_retry_attempts: count.describe('Payment attempts after each first failure'),
});

export const failedPaymentItem = z.object({
  date: day.describe('The first failed attempt'),
  invoice_ref: z.string(),
  invoice_number: z.string().nullable(),
  customer_id: z.string(),
  customer_name: z.string().nullable(),
  customer_email: z.string().nullable(),
  currency: z.string(),
  amount: cents.describe('The first failed attempt, in the invoice currency'),
  amount_base_currency: cents,
  retry_attempts: count,
  outcome: z.enum(FAILED_OUTCOMES),
  outcome_date: day.nullable().describe('Recovered or churned on; null while still unpaid'),
});

export const refundsRow = z.object({
  ...period,
  refund_amount: cents,
  refund_count: count,
  customers_refunded: count,
});

export const failureRateRow = z.object({
  ...period,
  period: z.string().describe("The same as date, for the hosted service's clients"),
  currency: z.string(),
  attempted_invoices: count.describe('Invoices with a payment attempt in the period'),
  failed_invoices: count.describe('Invoices whose first failed attempt is in the period'),
  failure_rate: z.number().describe('Percent, two decimals: failed / attempted invoices; 0 without attempts'),
});

export const invoiceRecord = z.object({
  invoice_ref: z.string(),
  invoice_number: z.string().nullable(),
  invoice_date: day,
  invoice_status: z.enum(INVOICE_STATUSES),
  payment_date: day.nullable(),
  customer_id: z.string(),
  customer_name: z.string().nullable(),
  customer_email: z.string().nullable(),
  description: z.string().nullable(),
  currency: z.string(),
  total: cents,
  total_base_currency: cents.describe('Converted at the invoice date'),
  transaction_count: count,
  lines: z.array(
    z.object({
      description: z.string().nullable(),
      amount: cents,
      quantity: count,
      period_start: day.nullable(),
      period_end: day.nullable(),
    }),
  ),
});

/** A to-date summary's fields, all numbers; rates, changes and money are null where undefined. */
export function toDateSummarySchema(layout: ToDateLayout) {
  return z.object(Object.fromEntries(toDateFields(layout).map((field) => [field, z.number().nullable()])));
}

export const outstandingSummarySchema = z.object(
  Object.fromEntries(
    OUTSTANDING_AGES.flatMap(([name]) => [
      [`outstanding_${name}`, cents],
      [`invoices_${name}`, count],
    ]),
  ),
);
